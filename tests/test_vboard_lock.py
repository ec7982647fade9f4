"""One virtual board per link and per flash image: a second `bgboard vboard` on a link or an
image in use is refused with one line naming the process that holds it, and the first board keeps
running and answering on its link."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import serial

from test_vboard import ANSWER, STARTUP

BGBOARD = str(Path(sys.executable).parent / "bgboard")


def _start(link, flash, log):
    return subprocess.Popen([BGBOARD, "vboard", "--link", str(link), "--flash", str(flash)],
                            stdout=log, stderr=log)


def _wait_link(proc, link, log_path):
    t0 = time.monotonic()
    while not link.exists():
        assert proc.poll() is None, log_path.read_text()
        assert time.monotonic() - t0 < STARTUP, "the vboard did not create its link"
        time.sleep(0.02)


def _answers(link):
    """The board behind LINK evaluates an expression at its REPL."""
    with serial.Serial(str(link), 115200, timeout=5) as s:
        s.write(b"\r\nprint(6*7)\r\n")
        got = b""
        deadline = time.monotonic() + ANSWER
        while b"42" not in got.replace(b"6*7", b"") and time.monotonic() < deadline:
            got += s.read(64)
        return b"42" in got.replace(b"6*7", b"")


def test_second_vboard_is_refused_and_first_keeps_running(tmp_path):
    link, flash = tmp_path / "bgb", tmp_path / "bgb.img"
    log_path = tmp_path / "first.log"
    with open(log_path, "w") as log:
        first = _start(link, flash, log)
        try:
            _wait_link(first, link, log_path)
            target = os.readlink(link)
            alias = tmp_path / "alias"              # the same folder by another path
            os.symlink(tmp_path, alias)
            # the same link (and so its default image), then another link on the same image
            for args in (["--link", str(link), "--flash", str(flash)],
                         ["--link", str(link)],
                         ["--link", str(tmp_path / "other"), "--flash", str(flash)],
                         ["--link", str(tmp_path / "other"), "--flash", str(alias / flash.name)]):
                r = subprocess.run([BGBOARD, "vboard"] + args, capture_output=True, text=True,
                                   timeout=60)
                assert r.returncode == 1, (args, r.stderr)
                lines = r.stderr.strip().splitlines()
                assert len(lines) == 1, r.stderr
                assert "in use" in lines[0] and "process %d" % first.pid in lines[0], lines[0]
                assert "Traceback" not in r.stderr
            # nor may `sim --new` wipe (or `sim` reinstall) the image of a running board
            before = flash.read_bytes()
            for extra in (["--new"], []):
                r = subprocess.run([BGBOARD, "sim", "--flash", str(flash)] + extra,
                                   capture_output=True, text=True, timeout=60,
                                   stdin=subprocess.DEVNULL)
                assert r.returncode == 1, r.stderr
                assert r.stderr.strip() == ("bgboard sim: flash image %s is in use by the virtual "
                                            "board of process %d (stop it first, or choose "
                                            "another)" % (flash, first.pid)), r.stderr
            assert flash.read_bytes() == before
            assert first.poll() is None
            assert os.readlink(link) == target          # nobody re-pointed or deleted the link
            assert not (tmp_path / "other").exists()
            assert _answers(link)
        finally:
            first.send_signal(signal.SIGTERM)
            first.wait(10)
    assert not link.exists() and not link.is_symlink()
    # once the first has stopped, the link and image are free again
    from bgboard import vboard
    assert vboard.holder(link) is None and vboard.holder(flash) is None


def test_launch_refuses_a_link_in_use(tmp_path):
    """The programs that start boards of their own (sim, bench logs) are refused the same way."""
    import pytest
    from bgboard import vboard
    from bgboard.protocol import LinkError
    link, flash = tmp_path / "bgb", tmp_path / "bgb.img"
    proc = vboard.launch(link, flash)
    try:
        with pytest.raises(LinkError, match="in use by the virtual board of process %d"
                           % proc.pid):
            vboard.launch(tmp_path / "two", flash)
    finally:
        vboard.stop(proc)
    assert not link.exists()
