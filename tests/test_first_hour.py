"""The first hour with bgboard, as a new user meets it: `bgboard sim` in an 80×24 terminal (a
pty, its output read by a terminal emulator, pyte, so the assertions are about the text a user
sees), its colour legend, prompts and event list, a game abandoned only after a question,
`sim --new` never wiping records that were not pulled, and the four-button sim."""

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from conftest import ROOT, run_micropython

BGBOARD = str(Path(sys.executable).parent / "bgboard")
COLS, ROWS = 80, 24


class Term:
    """`bgboard ARGS` in a pty of COLS×ROWS, drawn by a terminal emulator."""

    def __init__(self, home, *args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ["XDG_DATA_HOME"] = str(home)
            os.execv(BGBOARD, [BGBOARD] + list(args))
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""

    def read(self, wait):
        r, _, _ = select.select([self.fd], [], [], wait)
        if r:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return False
            self.raw += data
            self.stream.feed(data)
        return True

    def rows(self):
        return list(self.screen.display)

    def text(self):
        return "\n".join(self.rows())

    def until(self, what, timeout=60):
        """Read until `what(screen text)` (or the regular expression `what`) holds, on a whole
        frame (the sim ends each with ESC [J) or a screen that rests."""
        test = (lambda s: re.search(what, s)) if isinstance(what, str) else what
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            size = len(self.raw)
            if not self.read(0.1):
                break
            whole = self.raw.endswith(b"\x1b[J") or len(self.raw) == size
            if whole and test(self.text()):
                return self.text()
        raise AssertionError("the screen never showed %r:\n%s" % (what, self.text()))

    def until_all(self, *parts, timeout=60):
        """Read until the screen shows every one of `parts` (strings) at once."""
        return self.until(lambda s: all(p in s for p in parts), timeout)

    def send(self, data):
        os.write(self.fd, data)

    def finish(self):
        """Wait for the program's end (after Q); returns its exit code."""
        end = time.monotonic() + 30
        while time.monotonic() < end and self.read(0.2):
            pass
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return os.waitstatus_to_exitcode(status)

    def kill(self):
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGTERM)
                os.waitpid(self.pid, 0)
            except OSError:
                pass


@pytest.fixture
def terms():
    started = []
    yield started
    for t in started:            # a failed test leaves no sim (nor its board) running
        t.kill()


def fits(rows):
    """The whole layout is on the screen: the title on the first line, the status on the last
    (nothing scrolled off), no line wider than the terminal (pyte would wrap it)."""
    return rows[0].startswith("  bgboard sim - a virtual") and "position " in rows[-1]


def key_of(point):
    return {25: b"y", 0: b"z"}.get(point) or bytes([ord("a") + point - 1])


def test_sim_at_80x24_explains_itself(tmp_path, terms):
    from bgcore import Position
    img = tmp_path / "sim.img"
    t = Term(tmp_path / "data", "sim", "--flash", str(img))
    terms.append(t)
    # the first screen: the menu, its colours and keys, what to press
    first = t.until_all("Enter starts a new game", "position -", "\u25cf",
                        "MENU  OK: new game", "vs bot level 6", "K free",
                        "\u25cf bot level", "\u25cf two players",        # the menu's colours
                        "a-f bot level 1-6", "Q quit")                  # its keys
    assert fits(t.rows()), first
    assert not re.search(r"auto-\w+ \d+K free", first)      # the options and the free space
    t.send(b"\r")
    # which colour is who, once the board's text and frame for the game have come
    game = t.until(lambda s: "Enter: the opening roll" in s and "pips 167:167" in s
                   and "record 0001.bgr" in s and re.search("\u25cf you +\u25cf bot:6", s))
    assert fits(t.rows())
    for words in ("can move", "can go to", "last play, hint", "dice", "cube", "turn"):
        assert words in game
    assert "a-x points 1-24" in game and "D double" in game           # the game's keys
    # play until a roll of the person's with a choice: key a play step by step, see the prompt
    # to confirm, confirm it, and see it (and then the bot's) in the event list
    done = False
    end = time.monotonic() + 120
    while not done:
        assert time.monotonic() < end, t.text()
        # act only where the board's display and the prompt (from STATE) agree
        s = t.until(r"you: OK: opening roll[\s\S]*Enter: the opening roll|you: OK rolls[\s\S]*"
                    r"Enter rolls|you: move \d-\d[\s\S]*(move: a checker's point|the board is)")
        m = re.search(r"you: move (\d)-(\d)", s)
        if "Enter: the opening roll" in s:
            n = s.count("opening roll: you")
            t.send(b" ")
            t.until(lambda s: s.count("opening roll: you") > n)
            continue
        if not m:
            t.send(b"\r")
            t.until(lambda s: "you: OK rolls" not in s)
            continue
        if "move: a checker's point" not in s:      # the board is making a forced play
            t.until(lambda s: "you: move" not in s)
            continue
        pos = re.search(r"position (\S+)", s).group(1)
        d1, d2 = int(m.group(1)), int(m.group(2))
        plays = Position.from_id(pos).plays(d1, d2)
        if len(plays) < 2:                          # forced: the board plays it
            t.until(lambda s: "you: move" not in s)
            continue
        play = plays[0]
        for a, b in play.moves:
            t.send(key_of(a))
            t.send(key_of(b))
        t.until("Enter to confirm, Backspace: a step back")     # (one line at 80 columns)
        t.send(b"\r")
        t.until(r"you( roll)? (%d-%d|%d-%d): \d+/\d+" % (d1, d2, d2, d1))
        t.until(r"bot:6 rolls \d-\d: ")
        done = True
    assert fits(t.rows())
    # MENU, then OK: the game in progress is not abandoned without a question
    t.send(b"\t")
    t.until_all("Enter starts a new game, Tab goes back", "this one")
    t.send(b"\r")
    t.until(r"abandon this game\? OK: yes, MENU: back")
    t.send(b"\t")                                     # MENU: no, back to it
    t.until(r"record 0001\.bgr")
    t.until(lambda s: "abandon" not in s and "MENU  OK" not in s)
    t.send(b"\t")
    t.until("Enter starts a new game, Tab goes back")
    t.send(b"\r")
    t.until("abandon this game")
    t.send(b"\r")                                     # yes
    t.until(r"Enter: the opening roll")
    t.until(r"record 0002\.bgr")
    t.send(b"Q")
    assert t.finish() == 0
    assert not list(tmp_path.glob("data/bgboard/*.log")) and (tmp_path / "sim.log").is_file()

    # `sim --new` on this image: records never pulled are not wiped without a question
    from bgboard import vboard
    before = img.read_bytes()
    t = Term(tmp_path / "data", "sim", "--flash", str(img), "--new")
    terms.append(t)
    t.until("holds 1 record never pulled \\(0001.bgr\\)")
    t.send(b"n\r")
    assert t.finish() == 1 and "nothing wiped" in t.text()
    assert img.read_bytes() == before
    t = Term(tmp_path / "data", "sim", "--flash", str(img), "--new")
    terms.append(t)
    t.until_all("Keep them in the archive first [Y], wipe them [w], or stop [n]?")
    t.send(b"\r")
    t.until("Enter starts a new game")               # a blank board
    assert "record -" in t.rows()[-1]
    t.send(b"Q")
    assert t.finish() == 0
    kept = list((tmp_path / "data" / "bgboard" / "archive").glob("*/0001.bgr"))
    assert len(kept) == 1
    assert [p for p in vboard.list_files(img, "/data") if p.endswith(".bgr")] == []
    from bgcore.record import replay
    rep, _, torn = replay(kept[0].read_text(), history=False)
    assert torn is None and rep.ended                # the abandoned game, whole


def test_the_four_button_sim(tmp_path, terms):
    t = Term(tmp_path / "data", "sim", "--flash", str(tmp_path / "m.img"),
             "--profile", "minimal")
    terms.append(t)
    s = t.until("O starts a new game")
    assert fits(t.rows())
    assert "four buttons" not in s and "SELECT held = OK, a new game" in s    # the menu's keys
    assert "a-x" not in s and not re.search(r"\bl k j i h g\b", s)            # no point keys
    t.send(b"O")                                      # SELECT held: OK
    s = t.until("O: the opening roll")
    assert "four buttons" in s and "LEFT/RIGHT move the cursor" in s and "BACK held = MENU" in s
    t.send(b"O")
    t.until("opening roll: you \\d, bot:6 \\d")
    t.send(b"Q")
    assert t.finish() == 0


def test_the_screen_fits_80x24_whatever_it_shows():
    """Long board text, a long refusal, many and long events: still 24 lines of at most 80
    columns; a smaller terminal is told the size it needs."""
    import io
    from bgboard.screen import Screen, load_profile
    out = io.StringIO()
    sc = Screen(load_profile("reference"), out)
    sc.size = (COLS, ROWS)
    sc.show("!TEXT " + "|".join(["x" * 90] * 8))
    sc.show("!LED 48 " + "40" * (16 * 16 * 3))
    sc.note = "refused: " + "y" * 100
    sc.prompt = "z" * 100
    for i in range(40):
        sc.show("!EV ROLL %d 6 5" % (i % 2))
        sc.show("!EV MOVE %d %s" % (i % 2, " ".join(["24/18*"] * 8)))
    sc.keys = ["k" * 100] * 6
    sc.status = "s" * 100
    sc.draw()
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.Stream(screen)
    stream.feed(out.getvalue())
    rows = list(screen.display)
    assert rows[0].startswith("  bgboard sim") and rows[-1].startswith("  sss")
    assert rows[-1].rstrip() == "  " + "s" * 77
    ev = [r for r in rows if "24/18*" in r]
    assert ev and "player 2 rolls 6-5" in "".join(rows)   # the newest event is shown
    sc.size = (70, 20)
    sc.draw()
    assert out.getvalue().endswith("bgboard sim needs a terminal of at least 80×24; this one "
                                   "is 70×20.\r\nMake it larger.")


def test_prompts_say_what_to_press():
    from bgboard.screen import load_profile
    from bgboard.sim import Keys
    k = Keys(load_profile("reference"))
    base = {"view": "play", "wait": "player", "mode": "money", "turn": "0", "owner": "-1",
            "crawford": "0"}
    assert k.prompt(dict(base, phase="turn")) == "Enter rolls, D doubles"
    assert k.prompt(dict(base, phase="turn", mode="nocube")) == "Enter rolls"
    assert k.prompt(dict(base, phase="turn", mode="match", crawford="1")) == "Enter rolls"
    assert k.prompt(dict(base, phase="turn", owner="1")) == "Enter rolls"      # the bot's cube
    assert k.prompt(dict(base, phase="move", complete="1")).startswith("Enter to confirm")
    assert k.prompt(dict(base, phase="doubled")) == "Enter takes, Backspace drops, D beavers"
    assert k.prompt(dict(base, phase="turn", wait="board")) == "the board is playing ..."
    four = Keys(load_profile("minimal"))
    for keys in (k, four):          # every key legend line fits 80 columns (2 of margin, 1 spare)
        assert all(len(line) <= 77 for line in keys.game + keys.menu)
    assert four.prompt(dict(base, phase="move", complete="1")).startswith("O to confirm")
    assert four.split(b"\x1b[D\x1b[C\r\x7fo\t", None) == (
        False, b"", ["LEFT", "RIGHT", "SELECT", "BACK", "SELECT long", "BACK long"])


def test_events_in_words():
    from bgboard.screen import Events
    e = Events()
    e.set_names("you", "bot:6")
    for line in ("OPEN 3 3", "OPEN 5 2", "MOVE 0 13/8 8/6", "ROLL 1 6 4", "STEP 0 24 18",
                 "MOVE 1 24/14", "ROLL 0 1 1", "MOVE 0", "DOUBLE 1 2", "TAKE 0",
                 "END 1 4 gammon"):
        e.feed(line)
    assert e.lines == ["opening roll: you 3, bot:6 3 - a tie, roll again",
                       "opening roll: you 5, bot:6 2", "you 5-2: 13/8 8/6",
                       "bot:6 rolls 6-4: 24/14", "you roll 1-1: no legal play",
                       "bot:6 doubles to 2", "you take", "bot:6 wins 4 (gammon)"]


DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def test_the_board_asks_before_abandoning_a_game(tmp_path, mpy_lib):
    """On the board (MicroPython's unix port): MENU then OK over a game in progress asks; MENU
    goes back to the same game, OK twice abandons it (and starts the next record)."""
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), "SEED 6", "KEY OK", "KEY OK",
                        "TURN", "KEY MENU", "KEY OK", "SHOW", "STATE", "KEY MENU", "STATE",
                        "KEY MENU", "KEY OK", "KEY OK", "STATE", heap="256k", lib=mpy_lib,
                        timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    out = r.stdout
    states = [ln for ln in out.splitlines() if ln.startswith("STATE ")]
    assert "abandon this game? OK: yes, MENU: back to it" in out, out
    assert "view=menu" in states[0] and "record=0001.bgr" in states[0]
    assert "view=play" in states[1] and "record=0001.bgr" in states[1]
    assert "record=0002.bgr" in states[-1] and "phase=opening" in states[-1], states


def test_beaver_gives_the_value_the_double_puts_the_cube_at():
    """README's record format: after DOUBLE 0 2, BEAVER 1 2 (not 4); TAKE 0 puts the cube at
    4, owned by the beaver's side; a BEAVER with the redoubled value is refused, saying why."""
    from bgcore.match import Rules
    from bgcore.record import RecordError, Writer, replay

    def record(*events):
        w = Writer()
        lines = [w.header(Rules("money", beavers=True), ("you", "bot:6"), board="x", fw="t")]
        lines += [w.line(e) for e in ("GAME 1", "OPEN 5 2", "MOVE 0 13/8 8/6", "ROLL 1 3 1",
                                      "MOVE 1 8/5 6/5") + events]
        return "".join(lines)

    rep, _, torn = replay(record("DOUBLE 0 2", "BEAVER 1 2", "TAKE 0"), history=False)
    assert torn is None and (rep.match.cube, rep.match.owner) == (4, 1)
    with pytest.raises((RecordError, ValueError), match="the cube would go to 2, not 4"):
        replay(record("DOUBLE 0 2", "BEAVER 1 4"), history=False)


def test_records_carry_the_date_the_host_gave_at_hello(tmp_path, mpy_lib):
    """A board has no clock: HELLO time=... sets it, and the next record's header says when it
    started (a date unlike today's, so that the unix port's own clock cannot pass for it); a
    malformed time is refused in one line."""
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), "SEED 6",
                        "LINE HELLO time=2025-01-02T03:04:05", "LINE HELLO time=2025-13-02T03:04",
                        "KEY OK", "KEY OK", "STATE", heap="256k", lib=mpy_lib, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "ERR args time=2025-13-02T03:04 is not YYYY-MM-DDTHH:MM:SS" in r.stdout, r.stdout
    record = sorted(tmp_path.glob("*.bgr"))[0].read_text().splitlines()[0]
    assert re.search(r" start=2025-01-02T03:0[45]:\d\d", record), record


def test_the_host_sends_its_time_with_hello():
    import datetime
    from bgboard.protocol import Client
    from bgboard.transport import MemoryTransport

    def board(link, data):
        if b"HELLO" in data:
            link.feed(b"HELLO bgboard proto=1 fw=9 board=00aa profile=reference hal=virtual\n")
    link = MemoryTransport(board)
    before = datetime.datetime.now().replace(microsecond=0)
    Client(link).hello()
    after = datetime.datetime.now()
    sent = re.search(rb"HELLO time=(\S+)\n", bytes(link.sent))
    assert sent, bytes(link.sent)
    when = datetime.datetime.strptime(sent.group(1).decode(), "%Y-%m-%dT%H:%M:%S")
    assert before <= when <= after


def test_sim_new_without_a_terminal_wipes_nothing_it_was_not_told_to(tmp_path):
    """`sim --new` with records never pulled and no terminal to ask on: one line naming them,
    nothing wiped."""
    import subprocess
    from bgboard import vboard
    from bgboard.games import play_record
    import random
    from bgcore.match import Rules
    img = tmp_path / "sim.img"
    vboard.install(img, "reference", compiled=False)
    fs = vboard.open_image(img)
    fs.makedirs("/data", exist_ok=True)
    with fs.open("/data/0007.bgr", "w") as f:
        f.write(play_record(Rules("nocube"), random.Random(1), ("you", "bot:6")))
    with fs.open("/board-id", "w") as f:
        f.write("00aa11bb22cc33dd")
    vboard.save_image(fs, img)
    before = img.read_bytes()
    r = subprocess.run([BGBOARD, "sim", "--flash", str(img), "--new"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data")))
    assert r.returncode != 0 and r.stdout == "", r
    assert r.stderr.count("\n") == 1 and "1 record never pulled (0007.bgr)" in r.stderr, r.stderr
    assert img.read_bytes() == before
