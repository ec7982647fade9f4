"""The virtual board drawn in a terminal, for `bgboard sim` and `bgboard watch`: a board's
LED frames (WATCH's `!LED` lines) put through the same Panel.encode a Pico runs (brightness,
current limit) and drawn as coloured dots in the panel's geometry; beside the panel the board's
text display, what to press now, a legend of the colours and the game's events in words; under
it the keys; the keys a click on the panel stands for. Everything fits an 80×24 terminal; a
smaller one is told the size it needs."""

import os
import textwrap

from bgboard import paths

MIN_COLS, MIN_ROWS = 80, 24
PANEL_LEFT = 3            # columns before the first LED; each LED takes two columns


def load_profile(name):
    """Board profile NAME (a name in hardware/profiles or a path), loaded and checked by the
    firmware's own bghal.profile."""
    paths.firmware_import_path()
    from bghal import profile as bprofile
    return bprofile.load(str(paths.profile_path(name)))


def _dot(rgb, text=""):
    return "\x1b[38;2;%d;%d;%dm\u25cf\x1b[0m%s" % (tuple(rgb) + (text,))


def _visible(s):
    """The length of `s` on the screen (its colour sequences take no room)."""
    n = 0
    i = 0
    while i < len(s):
        if s[i] == "\x1b":
            j = s.find("m", i)
            i = len(s) if j < 0 else j + 1
            continue
        n += 1
        i += 1
    return n


def _cut(s, width):
    """`s` cut to `width` visible characters (colour sequences kept whole)."""
    out = []
    n = 0
    i = 0
    while i < len(s) and n < width:
        if s[i] == "\x1b":
            j = s.find("m", i)
            j = len(s) if j < 0 else j + 1
            out.append(s[i:j])
            i = j
            continue
        out.append(s[i])
        n += 1
        i += 1
    return "".join(out) + ("\x1b[0m" if "\x1b" in s else "")


_HOW = {"single": "", "gammon": " (gammon)", "backgammon": " (backgammon)", "drop": " (drop)",
        "resign": " (resigned)"}
_RESIGN = {"1": "a single game", "2": "a gammon", "3": "a backgammon"}


class Events:
    """A board's game events (`!EV` payloads: the record's lines) told in words, the newest
    last: whose roll and play, doubles and their answers, results. A roll and the play that
    follows it make one line."""

    def __init__(self, keep=50):
        self.lines = []
        self.names = ["player 1", "player 2"]
        self.keep = keep
        self._roll = None           # (player, its line): a roll waiting for its play

    def set_names(self, p0, p1):
        if p0 == p1:
            p0, p1 = p0 + " (1)", p1 + " (2)"
        self.names = [p0, p1]

    def who(self, p):
        return self.names[p] if p in (0, 1) else "?"

    def does(self, p, verb):
        """'bot:6 rolls', 'you roll'."""
        name = self.who(p)
        return "%s %s" % (name, verb[:-1] if name == "you" else verb)

    def add(self, text):
        self.lines.append(text)
        del self.lines[:-self.keep]

    def feed(self, payload):
        """One event (the record's line without its check); returns its text or None."""
        w = payload.split()
        if not w:
            return None
        kind = w[0]
        p = int(w[1]) if len(w) > 1 and w[1].isdigit() else -1
        text = None
        if kind == "BGR":
            f = dict(x.split("=", 1) for x in w[2:] if "=" in x)
            self.set_names(f.get("p0", "player 1"), f.get("p1", "player 2"))
            mode = f.get("mode", "")
            what = {"nocube": "single game", "money": "money game",
                    "match": "match to %s" % f.get("length", "?")}.get(mode, mode)
            text = "new %s: %s - %s" % (what, self.names[0], self.names[1])
        elif kind == "GAME":
            text = "game %s" % w[1] if len(w) > 1 and w[1] != "1" else None
        elif kind == "OPEN" and len(w) >= 3:
            a, b = w[1], w[2]
            text = "opening roll: %s %s, %s %s%s" % (self.names[0], a, self.names[1], b,
                                                      " - a tie, roll again" if a == b else "")
            if a != b:          # the opening roll is the first play's roll
                self._roll = (0 if a > b else 1, "%s %s-%s" % (
                    self.who(0 if a > b else 1), max(a, b), min(a, b)))
                self.add(text)
                self.add(self._roll[1])
                return text
        elif kind == "ROLL" and len(w) >= 4:
            text = "%s %s-%s%s" % (self.does(p, "rolls"), w[2], w[3],
                                        " (real dice)" if w[4:5] == ["real"] else "")
            self.add(text)
            self._roll = (p, text)       # the play that follows goes on the same line
            return text
        elif kind == "MOVE":
            play = " ".join(w[2:]) or "no legal play"
            if self._roll and self._roll[0] == p and self.lines[-1:] == [self._roll[1]]:
                self.lines[-1] = text = "%s: %s" % (self._roll[1], play)
                self._roll = None
                return text
            text = "%s: %s" % (self.who(p), play)
            self._roll = None
        elif kind == "DOUBLE":
            text = "%s to %s" % (self.does(p, "doubles"), w[2] if len(w) > 2 else "?")
        elif kind == "BEAVER":
            text = "%s: takes at %s, redoubles" % (self.does(p, "beavers"),
                                                   w[2] if len(w) > 2 else "?")
        elif kind == "TAKE":
            text = self.does(p, "takes")
        elif kind == "DROP":
            text = self.does(p, "drops")
        elif kind == "RESIGN":
            text = "%s %s" % (self.does(p, "resigns"), _RESIGN.get(w[2] if len(w) > 2 else "", "?"))
        elif kind == "END" and len(w) >= 3:
            how = _HOW.get(w[3] if len(w) > 3 else "", "")
            text = "%s %s%s" % (self.does(p, "wins"), w[2], how)
        elif kind == "MATCHEND" and len(w) >= 4:
            text = "the end: %s %s, %s %s" % (self.names[0], w[2], self.names[1], w[3])
        if text:
            self.add(text)
        return text


class Screen:
    """The panel and what goes with it, drawn with ANSI colours in a terminal of at least
    80×24 (the size is asked of `out` at each draw)."""

    def __init__(self, profile, out, title=None):
        from bghal.panel import Panel
        from bghal.profile import runs_pixels
        self.profile = profile
        self.panel = Panel(profile)
        self.strip = self.panel.buffer()
        self.out = out
        self.title = title or "bgboard sim - a virtual %s board" % profile.get("name", "")
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
        self.letters = profile["input"].get("style") != "buttons"
        for n in range(1, 25):
            for x, y in runs_pixels(profile["leds"]["p%d" % n])[:1]:
                row = self.label_top if y < self.h // 2 else self.label_bottom
                row[x] = chr(ord("a") + n - 1) if self.letters else " "
        self.colours = profile["colours"]
        self.frame = None
        self.bright = 0
        self.text = []            # the board's text display
        self.prompt = ""          # what to press now
        self.note = ""            # a refusal
        self.keys = []            # the lines under the panel: the keys (sim), what stops (watch)
        self.events = Events()
        self.status = ""
        self.view = ""            # STATE's view= when known ("menu", "play", ...)
        self.ma = 0
        self.size = None          # (columns, rows) when fixed; else asked of the terminal

    # ---- what is drawn --------------------------------------------------------------------
    def led(self, x, y):
        o = 3 * self.panel.index(x, y)
        rgb = [self.strip[o + self.chan[i]] for i in range(3)]
        # the profile's brightness cap shows as full brightness on the screen
        return [min(255, v * 255 // max(1, self.cap)) for v in rgb]

    def legend(self):
        """The colours and what they mean (three lines), in the menu or in a game."""
        c = self.colours
        names = self.events.names
        if self.view == "menu":
            return ["%s bot level  %s two players  %s on" % (
                        _dot(c["side1"]), _dot(c["side0"]), _dot(c["dest"])),
                    "%s (dim) a setting  %s pips, best wins" % (
                        _dot([v // 4 for v in c["source"]]), _dot(c["last"])),
                    "%s brightness (on the bar)" % _dot(c["dice"])]
        return ["%s %s  %s %s  (%s%s a 2nd layer)" % (
                    _dot(c["side0"]), names[0], _dot(c["side1"]), names[1],
                    _dot(c["stack0"]), _dot(c["stack1"])),
                "%s can move  %s can go to  %s last play, hint" % (
                    _dot(c["source"]), _dot(c["dest"]), _dot(c["last"])),
                "%s dice  %s cube  turn: the roller's colour" % (
                    _dot(c["dice"]), _dot(c["cube"]))]

    def side_lines(self, width, height):
        """The column beside the panel, `height` lines."""
        out = []            # the board's display, a long line on two
        for t in self.text[:6] or ["(the board's display)"]:
            out += ["\u2502 " + s for s in (textwrap.wrap(t, width - 2, subsequent_indent="  ")
                                            or [""])[:2]]
        del out[7:]
        # what to press (bold), and a refusal unless the board's display says it already
        # (yellow): each on at most two lines
        for words, look, shown in ((self.prompt, "\x1b[1m", True),
                                   (self.note, "\x1b[33m", self.note.split(": ", 1)[-1]
                                    not in " ".join(self.text))):
            if words and shown:
                out += [look + s + "\x1b[0m"
                        for s in textwrap.wrap(words, width, subsequent_indent="  ")[:2]]
        out.append("")
        out += self.legend()
        room = height - len(out) - 1
        if room > 0:
            out.append("events:")
            ev = []         # the newest that fit, a long one over several lines
            for e in reversed(self.events.lines or ["(none yet)"]):
                w = textwrap.wrap(e, width - 1, initial_indent=" ", subsequent_indent="   ")
                if len(ev) + len(w) > room:
                    ev = ev or w[:room]         # the newest one's beginning, at least
                    break
                ev[:0] = w
            out += ev
        return [_cut(s, width) for s in out[:height]]

    def terminal_size(self):
        if self.size:
            return self.size
        try:
            s = os.get_terminal_size(self.out.fileno())
        except (AttributeError, OSError, ValueError):
            return MIN_COLS, MIN_ROWS
        if not s.columns or not s.lines:        # a terminal that does not say its size
            return MIN_COLS, MIN_ROWS
        return s.columns, s.lines

    def draw(self):
        cols, rows = self.terminal_size()
        if cols < MIN_COLS or rows < MIN_ROWS:
            self.out.write("\x1b[H\x1b[2J%s needs a terminal of at least %d×%d; this one is "
                           "%d×%d.\r\nMake it larger." % (
                               self.title.split(" - ")[0], MIN_COLS, MIN_ROWS, cols, rows))
            self.out.flush()
            return
        o = ["\x1b[H"]
        title = self.title
        if self.frame:
            title += "  (%d mA)" % self.ma
        o.append("  " + _cut(title, cols - 3) + "\x1b[K\r\n")
        o.append(" " * PANEL_LEFT + " ".join(self.label_top) + "\x1b[K\r\n")
        side_at = PANEL_LEFT + 2 * self.w + 1
        side = self.side_lines(cols - side_at - 1, self.h + 1)
        for y in range(self.h):
            row = [" " * PANEL_LEFT]
            for x in range(self.w):
                if self.frame is None:
                    row.append("\x1b[38;2;60;60;60m\u00b7 ")
                    continue
                r, g, b = self.led(x, y)
                if r + g + b < 12:
                    row.append("\x1b[38;2;50;50;50m\u00b7 ")
                else:
                    row.append("\x1b[38;2;%d;%d;%dm\u25cf " % (r, g, b))
            row.append("\x1b[0m ")
            if y < len(side):
                row.append(side[y])
            o.append("".join(row) + "\x1b[K\r\n")
        bottom = " " * PANEL_LEFT + " ".join(self.label_bottom)
        if self.h < len(side):
            bottom = bottom.ljust(side_at) + side[self.h]
        o.append(bottom + "\x1b[K\r\n")
        used = 3 + self.h
        room = rows - used - 1
        keys = (self.keys + [""] * room)[:room]
        for line in keys:
            o.append("  " + _cut(line, cols - 3) + "\x1b[K\r\n")
        # the last line has no line end: the screen must not scroll
        o.append("  " + _cut(self.status, cols - 3) + "\x1b[K\x1b[J")
        self.out.write("".join(o))
        self.out.flush()

    # ---- what the board sends -------------------------------------------------------------
    def show(self, line):
        """Take a WATCH line that changes the display (`!LED`, `!TEXT`, `!EV`); returns "led",
        "text", "event" or None for any other line."""
        if line.startswith("!LED "):
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1].isdigit():
                self.set_frame(int(parts[1]), parts[2])
                return "led"
        elif line.startswith("!TEXT "):
            self.text = [t for t in line[6:].split("|")]
            while self.text and not self.text[-1]:
                self.text.pop()
            return "text"
        elif line.startswith("!EV "):
            self.events.feed(line[4:])
            return "event"
        return None

    def set_frame(self, bright, hexdata):
        frame = bytes.fromhex(hexdata)
        if len(frame) != self.w * self.h * 3:
            return
        self.frame = frame
        self.bright = bright
        self.ma = self.panel.encode(frame, self.strip, bright)

    def click(self, col, row):
        # screen cell (1-based) -> LED -> key
        if not self.letters:
            return None
        x = (col - PANEL_LEFT - 1) // 2
        y = row - 3
        return self.key_at.get((x, y))
