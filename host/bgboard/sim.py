"""`bgboard sim`: play on a virtual board in the terminal. The firmware runs unchanged on a
virtual board (`bgboard vboard`: MicroPython's unix port on a pty, a littlefs flash image); this
program talks to it over the serial protocol like any host: WATCH streams the LED frames, which
are put through the same Panel.encode a Pico runs (brightness, current limit) and drawn as
coloured dots in the panel's geometry; keys typed (or points clicked) are sent as KEY commands,
those of a four-button board (`--profile minimal`) as its four buttons. Beside the panel: the
board's display, what to press now (from STATE), a colour legend and the game's events.
Quitting leaves the game on the virtual board's flash; the next start resumes it. `--new` starts
from a blank flash, after asking what to do with records never pulled. With `--chip rp2040` the
board is the emulated Pico (bgboard.chip: the real rp2 firmware at chip speed) on a flash image
of its own."""

import hashlib
import os
import select
import shutil
import signal
import sys
import tempfile
import termios
import time
import tty
from pathlib import Path

from bgboard import archive, names, paths, vboard
from bgboard.link import Board, LinkError, parse_fields
from bgboard.screen import Screen, load_profile


class Keys:
    """A profile's keyboard: typed characters -> board keys (sent as `KEY ...`), the legend
    under the panel, and how each logical key is typed (for the prompts)."""

    def __init__(self, profile):
        self.four = profile["input"].get("style") == "buttons"
        if self.four:
            # the four buttons, and the long presses of SELECT (OK) and BACK (MENU)
            self.map = {"\r": "SELECT", "\n": "SELECT", " ": "SELECT", "\x7f": "BACK",
                        "\x08": "BACK", "-": "BACK", ",": "LEFT", "<": "LEFT", ".": "RIGHT",
                        ">": "RIGHT", "o": "SELECT long", "O": "SELECT long",
                        "\t": "BACK long", "M": "BACK long", "R": "LEFT long"}
            self.arrows = {b"\x1b[D": "LEFT", b"\x1b[C": "RIGHT"}
            self.typed = {"OK": "O", "UNDO": "Backspace", "MENU": "Tab",
                          "DOUBLE": "the cube (cursor on it, Enter)",
                          "HINT": "the dice (cursor on them, Enter)", "POINT": "cursor, Enter"}
            self.game = [
                "four buttons:  \u2190 \u2192 (or , .) LEFT/RIGHT move the cursor (the white dot)",
                "  Enter/space SELECT: the point, bar, off, cube or dice under the cursor",
                "  Backspace BACK: undo, drop    O: SELECT held = OK (roll, confirm, take)",
                "  Tab: BACK held = MENU   R: LEFT held = resign   Q quit (the game is kept)"]
            self.menu = [
                "menu: the cursor on a point, Enter: P1-6 bot level, P7 two players, P8-10",
                "  single/money/match, P11-12 length, P13-18 jacoby/beavers/auto dbl/auto OK/",
                "  forced/real dice, P19-20 light, P21 ranked, P23 tutor, P24 pips",
                "  O: SELECT held = OK, a new game    Tab: back to the game    Q quit"]
        else:
            self.map = {chr(ord("a") + i): "P%d" % (i + 1) for i in range(24)}
            self.map.update({"y": "BAR", "z": "OFF", "\r": "OK", "\n": "OK", " ": "OK",
                             "\x7f": "UNDO", "\x08": "UNDO", "-": "UNDO", "D": "DOUBLE",
                             "*": "DOUBLE", "?": "HINT", "H": "HINT", "\t": "MENU",
                             "M": "MENU", "P": "PIPS", "R": "RESIGN"})
            self.arrows = {}
            self.typed = {"OK": "Enter", "UNDO": "Backspace", "MENU": "Tab", "DOUBLE": "D",
                          "HINT": "?", "POINT": "a-x"}
            self.game = [
                "keys: a-x points 1-24 (the letters by the panel) or click one  y bar  z off",
                "  Enter/space OK: roll, confirm, take    Backspace/- UNDO: a step back, drop",
                "  D double  ? hint  R resign  P pips  Tab/M menu  Q quit (the game is kept)",
                ""]
            self.menu = [
                "menu: a-f bot level 1-6  g two players  h single game  i money  j match",
                "  k/l length -/+  m jacoby  n beavers  o auto doubles  p auto-OK  q forced",
                "  r real dice  s/t light -/+  u ranked  v best wins  w tutor  x pips",
                "  D chouette   Enter: a new game   Tab: back to the game   Q quit"]

    def legend(self, view):
        return self.menu if view == "menu" else self.game

    def prompt(self, st):
        """What to press now, from a STATE line's fields."""
        t = self.typed
        view = st.get("view", "")
        if view == "menu":
            return "%s starts a new game%s" % (
                t["OK"], ", %s goes back to this one" % t["MENU"] if "phase" in st else "")
        if view == "pips":
            return "any key: back to the game"
        if view != "play" or "phase" not in st:
            return ""
        if st.get("wait") == "board":
            return "the board is playing ..."
        ph = st["phase"]
        if st.get("warning"):
            return "tutor: %s keeps it, ? the better one, %s takes back" % (t["OK"], t["UNDO"])
        if ph == "opening":
            return "%s: the opening roll" % t["OK"]
        if ph == "turn":
            can = (st.get("mode") != "nocube" and st.get("crawford") != "1"
                   and st.get("owner") in ("-1", st.get("turn")))
            return "%s rolls" % t["OK"] + (", %s doubles" % t["DOUBLE"] if can else "")
        if ph == "move":
            if st.get("complete") == "1":
                return "%s to confirm, %s: a step back" % (t["OK"], t["UNDO"])
            if st.get("steps", "-") != "-":
                return "go on (%s), %s: a step back" % (t["POINT"], t["UNDO"])
            return "move: a checker's point (%s), %s hint" % (t["POINT"], t["HINT"])
        if ph == "doubled":
            beaver = ", %s beavers" % t["DOUBLE"] if st.get("mode") == "money" else ""
            return "%s takes, %s drops%s" % (t["OK"], t["UNDO"], beaver)
        if ph == "game_over":
            return "%s: the next game" % t["OK"]
        if ph == "match_over":
            return "%s: a new match" % t["OK"]
        return ""

    def split(self, data, screen):
        """Typed bytes -> (quit?, unparsed rest, board keys)."""
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
                k = self.arrows.get(rest[:3])
                if k:
                    keys.append(k)
                i += 3              # another escape sequence: ignored
                continue
            ch = c.decode("latin-1")
            if ch in ("Q", "\x03", "\x04"):
                return True, b"", keys
            k = self.map.get(ch)
            if k:
                keys.append(k)
            i += 1
        return False, b"", keys


def players(st):
    """The two sides' names from a STATE line's fields: the game's, else the menu's choice."""
    if "players" in st:
        return (st["players"].split(",", 1) + ["?"])[:2]
    level = (st.get("settings", "").split(",") + ["", "", ""])[2]
    if level not in ("", "0"):
        return ["you", "bot:%s" % level]
    return ["player 1", "player 2"]


def default_flash(chip=vboard.DEFAULT_CHIP):
    return paths.data_dir() / ("sim.img" if chip == vboard.DEFAULT_CHIP else "sim-%s.img" % chip)


def log_path(flash):
    """The virtual board's output (MicroPython's errors) beside its flash image: sim.log."""
    return Path(flash).with_suffix(".log")


def unpulled(flash, chip=vboard.DEFAULT_CHIP):
    """The records on a flash image that are not in the archive: (board id, its archive
    folder, [(name, bytes, sha256)])."""
    if chip == "rp2040":
        from bgboard.chip import unique_id
        board = unique_id(flash)
    else:
        raw = vboard.read_file(flash, "/board-id")
        board = raw.decode("ascii", "replace").strip() if raw else ""
    try:
        folder = archive.board_dir(board)
    except names.BadName:
        folder = None
    out = []
    try:
        files = vboard.list_files(flash, "/data")
    except Exception:           # an erased (or unreadable) image: no records on it
        files = []
    for path in files:
        name = path.rsplit("/", 1)[-1]
        if not name.endswith(".bgr"):
            continue
        data = vboard.read_file(flash, path)
        kinds = {ln.split(" ", 1)[0] for ln in (data or b"").decode("utf-8", "replace")
                 .splitlines()[1:]}
        if not kinds - {"GAME", "OPEN"}:
            continue            # no game in it: nothing was played
        digest = hashlib.sha256(data).hexdigest()
        if folder is None or not archive.place_for(folder, name, digest)[1]:
            out.append((name, data, digest))
    return board, folder, out


def keep_unpulled(flash, stdin, out, chip=vboard.DEFAULT_CHIP):
    """Before --new wipes FLASH: records never pulled are archived or wiped as the user says,
    or nothing happens. Returns True to go on."""
    board, folder, records = unpulled(flash, chip)
    if not records:
        return True
    listed = " ".join(n for n, _, _ in records[:6]) + (" ..." if len(records) > 6 else "")
    where = folder if folder is not None else archive.archive_root()
    say = "bgboard sim --new: %s holds %d record%s never pulled (%s)" % (
        flash, len(records), "s" if len(records) > 1 else "", listed)
    if not os.isatty(stdin.fileno()):
        raise SystemExit(say + "; run it in a terminal to choose, or pull them first")
    out.write(say + ".\nThe archive: %s\nKeep them in the archive first [Y], wipe them [w], "
              "or stop [n]? " % where)
    out.flush()
    answer = stdin.readline().strip().lower()
    if answer in ("", "y", "yes", "a"):
        if folder is None:
            raise SystemExit("bgboard sim: the image's board id %r is not one to archive "
                             "under; nothing was wiped" % board)
        folder.mkdir(parents=True, exist_ok=True)
        for name, data, digest in records:
            dest, present = archive.place_for(folder, name, digest)
            if not present:
                dest.write_bytes(data)
            out.write("kept %s\n" % dest)
        return True
    if answer in ("w", "wipe"):
        return True
    out.write("nothing wiped.\n")
    return False


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
        if not keep_unpulled(flash, stdin, out, chip):
            return 1
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
    log = open(log_path(flash), "w")
    redraw = []

    def ended(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, ended)
    signal.signal(signal.SIGHUP, ended)
    signal.signal(signal.SIGWINCH, lambda s, f: redraw.append(1))
    screen = Screen(prof, out)
    keymap = Keys(prof)
    screen.keys = keymap.legend("menu")
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
            raise SystemExit("bgboard sim: %s (its output: %s)" % (e, log.name))
        board = Board(link)
        if is_tty:
            tty.setraw(fd, termios.TCSADRAIN)   # keys typed while the board started are kept
        out.write("\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[2J")
        screen.status = "connecting to the board ..."
        screen.draw()
        try:
            board.hello(timeout=hello_s)
        except LinkError:
            raise SystemExit("bgboard sim: the virtual board does not answer HELLO (its output: "
                             "%s)" % log.name)
        screen.status = board.hello_line[6:]
        board.send("WATCH on")
        board.send("STATE")
        pending = b""
        dirty = True
        asked = again = False
        busy = 0.0          # while the board plays by itself: when to ask for STATE again
        while True:
            if busy and not asked and time.monotonic() >= busy:
                board.send("STATE")
                asked = True
                busy = 0.0
            try:
                r, _, _ = select.select([fd, board.fileno()], [], [],
                                        0 if board.has_line() else 0.1)
            except InterruptedError:
                r = []
            if redraw:
                del redraw[:]
                out.write("\x1b[2J")
                dirty = True
            for line in board.lines(0) if board.fileno() in r or board.has_line() else ():
                dirty = True
                before = screen.text
                shown = screen.show(line)
                if shown == "led" or shown == "text" and screen.text == before:
                    continue
                if shown:       # an event, or new words on the board's display: a new state

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
                    if st.get("wait") == "board":
                        busy = time.monotonic() + 0.25
                    screen.view = st.get("view", "")
                    screen.events.set_names(*players(st))
                    screen.keys = keymap.legend(st.get("view"))
                    screen.prompt = keymap.prompt(st)
                    screen.status = "position %s  match %s  record %s" % (
                        st.get("pos", "-"), st.get("match", "-"), st.get("record", "-"))
            if fd in r:
                data = os.read(fd, 64)
                if not data:
                    break
                pending += data
                quit_, pending, keys = keymap.split(pending, screen)
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
        shutil.rmtree(tmp, ignore_errors=True)
    out.write("bgboard sim: the game is kept on %s; `bgboard sim` resumes it.\n" % flash)
    return 0


def _keys(data, screen):
    """The reference board's keyboard (Keys(...).split): typed bytes -> (quit?, rest, keys)."""
    return Keys(screen.profile).split(data, screen)
