"""`bgboard sim`: play on a virtual board in the terminal. The firmware runs unchanged on a
virtual board (`bgboard vboard`: MicroPython's unix port on a pty, a littlefs flash image); this
program talks to it over the serial protocol like any host: WATCH streams the LED frames, which
are put through the same Panel.encode a Pico runs (brightness, current limit) and drawn as
coloured dots in the panel's geometry; keys typed (or points clicked) are sent as KEY commands.
Quitting leaves the game on the virtual board's flash; the next start resumes it. With
`--chip rp2040` the board is the emulated Pico (bgboard.chip: the real rp2 firmware at chip
speed) on a flash image of its own."""

import os
import select
import signal
import sys
import tempfile
import termios
import tty
from pathlib import Path

from bgboard import paths, vboard
from bgboard.link import Board, LinkError, parse_fields
from bgboard.screen import Screen, load_profile

# keyboard -> board keys: a..x are the points 1..24 (labelled around the panel)
KEYMAP = {chr(ord("a") + i): "P%d" % (i + 1) for i in range(24)}
KEYMAP.update({"y": "BAR", "z": "OFF", "\r": "OK", "\n": "OK", " ": "OK", "\x7f": "UNDO",
               "\x08": "UNDO", "-": "UNDO", "D": "DOUBLE", "*": "DOUBLE", "?": "HINT",
               "H": "HINT", "\t": "MENU", "M": "MENU", "P": "PIPS"})
LEGEND = [
    "keys:  a-x  points 1-24 (letters beside the panel)",
    "       y bar   z off   mouse: click a point",
    "       Enter/space  OK: roll, confirm, take",
    "       Backspace/-  UNDO: one step back, drop",
    "       D  double    ?  hint    P  pips view",
    "       Tab/M  menu  Q  quit (the game is kept)",
    "menu:  a-f bot level 1-6, g two players,",
    "       h single game, i money, j match, k/l length,",
    "       m-r jacoby/beavers/auto dbl/auto OK/forced/real dice",
    "       s/t brightness, x pips, Enter new game",
]


def default_flash(chip=vboard.DEFAULT_CHIP):
    return paths.data_dir() / ("sim.img" if chip == vboard.DEFAULT_CHIP else "sim-%s.img" % chip)


def run(flash=None, profile="reference", heap=vboard.DEFAULT_HEAP, fresh=False, stdin=None,
        stdout=None, chip=vboard.DEFAULT_CHIP):
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    flash = Path(flash) if flash else default_flash(chip)
    flash.parent.mkdir(parents=True, exist_ok=True)
    try:
        vboard.check_free("flash image", flash)     # never wipe or reinstall a running board's
    except vboard.InUse as e:
        raise SystemExit("bgboard sim: %s" % e)
    if fresh and flash.exists():
        flash.unlink()
    prof = load_profile(profile)
    hello_s = 30
    if chip == "rp2040":
        from bgboard import chip as emulated
        try:
            emulated.check()
        except emulated.ChipUnavailable as e:
            raise SystemExit("bgboard sim: %s" % e)
        emulated.install(flash, profile)
        hello_s = 300               # a boot at 0.2-0.3x real time on a loaded machine
    else:
        vboard.install(flash, profile)
    tmp = tempfile.mkdtemp(prefix="bgboard-sim-")
    link = Path(tmp) / "link"
    log = open(Path(tmp) / "vboard.log", "w")

    def ended(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, ended)
    signal.signal(signal.SIGHUP, ended)
    screen = Screen(prof, out)
    screen.legend = LEGEND
    fd = stdin.fileno()
    is_tty = os.isatty(fd)
    old = termios.tcgetattr(fd) if is_tty else None
    proc = None
    try:
        # the board lives as long as this program: it stops when the program is gone, however
        # it ends
        try:
            proc = vboard.launch(link, flash, heap=heap, chip=chip, log=log, with_parent=True)
        except LinkError as e:
            raise SystemExit("bgboard sim: %s (see %s)" % (e, log.name))
        board = Board(link)
        if is_tty:
            tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[2J")
        screen.status = "connecting to the board ..."
        screen.draw()
        try:
            board.hello(timeout=hello_s)
        except LinkError:
            raise SystemExit("bgboard sim: the virtual board does not answer HELLO")
        screen.status = board.hello_line[6:]
        board.send("WATCH on")
        board.send("STATE")
        pending = b""
        dirty = True
        asked = again = False
        while True:
            r, _, _ = select.select([fd, board.fileno()], [], [], 0 if board.has_line() else 0.1)
            for line in board.lines(0) if board.fileno() in r or board.has_line() else ():
                dirty = True
                if screen.show(line):
                    continue
                if line.startswith("!EV "):
                    if asked:
                        again = True        # the answer on its way may predate this
                    else:
                        board.send("STATE")     # keep the status line current
                        asked = True
                elif line.startswith("NO KEY "):
                    screen.note = "refused: " + line.split(" ", 3)[3]
                elif line.startswith("OK KEY "):
                    screen.note = ""
                elif line.startswith("STATE "):
                    asked = again
                    if again:
                        board.send("STATE")
                        again = False
                    st = parse_fields(line.split()[1:])
                    screen.status = "position %s  match %s  record %s" % (
                        st.get("pos", "-"), st.get("match", "-"), st.get("record", "-"))
            if fd in r:
                data = os.read(fd, 64)
                if not data:
                    break
                pending += data
                quit_, pending, keys = _keys(pending, screen)
                for k in keys:
                    board.send("KEY " + k)
                if keys:
                    board.send("STATE")
                if quit_:
                    break
            if dirty:
                screen.draw()
                dirty = False
    finally:
        out.write("\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l")
        out.flush()
        if old is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        if proc is not None:
            vboard.stop(proc)
        log.close()
    out.write("bgboard sim: the game is kept on %s; `bgboard sim` resumes it.\n" % flash)
    return 0


def _keys(data, screen):
    """Split typed bytes into board keys; returns (quit?, unparsed rest, keys)."""
    keys = []
    i = 0
    while i < len(data):
        c = data[i:i + 1]
        if c == b"\x1b":
            rest = data[i:]
            if rest.startswith(b"\x1b[<"):
                end = -1
                for j, ch in enumerate(rest):
                    if ch in b"mM" and j > 2:
                        end = j
                        break
                if end < 0:
                    return False, rest, keys
                fields = rest[3:end].split(b";")
                if rest[end:end + 1] == b"M" and len(fields) == 3 and fields[0] == b"0":
                    k = screen.click(int(fields[1]), int(fields[2]))
                    if k:
                        keys.append(k)
                i += end + 1
                continue
            if len(rest) < 3:
                return False, rest, keys
            i += 3              # another escape sequence (arrows...): ignored
            continue
        ch = c.decode("latin-1")
        if ch in ("Q", "\x03", "\x04"):
            return True, b"", keys
        k = KEYMAP.get(ch)
        if k:
            keys.append(k)
        i += 1
    return False, b"", keys
