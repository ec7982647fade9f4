"""`bgboard sim`: play on a virtual board in the terminal. The firmware runs unchanged on a
virtual board (`bgboard vboard`: MicroPython's unix port on a pty, a littlefs flash image); this
program talks to it over the serial protocol like any host: WATCH streams the LED frames, which
are put through the same Panel.encode a Pico runs (brightness, current limit) and drawn as
coloured dots in the panel's geometry; keys typed (or points clicked) are sent as KEY commands.
Quitting leaves the game on the virtual board's flash; the next start resumes it."""

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time
import tty
from pathlib import Path

from bgboard import vboard

FIRMWARE_LIB = vboard.FIRMWARE / "lib"

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


def _profile_for(name):
    sys.path.insert(0, str(FIRMWARE_LIB))
    from bghal import profile as bprofile
    path = Path(name)
    if not path.exists():
        path = vboard.PROFILES / ("%s.json" % name)
    return bprofile.load(str(path))


class Screen:
    """The panel and the board's text, drawn with ANSI colours."""

    def __init__(self, profile, out):
        from bghal.panel import Panel
        from bghal.profile import runs_pixels
        self.profile = profile
        self.panel = Panel(profile)
        self.strip = self.panel.buffer()
        self.out = out
        self.w = profile["panel"]["width"]
        self.h = profile["panel"]["height"]
        self.cap = profile["brightness"]["max"]
        order = profile["panel"]["order"]
        self.chan = tuple(order.index(c) for c in "RGB")
        # which key each LED stands for (clicks), and the letters beside the point columns
        self.key_at = {}
        for name, runs in profile["leds"].items():
            key = {"bar0": "BAR", "bar1": "BAR", "off0": "OFF", "off1": "OFF",
                   "cube": "DOUBLE"}.get(name)
            if name[0] == "p" and name[1:].isdigit():
                key = "P" + name[1:]
            if key:
                for xy in runs_pixels(runs):
                    self.key_at[xy] = key
        self.label_top = [" "] * self.w
        self.label_bottom = [" "] * self.w
        for n in range(1, 25):
            for x, y in runs_pixels(profile["leds"]["p%d" % n])[:1]:
                row = self.label_top if y < self.h // 2 else self.label_bottom
                row[x] = chr(ord("a") + n - 1)
        self.frame = None
        self.bright = 0
        self.text = []
        self.note = ""
        self.legend = LEGEND      # the lines under the panel (bgboard watch shows its events)
        self.status = ""
        self.ma = 0

    def led(self, x, y):
        o = 3 * self.panel.index(x, y)
        rgb = [self.strip[o + self.chan[i]] for i in range(3)]
        # the profile's brightness cap shows as full brightness on the screen
        return [min(255, v * 255 // max(1, self.cap)) for v in rgb]

    def draw(self):
        o = ["\x1b[H"]
        o.append("  bgboard sim - a virtual %s board%s\x1b[K\r\n" % (
            self.profile.get("name", ""), "  (%d mA)" % self.ma if self.frame else ""))
        o.append("   " + " ".join(self.label_top) + "\x1b[K\r\n")
        for y in range(self.h):
            row = ["   "]
            for x in range(self.w):
                if self.frame is None:
                    row.append("\x1b[38;2;60;60;60m\u00b7 ")
                    continue
                r, g, b = self.led(x, y)
                if r + g + b < 12:
                    row.append("\x1b[38;2;50;50;50m\u00b7 ")
                else:
                    row.append("\x1b[38;2;%d;%d;%dm\u25cf " % (r, g, b))
            row.append("\x1b[0m")
            side = ""
            if y < len(self.text):
                side = "   | " + self.text[y]
            elif y == len(self.text) + 1 and self.note:
                side = "   " + self.note
            o.append("".join(row) + side + "\x1b[K\r\n")
        o.append("   " + " ".join(self.label_bottom) + "\x1b[K\r\n\x1b[K\r\n")
        for line in self.legend:
            o.append("  " + line + "\x1b[K\r\n")
        o.append("  " + self.status + "\x1b[K\r\n\x1b[J")
        self.out.write("".join(o))
        self.out.flush()

    def set_frame(self, bright, hexdata):
        frame = bytes.fromhex(hexdata)
        if len(frame) != self.w * self.h * 3:
            return
        self.frame = frame
        self.bright = bright
        self.ma = self.panel.encode(frame, self.strip, bright)

    def click(self, col, row):
        # screen cell (1-based) -> LED -> key
        x = (col - 4) // 2
        y = row - 3
        return self.key_at.get((x, y))


class Board:
    """The serial link to the virtual board (pyserial), line by line."""

    def __init__(self, path):
        import serial
        self.ser = serial.serial_for_url(str(path), timeout=0)
        self.buf = b""

    def send(self, line):
        self.ser.write(line.encode() + b"\n")

    def lines(self):
        data = self.ser.read(65536)
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            out.append(line.rstrip(b"\r").decode("ascii", "replace"))
        return out

    def fileno(self):
        return self.ser.fileno()


def default_flash():
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "bgboard" / "sim.img"


def run(flash=None, profile="reference", heap="192k", fresh=False, stdin=None, stdout=None):
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    flash = Path(flash) if flash else default_flash()
    flash.parent.mkdir(parents=True, exist_ok=True)
    if fresh and flash.exists():
        flash.unlink()
    prof = _profile_for(profile)
    vboard.install(flash, profile)
    tmp = tempfile.mkdtemp(prefix="bgboard-sim-")
    link = Path(tmp) / "link"
    log = open(Path(tmp) / "vboard.log", "w")
    # the board lives as long as this program: it stops when the program is gone, however
    # it ends (`python -m bgboard.vboard` is the bridge with that watch on)
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.vboard", str(link), str(flash), heap],
                            stdout=log, stderr=log, start_new_session=True)

    def ended(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, ended)
    signal.signal(signal.SIGHUP, ended)
    screen = Screen(prof, out)
    fd = stdin.fileno()
    is_tty = os.isatty(fd)
    old = termios.tcgetattr(fd) if is_tty else None
    try:
        t0 = time.monotonic()
        while not link.exists():
            if proc.poll() is not None or time.monotonic() - t0 > 20:
                raise SystemExit("bgboard sim: the virtual board did not start (see %s)"
                                 % log.name)
            time.sleep(0.05)
        board = Board(link)
        if is_tty:
            tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[2J")
        screen.status = "connecting to the board ..."
        screen.draw()
        hello = False
        last_try = 0
        pending = b""
        dirty = True
        asked = again = False
        while True:
            now = time.monotonic()
            if not hello and now - last_try > 0.5:
                board.send("HELLO")
                last_try = now
                if now - t0 > 30:
                    raise SystemExit("bgboard sim: the virtual board does not answer HELLO")
            r, _, _ = select.select([fd, board.fileno()], [], [], 0.1)
            if board.fileno() in r or board.buf:
                for line in board.lines():
                    if line.startswith("HELLO ") and not hello:
                        hello = True
                        board.send("WATCH on")
                        board.send("STATE")
                        screen.status = line[6:]
                    elif line.startswith("!LED "):
                        parts = line.split(" ", 2)
                        if len(parts) == 3:
                            screen.set_frame(int(parts[1]), parts[2])
                    elif line.startswith("!EV "):
                        if asked:
                            again = True        # the answer on its way may predate this
                        else:
                            board.send("STATE")     # keep the status line current
                            asked = True
                    elif line.startswith("!TEXT "):
                        screen.text = line[6:].split("|")
                    elif line.startswith("NO KEY "):
                        screen.note = "refused: " + line.split(" ", 3)[3]
                    elif line.startswith("OK KEY "):
                        screen.note = ""
                    elif line.startswith("STATE "):
                        asked = again
                        if again:
                            board.send("STATE")
                            again = False
                        st = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
                        screen.status = "position %s  match %s  record %s" % (
                            st.get("pos", "-"), st.get("match", "-"), st.get("record", "-"))
                    dirty = True
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
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
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
