# A small SSD1306 OLED driver (128x64 or 128x32, I2C): the screen is a framebuf.FrameBuffer in
# the controller's own memory layout (MONO_VLSB: one byte is 8 pixels of a column, a "page"),
# sent whole after drawing. `lines(texts)` draws a few lines of the built-in 8x8 font; that is
# all the board shows on it (menus, scores, pips, level names). The caller makes the I2C bus
# and the FrameBuffer (bghal.rp2), so that tests can pass fakes.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]
        return x

TYPE_CHECKING = False
if TYPE_CHECKING:  # only for the type check (mypy takes this branch): the annotations' types
    import framebuf
    import machine

_CTRL_CMD = const(0x80)     # control byte: one command byte follows
_CTRL_DATA = const(0x40)    # control byte: display data follows
CHARS_PER_LINE = const(16)  # 128 pixels / 8


class Oled:
    def __init__(self, i2c: "machine.I2C", fb: "framebuf.FrameBuffer", buffer: bytearray,
                 address: int = 0x3C, width: int = 128, height: int = 64):
        """`fb` draws into `buffer`: width x height pixels, framebuf.MONO_VLSB."""
        self.i2c = i2c
        self.address = address
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = buffer
        self.fb = fb
        self._cmd = bytearray(2)
        self._cmd[0] = _CTRL_CMD
        self._data_prefix = bytearray(1)
        self._data_prefix[0] = _CTRL_DATA
        self._last = None
        self._init()

    def command(self, *codes):
        for c in codes:
            self._cmd[1] = c
            self.i2c.writeto(self.address, self._cmd)

    def _init(self):
        self.command(
            0xAE,                    # display off while setting up
            0xD5, 0x80,              # clock divider / oscillator: the usual setting
            0xA8, self.height - 1,   # multiplex ratio: the number of rows
            0xD3, 0x00,              # no vertical offset
            0x40,                    # start line 0
            0x8D, 0x14,              # charge pump on (no external VCC)
            0x20, 0x00,              # horizontal addressing: the buffer streams page by page
            0xA1,                    # column 127 is SEG0: x grows to the right
            0xC8,                    # rows scanned from the bottom: y grows downwards
            0xDA, 0x12 if self.height == 64 else 0x02,   # COM pin layout of the panel
            0x81, 0xCF,              # contrast
            0xD9, 0xF1,              # pre-charge periods
            0xDB, 0x40,              # VCOMH level
            0xA4,                    # show RAM contents
            0xA6,                    # not inverted
            0xAF)                    # display on
        self.show()

    def show(self):
        """Send the whole framebuffer to the display."""
        self.command(0x21, 0, self.width - 1, 0x22, 0, self.pages - 1)
        self.i2c.writevto(self.address, (self._data_prefix, self.buffer))

    def lines(self, texts):
        """Show up to height/8 short lines (16 characters fit on a line; longer ones are cut),
        1 pixel apart when they fit, else packed. Sends nothing when the text is unchanged."""
        texts = tuple(str(t) for t in texts)
        if texts == self._last:
            return
        self._last = texts
        rows = self.height // 8
        if len(texts) > rows:
            texts = texts[:rows]
        pitch = 9 if len(texts) * 9 <= self.height else 8
        fb = self.fb
        fb.fill(0)
        for i, t in enumerate(texts):
            fb.text(t[:CHARS_PER_LINE], 0, i * pitch, 1)
        self.show()

    def power(self, on):
        self.command(0xAF if on else 0xAE)
