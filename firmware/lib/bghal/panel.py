# The LED panel: its geometry and how colours are sent to it. Which position on the LED strip
# shows each logical pixel (from the profile's size, wiring, origin and rotation), and the bytes
# to send for a frame: channel order (GRB for WS2812), brightness and a current limit that dims
# the whole frame rather than let it draw more than the profile's budget.
# Pure and MicroPython-compatible; a frame is bytearray(width * height * 3), RGB, row-major,
# x from the player's left, y from the far edge.

from bghal.profile import idle_ma

# The per-LED loops of encode in native code where MicroPython has a native emitter (Thumb on the
# RP2040, x64 on the unix port): 12 ms of bytecode on the RP2040 become well under 1 ms. Their
# viper source is bghal.panel_native, which a board's build compiles to its machine code (a
# library run from its sources compiles it here); the module leaves the heap once they are
# loaded. The arithmetic is that of the loop in Panel.encode, byte for byte.
_native = []      # [strip, total] once loaded; [None, None] where there is no native emitter


def _natives():
    if not _native:
        import sys
        try:
            import micropython  # noqa: F401  (MicroPython only)
            mod = __import__("bghal.panel_native", None, None, ("SOURCE",))
            if hasattr(mod, "SOURCE"):
                names = {}
                exec(mod.SOURCE, names)
                _native.extend((names["strip"], names["total"]))
            else:               # compiled by the build to the board's machine code
                _native.extend((mod.strip, mod.total))
        except Exception:       # CPython, or a MicroPython built without native emitters
            _native.extend((None, None))
        sys.modules.pop("bghal.panel_native", None)
        import bghal
        if "panel_native" in bghal.__dict__:
            delattr(bghal, "panel_native")
    return _native

_CORNERS = {"top-left": (0, 0), "top-right": (1, 0), "bottom-left": (0, 1),
            "bottom-right": (1, 1)}


class Panel:
    def __init__(self, profile):
        p = profile["panel"]
        power = profile["power"]
        self.width = w = p["width"]
        self.height = h = p["height"]
        self.count = w * h
        self.rotation = p["rotation"]
        # the panel's own rows run along its top edge; turned 90 or 270 degrees, they run along
        # the board's height
        if self.rotation in (90, 270):
            self._own_w, self._own_h = h, w
        else:
            self._own_w, self._own_h = w, h
        self._flip_x, self._flip_y = _CORNERS[p["origin"]]
        self._serpentine = p["wiring"] == "serpentine"
        self.cap = profile["brightness"]["max"]
        self.budget_ma = power["budget_ma"]
        self.channel_ma = power["channel_ma"]
        self.idle_ma = idle_ma(profile)
        # for each strip byte 0, 1, 2: which of the frame's R, G, B it carries
        order = p["order"]
        self._src = (("RGB".index(order[0])), ("RGB".index(order[1])), ("RGB".index(order[2])))
        # strip position of every logical pixel, computed once
        self._map = bytearray(self.count) if self.count <= 256 else [0] * self.count
        for y in range(h):
            for x in range(w):
                self._map[y * w + x] = self._strip_index(x, y)
        self._lut = bytearray(256)
        self._lut_scale = -1
        if isinstance(self._map, bytearray):
            _natives()      # at boot, while the heap is still unbroken

    def _strip_index(self, x, y):
        w, h = self.width, self.height
        r = self.rotation
        # (u, v): the pixel in the panel's own frame (u along its rows, v down its columns)
        if r == 0:
            u, v = x, y
        elif r == 90:
            u, v = y, w - 1 - x
        elif r == 180:
            u, v = w - 1 - x, h - 1 - y
        else:
            u, v = h - 1 - y, x
        row = self._own_h - 1 - v if self._flip_y else v
        col = self._own_w - 1 - u if self._flip_x else u
        if self._serpentine and row % 2 == 1:
            col = self._own_w - 1 - col
        return row * self._own_w + col

    def index(self, x, y):
        """The position on the LED strip (0 = the first LED after the data input) that shows
        logical pixel (x, y)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError("pixel (%d, %d) is outside the %dx%d panel"
                             % (x, y, self.width, self.height))
        return self._map[y * self.width + x]

    def buffer(self):
        """A bytearray of the size `encode` writes (3 bytes per LED)."""
        return bytearray(self.count * 3)

    def encode(self, frame, out, brightness):
        """Write the strip bytes for the logical RGB `frame` into `out`: strip order, the
        profile's channel order, scaled by `brightness` (0-255, at most the profile's cap) and
        further if the estimated current would exceed the budget. Returns the estimated current
        of the panel in mA."""
        n = self.count
        if len(frame) != n * 3 or len(out) != n * 3:
            raise ValueError("a frame and the strip buffer hold %d bytes (%dx%d LEDs, 3 each)"
                             % (n * 3, self.width, self.height))
        scale = brightness if brightness < self.cap else self.cap
        if scale < 0:
            scale = 0
        strip, add = _natives() if isinstance(self._map, bytearray) else (None, None)
        total = add(frame, n * 3) if add else sum(frame)
        # estimated current above idle: sum(channel values) * channel_ma / 255; with the scale
        # applied, values are value * scale // 255
        room = self.budget_ma - self.idle_ma
        if room < 0:
            room = 0
        if total * scale * self.channel_ma > room * 65025:
            scale = room * 65025 // (total * self.channel_ma)
        lut = self._lut
        if scale != self._lut_scale:
            for v in range(256):
                lut[v] = v * scale // 255
            self._lut_scale = scale
        m = self._map
        s0, s1, s2 = self._src
        if strip:
            return self.idle_ma + (strip(frame, out, m, lut, n, s0, s1, s2) * self.channel_ma
                                   + 254) // 255
        for p in range(n):
            i = 3 * p
            o = 3 * m[p]
            out[o] = lut[frame[i + s0]]
            out[o + 1] = lut[frame[i + s1]]
            out[o + 2] = lut[frame[i + s2]]
        return self.idle_ma + (sum(out) * self.channel_ma + 254) // 255
