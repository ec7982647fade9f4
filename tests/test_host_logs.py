"""The host tool against the virtual board (real MicroPython on a pty, a real littlefs image,
pyserial, mpremote): `bgboard devices`, `logs list|pull` (verified, archived per board, resumed
after a power cut and after the puller itself is killed, --delete, --out), `games`, `watch`,
a busy port and no board, and the transfer rate against mpremote (printed: run with -s)."""

import re
import os
import random
import shutil
import signal
import subprocess
import time

import pytest
import serial

from conftest import FW_VERSION
from test_gnubg_files import final_score, gnubg
from test_vboard import (ANSWER, BGBOARD, DEMO, Client, VBoard,  # noqa: F401 (a fixture)
                         golden_image)

COPIES = 5          # each generated record is put on the board this many times (volume)


@pytest.fixture(scope="session")
def records(tmp_path_factory):
    """Records as a board writes them (bot-against-bot 3-point matches): {name: bytes}."""
    from bgcore.match import MATCH, Rules
    from bgboard.games import play_record
    rng = random.Random(2026)
    made = [play_record(Rules(MATCH, 3), rng, ("Bot1A", "Bot1B"), start="2026-11-%02dT10:00:00"
                        % (i + 1), level=1).encode() for i in range(8)]
    return {"%04d.bgr" % (100 + i): made[i % len(made)] for i in range(len(made) * COPIES)}


@pytest.fixture(scope="session")
def records_image(tmp_path_factory, golden_image, records):  # noqa: F811
    from bgboard import vboard
    img = tmp_path_factory.mktemp("records") / "flash.img"
    shutil.copy(golden_image, img)
    fs = vboard.open_image(img)
    fs.makedirs("/data", exist_ok=True)
    for name, data in records.items():
        with fs.open("/data/" + name, "wb") as f:
            f.write(data)
    vboard.save_image(fs, img)
    return img


@pytest.fixture
def rboard(tmp_path, records_image, monkeypatch):
    # this test's own list of running virtual boards: `bgboard devices` asks only this one
    # (not boards other programs on this machine are talking to)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    img = tmp_path / "flash.img"
    shutil.copy(records_image, img)
    vb = VBoard(tmp_path, img)
    yield vb
    vb.stop()


def bgboard(*args, env=None, timeout=DEMO):
    return subprocess.run([BGBOARD] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def data_env(tmp_path):
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(tmp_path / "userdata")
    return env


def board_id(link):
    c = Client(link)
    try:
        hello = c.hello()
    finally:
        c.ser.close()
    return dict(w.split("=", 1) for w in hello.split()[2:])["board"]


def test_devices_lists_the_virtual_board_with_its_id_and_version(rboard):
    ident = board_id(rboard.link)
    # mpremote stops the firmware and leaves the board at MicroPython's prompt: bgboard
    # restarts it (a soft reset) to ask HELLO
    from conftest import tool_path
    r = subprocess.run([tool_path("mpremote"), "connect", str(rboard.link), "exec", "print(6*7)"],
                       capture_output=True, text=True, timeout=ANSWER)
    assert r.stdout.strip() == "42", r.stderr
    r = bgboard("devices")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 2               # the heading and this board
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith(str(rboard.link)))
    assert line.split()[1:4] == [FW_VERSION, ident, "reference"]
    # one port asked directly; and a port with nothing behind it
    r = bgboard("devices", "--port", rboard.link)
    assert ident in r.stdout
    r = bgboard("logs", "list", "--port", rboard.dir / "nothing-here")
    assert r.returncode == 1 and "no board on %s" % (rboard.dir / "nothing-here") in r.stderr


def test_a_busy_port_is_named_and_nothing_is_touched(rboard, tmp_path):
    holder = serial.serial_for_url(str(rboard.link), exclusive=True)
    try:
        for args in (("logs", "pull", "--port", rboard.link, "--out", tmp_path / "o"),
                     ("flash", "--port", rboard.link)):
            r = bgboard(*args)
            assert r.returncode == 1
            assert "port %s is busy: another program holds it" % rboard.link in r.stderr, \
                r.stderr
        assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())
    finally:
        holder.close()
    r = bgboard("logs", "list", "--port", rboard.link)
    assert r.returncode == 0 and "40 record(s)" in r.stdout


def test_pull_verifies_archives_per_board_and_lists_the_games(rboard, tmp_path, records):
    env = data_env(tmp_path)
    ident = board_id(rboard.link)
    r = bgboard("logs", "pull", "--port", rboard.link, env=env)
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "userdata" / "bgboard" / "archive" / ident
    assert sorted(p.name for p in folder.iterdir()) == sorted(records)
    for name, data in records.items():
        assert (folder / name).read_bytes() == data
    assert "%d record(s) pulled" % len(records) in r.stdout
    # each verified copy is marked pulled on the board (PULLED), which may delete it when full
    assert ", %d marked pulled on it;" % len(records) in r.stdout
    # a second pull finds them all there: nothing travels, nothing is marked again
    r = bgboard("logs", "pull", "--port", rboard.link, env=env)
    assert "0 record(s) pulled (0 bytes received), %d already there" % len(records) in r.stdout
    assert "marked pulled" not in r.stdout
    r = bgboard("logs", "list", "--port", rboard.link, env=env)
    assert r.stdout.count(" archived") == len(records)
    # the archive as a table: one row per record, players, mode and result from the record
    r = bgboard("games", env=env)
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()[1:]
    assert len(rows) == len(records)
    first = next(ln for ln in rows if ln.rstrip().endswith(ident + "/0100.bgr"))
    assert first.startswith("2026-11-01 10:00") and "Bot1A - Bot1B" in first \
        and "match to 3" in first and " won" in first
    # export and verify take an archived record by its name
    r = bgboard("export", "0100.bgr", "--format", "mat", "-o", tmp_path / "g.mat", env=env)
    assert r.returncode == 0, r.stderr
    r = bgboard("verify", tmp_path / "g.mat")
    assert r.returncode == 0 and "3-point match" in r.stdout, r.stdout + r.stderr


def test_delete_only_after_a_verified_copy_and_never_the_game_in_progress(rboard, tmp_path,
                                                                            records):
    c = Client(rboard.link)
    c.hello()
    assert c.cmd("KEY OK") == "OK KEY OK"          # a game starts: its record is open
    current = c.state()["record"]
    c.ser.close()
    out = tmp_path / "out"
    out.mkdir()
    # a damaged local copy of one record does not count as having it
    (out / "0101.bgr").write_bytes(records["0101.bgr"][:-10] + b"XXXXXXXXXX")
    r = bgboard("logs", "pull", "--port", rboard.link, "--out", out, "--delete")
    assert r.returncode == 0, r.stderr
    assert "%s is being written" % current in r.stderr
    for name, data in records.items():
        kept = [p for p in out.iterdir() if p.read_bytes() == data and
                p.name.split(".")[0].split("-")[0] == name.split(".")[0]]
        assert kept, name
    assert (out / "0101.bgr").read_bytes().endswith(b"XXXXXXXXXX")   # left as it was
    c = Client(rboard.link)
    c.hello()
    assert list(c.logs()) == [current]
    c.ser.close()


def _kill_when_part_appears(folder, proc, deadline=ANSWER):
    """Wait until a record is half-way (a .part file with bytes in it) and freeze the puller
    there (SIGSTOP: the caller resumes or kills it), so that what follows happens mid-transfer
    however fast the transfer is; returns the .part and its size."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < deadline:
        for p in folder.glob("*.part") if folder.exists() else ():
            try:
                n = p.stat().st_size
            except OSError:
                continue
            if n:
                proc.send_signal(signal.SIGSTOP)
                if p.exists():          # still half-way now that the puller stands still
                    return p, p.stat().st_size
                proc.send_signal(signal.SIGCONT)
        assert proc.poll() is None, "the pull ended before any record was half-way"
        time.sleep(0.001)
    raise AssertionError("no transfer seen")


def test_pull_resumes_after_a_power_cut_and_after_being_killed(rboard, tmp_path, records):
    out = tmp_path / "out"
    total = sum(len(d) for d in records.values())
    # the board loses power in the middle of a record: the pull reconnects and goes on
    proc = subprocess.Popen([BGBOARD, "logs", "pull", "--port", str(rboard.link), "--out",
                             str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _kill_when_part_appears(out, proc)
    rboard.power_cut()
    proc.send_signal(signal.SIGCONT)
    so, se = proc.communicate(timeout=DEMO)
    assert proc.returncode == 0, se
    # the rest of the record may already sit in the port's buffer when the power goes (then the
    # pull has nothing to resume); either way every record arrives whole, each byte once
    assert sorted(p.name for p in out.iterdir()) == sorted(records)
    assert all((out / n).read_bytes() == d for n, d in records.items())
    assert "(%d bytes received)" % total in so          # not one byte twice
    # the puller itself is killed half-way; the next run takes up the .part where it stopped
    out2 = tmp_path / "out2"
    proc = subprocess.Popen([BGBOARD, "logs", "pull", "--port", str(rboard.link), "--out",
                             str(out2)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _kill_when_part_appears(out2, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    have = sum(p.stat().st_size for p in out2.iterdir())      # whole records and the .part
    assert 0 < have < total
    r = bgboard("logs", "pull", "--port", rboard.link, "--out", out2)
    assert r.returncode == 0, r.stderr
    assert "(%d bytes received)" % (total - have) in r.stdout
    assert sorted(p.name for p in out2.iterdir()) == sorted(records)
    assert all((out2 / n).read_bytes() == d for n, d in records.items())


def test_a_demo_game_watched_then_pulled_and_verified(rboard, tmp_path):
    c = Client(rboard.link)
    c.hello()
    assert c.cmd("FAST on") == "OK FAST on"          # the demo without its pauses
    before = set(c.logs())
    c.ser.close()
    r = bgboard("watch", "--port", rboard.link, "--demo", "1")
    assert r.returncode == 0, r.stderr
    screen = r.stdout
    assert screen.count("\u25cf") > 30          # lit LEDs: the checkers
    assert "board " + board_id(rboard.link) in screen and "DEMO END" in screen
    assert re.search(r"bot:6 \([12]\) wins \d", screen) and "the end: " in screen  # END, MATCHEND
    out = tmp_path / "out"
    r = bgboard("logs", "pull", "--port", rboard.link, "--out", out)
    assert r.returncode == 0, r.stderr
    demo = sorted(set(p.name for p in out.iterdir()) - before)
    assert len(demo) == 1
    r = bgboard("verify", out / demo[0])
    assert r.returncode == 0 and "bot:6 vs bot:6" in r.stdout, r.stdout + r.stderr
    # exported for GNU Backgammon, which imports it without a warning, with the same score
    r = bgboard("export", out / demo[0], "--format", "mat", "-o", tmp_path / "demo.mat")
    assert r.returncode == 0, r.stderr
    from bgboard.games import load
    score = load(out / demo[0]).replay.match.score
    # (single games without cube: a gammon counts 2, as in money play without the Jacoby rule,
    # which a .mat cannot say)
    got = gnubg("set jacoby off\nimport mat %s\nshow score\n" % (tmp_path / "demo.mat"),
                tmp_path)
    assert "WARNING" not in got.upper().replace("WARRANTY", ""), got[-3000:]
    assert final_score(got) == score
    # watch --once: the menu's frame, drawn once
    r = bgboard("watch", "--port", rboard.link, "--once")
    assert r.returncode == 0 and r.stdout.count("\u25cf") > 30, r.stderr


def test_transfer_rate_against_mpremote(rboard, tmp_path):
    """Prints the figure (pytest -s); asserts only that both copies are the board's bytes."""
    from bgboard.bench_logs import measure
    t_ours, t_mp, total, names = measure(str(rboard.link), tmp_path / "bench", limit=12)
    assert len(names) == 12
    print("\nrecords %d, %.1f KB: protocol %.2f s (%.0f KB/s), mpremote fs cp %.2f s "
          "(%.0f KB/s), ratio %.1fx" % (len(names), total / 1024, t_ours, total / 1024 / t_ours,
                                       t_mp, total / 1024 / t_mp, t_mp / t_ours))
