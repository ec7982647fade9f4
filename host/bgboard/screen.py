"""The virtual board drawn in a terminal, for `bgboard sim` and `bgboard watch`: a board's
LED frames (WATCH's `!LED` lines) put through the same Panel.encode a Pico runs (brightness,
current limit) and drawn as coloured dots in the panel's geometry, the board's text display
beside it, and the keys a click on the panel stands for."""

from bgboard import paths


def load_profile(name):
    """Board profile NAME (a name in hardware/profiles or a path), loaded and checked by the
    firmware's own bghal.profile."""
    paths.firmware_import_path()
    from bghal import profile as bprofile
    return bprofile.load(str(paths.profile_path(name)))


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
        self.legend = []          # the lines under the panel: the sim's keys, watch's events
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

    def show(self, line):
        """Take a WATCH line that changes the display (`!LED`, `!TEXT`); returns "led", "text"
        or None for any other line."""
        if line.startswith("!LED "):
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1].isdigit():
                self.set_frame(int(parts[1]), parts[2])
                return "led"
        elif line.startswith("!TEXT "):
            self.text = line[6:].split("|")
            return "text"
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
        x = (col - 4) // 2
        y = row - 3
        return self.key_at.get((x, y))
