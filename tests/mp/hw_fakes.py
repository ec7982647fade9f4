# Pin-level fakes of the parts bghal.rp2 talks to (machine, neopixel, time), for CPython and
# MicroPython's unix port. A World is one simulated board: its GPIOs, the keys a test holds down,
# and everything written to the LEDs, the I2C bus, the PWM and the watchdog. The key matrix is
# simulated electrically: a column reads low when a held key joins it, through its diode, to a
# row driven low; a button reads low while held.


class World:
    def __init__(self):
        self.pins = {}          # GPIO -> FakePin
        self.held = set()       # (row GPIO, column GPIO) of held matrix keys, or a button's GPIO
        self.writes = None      # a list to record (GPIO, value) written to output pins
        self.frames = []        # bytes sent to the LED strip
        self.i2c = []           # (address, bytes) written on the I2C bus
        self.pwm = []           # ("freq"|"duty", value)
        self.wdt = []           # ("start", timeout) and "feed"
        self.mem32 = {}
        self.now = 0
        self.timer = None       # (mode, period) of the running timer
        self.timer_callback = None
        self.script = {}        # time -> what `held` becomes then (applied as time passes)
        self.machine = _machine(self)
        self.neopixel = _neopixel(self)
        self.time = _time(self)

    def output_low(self, gpio):
        p = self.pins.get(gpio)
        return p is not None and p.mode == "out" and p.level == 0

    def level(self, gpio):
        p = self.pins[gpio]
        if p.mode == "out":
            return p.level
        if gpio in self.held:
            return 0
        for key in self.held:
            if isinstance(key, tuple) and key[1] == gpio and self.output_low(key[0]):
                return 0
        return 1 if p.pull == "up" else 0


class _Namespace:
    pass


def _machine(world):
    m = _Namespace()

    class Pin:
        OUT = "out"
        IN = "in"
        PULL_UP = "up"

        def __init__(self, gpio, mode=None, pull=None, value=None):
            self.gpio = gpio
            self.mode = mode
            self.pull = pull
            self.level = 1 if value is None else value
            world.pins[gpio] = self

        def value(self, v=None):
            if v is None:
                return world.level(self.gpio)
            self.level = 1 if v else 0
            if world.writes is not None:
                world.writes.append((self.gpio, self.level))
            return None

    class I2C:
        def __init__(self, bus, sda=None, scl=None, freq=None):
            self.bus = bus
            self.sda = sda.gpio
            self.scl = scl.gpio
            world.i2c_bus = (bus, self.sda, self.scl, freq)

        def writeto(self, addr, buf):
            world.i2c.append((addr, bytes(buf)))

        def writevto(self, addr, bufs):
            world.i2c.append((addr, b"".join(bytes(b) for b in bufs)))

    class PWM:
        def __init__(self, pin):
            world.pwm_pin = pin.gpio

        def freq(self, hz):
            world.pwm.append(("freq", hz))

        def duty_u16(self, d):
            world.pwm.append(("duty", d))

    class Timer:
        PERIODIC = "periodic"

        def __init__(self, timer_id, mode=None, period=None, callback=None):
            if timer_id != -1:
                raise ValueError("the rp2 port has only the soft timer, id -1")
            world.timer = (mode, period)
            world.timer_callback = callback
            self.callback = callback

        def deinit(self):
            world.timer = None
            world.timer_callback = None

    class WDT:
        def __init__(self, timeout=5000):
            world.wdt.append(("start", timeout))

        def feed(self):
            world.wdt.append("feed")

    m.Pin = Pin
    m.I2C = I2C
    m.PWM = PWM
    m.WDT = WDT
    m.Timer = Timer
    m.mem32 = world.mem32
    m.unique_id = lambda: b"\xe6\x61\x41\x04\x03\x2b\x5c\x2d"
    return m


def _neopixel(world):
    n = _Namespace()

    class NeoPixel:
        def __init__(self, pin, count):
            world.strip_pin = pin.gpio
            self.buf = bytearray(count * 3)

        def write(self):
            world.frames.append(bytes(self.buf))

    n.NeoPixel = NeoPixel
    return n


def _time(world):
    t = _Namespace()

    def sleep_ms(ms):
        # time passes one ms at a time: scripted key changes happen, the timer fires
        for _ in range(ms):
            world.now += 1
            if world.now in world.script:
                world.held = world.script[world.now]
            if (world.timer_callback is not None and world.timer[1]
                    and world.now % world.timer[1] == 0):
                world.timer_callback(None)

    t.ticks_ms = lambda: world.now & 0x3FFFFFFF
    t.ticks_us = lambda: (world.now * 1000) & 0x3FFFFFFF
    t.ticks_add = lambda a, b: (a + b) & 0x3FFFFFFF
    t.ticks_diff = lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000
    t.sleep_ms = sleep_ms
    return t


class RecordingFramebuf:
    """A stand-in for MicroPython's framebuf on CPython, which has none: it records what was
    drawn (the unix port's tests use the real module and check the pixels)."""

    MONO_VLSB = 0

    def __init__(self):
        self.calls = []
        outer = self

        class FrameBuffer:
            def __init__(self, buf, width, height, fmt):
                self.buf = buf
                outer.size = (width, height, fmt)

            def fill(self, c):
                outer.calls.append(("fill", c))
                for i in range(len(self.buf)):
                    self.buf[i] = 0xFF if c else 0

            def text(self, s, x, y, c=1):
                outer.calls.append(("text", s, x, y))

        self.FrameBuffer = FrameBuffer
