"""`bgboard sim` as a new user meets it: run in a terminal (a pty here), it draws the panel from
the board's LED frames with a key legend, takes keys and mouse clicks, quits cleanly, and the
next start resumes the same game."""

import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

BGBOARD = str(Path(sys.executable).parent / "bgboard")
ANSI = re.compile(r"\x1b\[[0-9;?<]*[a-zA-Z]")


class Term:
    def __init__(self, *args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.execv(BGBOARD, [BGBOARD, "sim"] + list(args))
        self.buf = b""

    def pump(self, until, timeout=180):
        """Read the screen until `until(last frame text)` holds (TIMEOUT: a hang guard, far
        past what a loaded machine takes)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    self.buf += os.read(self.fd, 65536)
                except OSError:
                    break
            if until(self.screen()):
                return self.screen()
        raise AssertionError("the screen never showed what was expected:\n" + self.text())

    def screen(self):
        return self.buf.decode("utf-8", "replace").split("\x1b[H")[-1]

    def text(self):
        return ANSI.sub("", self.screen())

    def send(self, data):
        os.write(self.fd, data)

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except OSError:
            pass

    def wait(self):
        end = time.monotonic() + 180
        while time.monotonic() < end:
            try:
                self.buf += os.read(self.fd, 65536)
            except OSError:
                break
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def lit(screen):
    return re.findall(r"38;2;(\d+);(\d+);(\d+)m\u25cf", screen)


@pytest.fixture
def terms():
    started = []
    yield started
    for t in started:            # a failed test leaves no sim (nor its board) running
        t.kill()


def test_sim_draws_the_board_takes_keys_and_resumes(tmp_path, terms):
    img = tmp_path / "sim.img"
    t = Term("--flash", str(img))
    terms.append(t)
    t.pump(lambda s: "MENU" in ANSI.sub("", s) and "Q quit" in ANSI.sub("", s) and lit(s))
    text = t.text()
    assert "a-f bot level 1-6" in text and "Q quit" in text       # the legend
    t.send(b"\r")                                                 # OK: a new game
    t.pump(lambda s: "OK: opening roll" in ANSI.sub("", s))
    while True:
        t.send(b" ")                                              # OK: the opening roll
        screen = t.pump(lambda s: re.search(r"(you|bot:6): (move \d-\d|OK rolls)|a tie, roll",
                                            ANSI.sub("", s)) and len(lit(s)) >= 30)
        if "a tie, roll again" not in ANSI.sub("", screen):
            break
    colours = set(lit(screen))
    assert len(colours) >= 2                   # the two sides' colours at least
    # a byte that is no key, then a click on point 1 (the opponent's checkers): the click is
    # refused, and said so
    t.send(b"\x10\x1b[<0;28;18M\x1b[<0;28;18m")
    # (said on the board's display, a fourth line beside the panel, or by the sim)
    t.pump(lambda s: "refused:" in ANSI.sub("", s) or ANSI.sub("", s).count("\u2502 ") >= 4)
    t.pump(lambda s: re.search(r"you: (move \d-\d|OK rolls)", ANSI.sub("", s)))
    t.send(b"Q")
    assert t.wait() == 0
    assert "resumes it" in ANSI.sub("", t.buf.decode("utf-8", "replace"))
    # the game on the board's flash, read back and replayed here
    from bgboard import vboard
    from bgcore.record import replay
    records = [p for p in vboard.list_files(img) if p.endswith(".bgr")]
    assert len(records) == 1, records
    rep, _, torn = replay(vboard.read_file(img, records[0]).decode(), history=False)
    assert torn is None and not rep.ended
    pos = (rep.match.pos.id(), rep.match.match_id())
    # the next start shows the same game
    t2 = Term("--flash", str(img))
    terms.append(t2)
    t2.send(b"P")                              # pips view, then back
    t2.pump(lambda s: "position %s  match %s" % pos in ANSI.sub("", s))
    t2.send(b"Q")
    assert t2.wait() == 0


def test_typed_bytes_become_board_keys():
    """The sim's keyboard: letters are points, control bytes and escape sequences that are no
    key are dropped, a click becomes the point under it, a sequence cut short waits for its
    rest, Q quits."""
    import io
    from bgboard.screen import Screen, load_profile
    from bgboard.sim import _keys
    screen = Screen(load_profile("reference"), io.StringIO())
    assert _keys(b"a\x10x\x1b[Ay z\r-", screen) == (False, b"", ["P1", "P24", "BAR", "OK",
                                                                 "OFF", "OK", "UNDO"])
    assert _keys(b"\x1b[<0;28;18M", screen) == (False, b"", [screen.click(28, 18)])
    assert screen.click(28, 18) is not None
    assert _keys(b"b\x1b[<0;28", screen) == (False, b"\x1b[<0;28", ["P2"])
    assert _keys(b"cQd", screen) == (True, b"", ["P3"])
