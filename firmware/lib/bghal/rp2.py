# The hardware layer of a real board (Raspberry Pi Pico / Pico 2): the LED panel through the
# `neopixel` module, the keys (a diode key matrix scanned one row at a time, or buttons on their
# own pins), the SSD1306 OLED, the piezo, the watchdog, flash sync, the board id and the USB
# serial link. Implements the HAL of docs/firmware-layout.md from the board's profile.
# `machine`, `neopixel`, `framebuf` and `time` can be passed in, so that the tests run this code
# against pin-level fakes on CPython and on MicroPython's unix port. The code names the modules
# directly (machine.Pin, time.ticks_ms, ...) so that the type check sees every use against the
# rp2 stubs; passed-in modules replace them for the board being built.

import os
import sys
import time

try:
    import machine
    import neopixel
except ImportError:  # not a Pico: the caller passes fakes
    machine = None
    neopixel = None
try:
    import framebuf
except ImportError:  # CPython
    framebuf = None

from bghal.debounce import Debouncer, PRESS, LONG, RELEASE
from bghal.panel import Panel

WDT_TIMEOUT_MS = 8000      # the RP2040's watchdog allows up to about 8.3 s
PIEZO_HZ = 2400
SCAN_MS = 5                # key scan period
# watchdog CTRL register, write-1-to-clear alias (+0x3000); bit 30 enables the watchdog
_WDT_CTRL_CLR = {"rp2040": 0x40058000 + 0x3000, "rp2350": 0x400D8000 + 0x3000}
_WDT_ENABLE = 1 << 30


def _use(machine_module, neopixel_module, framebuf_module, time_module):
    global machine, neopixel, framebuf, time
    if machine_module is not None:
        machine = machine_module
    if neopixel_module is not None:
        neopixel = neopixel_module
    if framebuf_module is not None:
        framebuf = framebuf_module
    if time_module is not None:
        time = time_module


class Rp2Hal:
    def __init__(self, profile, machine=None, neopixel=None, framebuf=None, time=None,
                 stdin=None, stdout=None, data_dir="/data", scan_ms=SCAN_MS):
        """`scan_ms`: scan the keys on a timer this often (0: only when keys() is called)."""
        _use(machine, neopixel, framebuf, time)
        self._setup(profile, scan_ms)
        self.data_dir = data_dir
        self._in = stdin
        self._out = stdout
        self._poll = None
        self._rx = bytearray(64)

    def _setup(self, profile, scan_ms):
        # (the module names here are the modules in use, real or passed in)
        self.profile = profile
        # what later calls need, taken now from the modules in use
        self._ticks_ms = time.ticks_ms
        self._ticks_add = time.ticks_add
        self._ticks_diff = time.ticks_diff
        self._sleep_ms = time.sleep_ms
        self._unique_id = machine.unique_id
        self._new_wdt = machine.WDT
        self._mem32 = machine.mem32
        self.panel = Panel(profile)
        self.brightness = profile["brightness"]["default"]
        p = profile["panel"]
        self._np = neopixel.NeoPixel(machine.Pin(p["pin"], machine.Pin.OUT), self.panel.count)
        self._init_keys(profile["input"])
        self._oled = None
        o = profile.get("oled")
        if o:
            from bghal.oled import Oled
            i2c = machine.I2C(o["i2c"], sda=machine.Pin(o["sda"]), scl=machine.Pin(o["scl"]),
                              freq=o["freq"])
            screen = bytearray(o["width"] * o["height"] // 8)
            fb = framebuf.FrameBuffer(screen, o["width"], o["height"], framebuf.MONO_VLSB)
            self._oled = Oled(i2c, fb, screen, o["address"], o["width"], o["height"])
        self._pwm = None
        if profile.get("piezo") is not None:
            self._pwm = machine.PWM(machine.Pin(profile["piezo"]))
            self._pwm.duty_u16(0)
        self._beep_until = None
        self._wdt = None
        self._timer = None
        self._interrupted = False
        self._last_tick = self._ticks_ms()      # when the timer last read the keys
        self._stall_ms = profile["input"]["settle_ms"]
        if scan_ms:
            # a soft timer: the scan runs between bytecodes, also while the bot thinks, so a
            # tap is never missed; keys() then only collects what the scans queued. Between
            # scans every row is held low, so that a single read of the columns tells whether
            # any key is down: with none down or settling, a tick costs a few pin reads, not a
            # scan of the whole matrix (3.4 ms of the RP2040's time)
            self._park(0)
            self._timer = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=scan_ms,
                                        callback=self._on_timer)   # -1: the rp2 soft timer

    # ---- keys -------------------------------------------------------------------------------
    def _init_keys(self, inp):
        Pin = machine.Pin
        self._rows = []
        self._cols = []
        names = []
        if inp["style"] == "matrix":
            for pin in inp["rows"]:
                self._rows.append(Pin(pin, Pin.OUT, value=1))
            for pin in inp["cols"]:
                self._cols.append(Pin(pin, Pin.IN, Pin.PULL_UP))
            for row in inp["keys"]:
                names.extend(row)
        else:
            # buttons: one "row" that is always selected; each button a column to ground
            for name in sorted(inp["buttons"]):
                self._cols.append(Pin(inp["buttons"][name], Pin.IN, Pin.PULL_UP))
                names.append(name)
        self._names = names
        self._long = inp.get("long") or {}
        self._debounce = Debouncer(len(names), inp["settle_ms"], inp["long_ms"])
        self._pending = []

    def _park(self, level):
        for row in self._rows:
            row.value(level)

    def _on_timer(self, timer):
        try:
            # a tick that comes settle_ms or more after the one before comes after a stall: a
            # flash write (littlefs, a sector erase with interrupts off: 63 ms on the emulated
            # RP2040) ran no bytecode, so no scan. A key found down now went down during it:
            # its press is dated from the last tick (Debouncer.update's `since`) and counts at
            # once, where it was lost when released less than settle_ms after the write
            now = self._ticks_ms()
            last = self._last_tick
            self._last_tick = now
            if self._debounce.idle():
                for col in self._cols:
                    if col.value() == 0:
                        break
                else:
                    return          # no key down (every row is low) and none settling
            self._park(1)
            self.scan(last if self._ticks_diff(now, last) >= self._stall_ms else -1)
            self._park(0)
        except KeyboardInterrupt:
            # Ctrl-C arriving while the callback runs would end the callback, not the app:
            # hand it on to the app's next read() or keys() (before the app reads the bytes
            # that follow, mpremote's Ctrl-A), so that mpremote can always break in
            self._interrupted = True

    def scan(self, since=-1):
        """Read every key once and queue the key names that result: on the timer, or from
        keys() when there is none. A key that reads up while idle is not passed on. `since`:
        the time of the last reading before a stall (Debouncer.update), else -1."""
        now = self._ticks_ms()
        state = self._debounce.state
        cols = self._cols
        if self._rows:
            k = 0
            for row in self._rows:
                row.value(0)
                for col in cols:
                    down = col.value() == 0
                    if down or state[k]:
                        self._key(k, down, now, since)
                    k += 1
                row.value(1)
        else:
            for k in range(len(cols)):
                down = cols[k].value() == 0
                if down or state[k]:
                    self._key(k, down, now, since)

    def _key(self, k, down, now, since):
        name = self._names[k]
        if name is None:
            return
        ev = self._debounce.update(k, down, now, since)
        if not ev:
            return
        long_name = self._long.get(name)
        if long_name is None:
            if ev == PRESS:
                self._pending.append(name)
        elif ev == LONG:
            self._pending.append(long_name)
        elif ev == RELEASE:
            self._pending.append(name)

    def keys(self):
        """Key names pressed since the last call, oldest first."""
        if self._interrupted:
            self._interrupted = False
            raise KeyboardInterrupt
        if self._timer is None:
            self.scan()
        self._service()
        if not self._pending:
            return []
        out = self._pending
        self._pending = []
        return out

    # ---- output -----------------------------------------------------------------------------
    def show(self, frame):
        """Put a logical RGB frame on the LEDs; returns the estimated panel current in mA."""
        ma = self.panel.encode(frame, self._np.buf, self.brightness)
        self._np.write()
        self._service()
        return ma

    def text(self, lines):
        if self._oled is not None:
            self._oled.lines(lines)

    def beep(self, ms):
        """Sound the piezo for `ms` ms without waiting: it stops at the next keys(), show() or
        feed() after that time."""
        if self._pwm is None:
            return
        self._pwm.freq(PIEZO_HZ)
        self._pwm.duty_u16(32768)
        self._beep_until = self._ticks_add(self._ticks_ms(), ms)

    def _service(self):
        if self._beep_until is not None and self._ticks_diff(
                self._ticks_ms(), self._beep_until) >= 0:
            self._pwm.duty_u16(0)
            self._beep_until = None

    # ---- clock, entropy, identity, storage ---------------------------------------------------
    def ticks_ms(self):
        return self._ticks_ms()

    def sleep_ms(self, ms):
        self._sleep_ms(ms)

    def pause(self, ms):
        """The app loop's idle wait: up to `ms`, over as soon as the key scan has queued a key
        (so that a key's answer does not wait out the rest of the pause)."""
        end = self._ticks_add(self._ticks_ms(), ms)
        while not self._pending and self._ticks_diff(end, self._ticks_ms()) > 0:
            self._sleep_ms(1)

    def seed(self):
        """A 32-bit integer from the chip's random source (ring oscillator on the RP2040, the
        TRNG on the RP2350), through os.urandom."""
        return int.from_bytes(os.urandom(4), "big")

    def board_id(self):
        return "".join("%02x" % b for b in self._unique_id())

    def sync(self):
        if hasattr(os, "sync"):
            os.sync()

    # ---- watchdog ----------------------------------------------------------------------------
    def feed(self):
        """Feed the watchdog; the first call starts it (so a board left at the REPL after boot
        is not reset)."""
        if self._wdt is None:
            self._wdt = self._new_wdt(timeout=WDT_TIMEOUT_MS)
        self._wdt.feed()
        self._service()

    def close(self):
        """Stop the watchdog and the piezo: call it when the app stops (Ctrl-C into the REPL),
        so that the REPL and mpremote are not reset under the user's hands."""
        if self._timer is not None:
            self._timer.deinit()
            self._timer = None
            self._park(1)           # rows back at rest, as keys() scans without the timer
        if self._pwm is not None:
            self._pwm.duty_u16(0)
        if self._wdt is not None:
            stop_watchdog(self._mem32)
            self._wdt = None

    # ---- serial link (the USB serial port, shared with the REPL) -----------------------------
    def _streams(self):
        if self._poll is None:
            import select
            if self._in is None:
                self._in = sys.stdin.buffer
            if self._out is None:
                self._out = sys.stdout.buffer
            self._poll = select.poll()
            self._poll.register(self._in, select.POLLIN)

    def read(self):
        """The bytes waiting on the serial link, or b"" (never blocks)."""
        if self._interrupted:       # Ctrl-C came during a scan: before reading what followed
            self._interrupted = False
            raise KeyboardInterrupt
        self._streams()
        n = 0
        rx = self._rx
        while n < len(rx) and self._poll.poll(0):
            b = self._in.read(1)
            if not b:
                break
            rx[n] = b[0]
            n += 1
        return bytes(rx[:n]) if n else b""

    def write(self, data):
        self._streams()
        self._out.write(data)


def stop_watchdog(mem32=None):
    """Stop a running watchdog (MicroPython's WDT has no stop): clear its enable bit. For the
    REPL after the app, and for scripts such as hardware/bringup.py run while it was going."""
    if mem32 is None:
        mem32 = machine.mem32
    chip = "rp2350" if "RP2350" in getattr(sys.implementation, "_machine", "") else "rp2040"
    mem32[_WDT_CTRL_CLR[chip]] = _WDT_ENABLE


def open(profile, **parts):
    """The HAL for a real board described by `profile` (see docs/firmware-layout.md)."""
    return Rp2Hal(profile, **parts)
