# Checks of the rp2 hardware layer against the pin-level fakes in hw_fakes: each check_* runs a
# board profile on a simulated board and raises AssertionError naming what went wrong. Run by
# pytest on CPython (tests/test_hw_rp2.py) and by hw_run.py on MicroPython's unix port.

from bghal import profile as profiles
from bghal.rp2 import Rp2Hal
from hw_fakes import World

PROFILES = "hardware/profiles"   # set by the runner
FRAMEBUF = None                  # the framebuf module to use (set by the runner)


def load(name, **changes):
    p = profiles.load(PROFILES + "/" + name + ".json")
    for section, values in changes.items():
        for k, v in values.items():
            p[section][k] = v
    return p


def make_board(profile, scan_ms=0):
    """A board on a fresh simulated world; by default its keys are scanned only by keys(),
    so that the checks control time exactly."""
    w = World()
    b = Rp2Hal(profile, machine=w.machine, neopixel=w.neopixel, framebuf=FRAMEBUF, time=w.time,
               scan_ms=scan_ms)
    return w, b


def poll(w, b, until, step=1):
    """Call keys() every `step` ms up to time `until`; returns [(time, name), ...]."""
    got = []
    while w.now <= until:
        for name in b.keys():
            got.append((w.now, name))
        w.now += step
    return got


def expect(what, got, want):
    if got != want:
        raise AssertionError("%s: got %r, expected %r" % (what, got, want))


# ---- keys --------------------------------------------------------------------------------------
def check_scan_order():
    w, b = make_board(load("reference"))
    w.writes = []
    b.scan()
    # one row low at a time, in profile order, each back high before the next
    want = []
    for gpio in (6, 7, 8, 9, 10, 11):
        want.append((gpio, 0))
        want.append((gpio, 1))
    expect("row writes of one scan", w.writes, want)
    w.writes = None
    # the crossings a builder wires, per the wiring table
    for crossing, name in (((6, 12), "P1"), ((6, 18), "P6"), ((7, 12), "P7"), ((9, 18), "P24"),
                           ((10, 12), "BAR"), ((10, 14), "OK"), ((10, 18), "HINT"),
                           ((11, 12), "MENU")):
        w.held = {crossing}
        start = w.now
        got = poll(w, b, start + 30)
        expect("key at row GPIO %d, column GPIO %d" % crossing, [n for _, n in got], [name])
        w.held = set()
        poll(w, b, w.now + 30)


def check_no_ghosting():
    w, b = make_board(load("reference"))
    # three corners of a rectangle: without diodes the fourth (P8) would read as pressed too
    w.held = {(6, 12), (6, 13), (7, 12)}
    got = poll(w, b, 40)
    expect("three keys held together", [n for _, n in got], ["P1", "P2", "P7"])


def check_debounce_timing():
    w, b = make_board(load("reference"))
    key = (6, 14)   # P3
    # contact bounce: down at 0, up at 3, down at 5, up at 8, down for good at 10
    script = {0: True, 3: False, 5: True, 8: False, 10: True}
    got = []
    while w.now <= 60:
        if w.now in script:
            w.held = {key} if script[w.now] else set()
        for name in b.keys():
            got.append((w.now, name))
        w.now += 1
    # reported once, when the reading has been steady for settle_ms (20) since the last bounce
    expect("bouncing press", got, [(30, "P3")])
    w.held = set()
    poll(w, b, 120)
    # a glitch shorter than settle_ms is not a press
    w.held = {key}
    got = poll(w, b, w.now + 15)
    w.held = set()
    got += poll(w, b, w.now + 40)
    expect("15 ms glitch", got, [])
    # a second real press after a settled release is reported again
    w.held = {key}
    start = w.now
    got = poll(w, b, start + 40)
    expect("second press", got, [(start + 20, "P3")])


def check_buttons_and_long_press():
    w, b = make_board(load("minimal"))     # LEFT 6, RIGHT 7, SELECT 8, BACK 9; BACK long = MENU
    w.held = {6}
    got = poll(w, b, 50)
    expect("LEFT (no long meaning: reported on press)", got, [(20, "LEFT")])
    w.held = set()
    poll(w, b, 100)
    # BACK held: nothing at the press, MENU 700 ms after the first touch, nothing at release
    w.held = {9}
    start = w.now
    got = poll(w, b, start + 900)
    w.held = set()
    got += poll(w, b, w.now + 100)
    expect("BACK held 900 ms", got, [(start + 700, "MENU")])
    # BACK tapped: BACK once the release has settled
    w.held = {9}
    start = w.now
    got = poll(w, b, start + 199)
    w.held = set()
    got += poll(w, b, w.now + 100)
    expect("BACK tapped for 200 ms", got, [(start + 220, "BACK")])


def check_timer_scan_catches_a_tap_during_a_long_wait():
    w, b = make_board(load("reference"), scan_ms=5)
    expect("scan timer", w.timer, ("periodic", 5))
    # P9 (row GPIO 7, column GPIO 14) tapped for 60 ms while the app is busy for 500 ms
    w.script = {100: {(7, 14)}, 160: set()}
    w.time.sleep_ms(500)
    expect("the tap, collected afterwards", b.keys(), ["P9"])
    expect("and only once", b.keys(), [])
    b.close()
    expect("close() stops the timer", w.timer, None)


# ---- LEDs --------------------------------------------------------------------------------------
def check_frame_grb():
    p = load("reference", brightness={"max": 255, "default": 255})
    w, b = make_board(p)
    frame = bytearray(16 * 16 * 3)
    frame[0:3] = bytes((200, 100, 50))       # (0, 0)
    frame[3:6] = bytes((1, 2, 3))            # (1, 0)
    frame[48:51] = bytes((10, 20, 30))       # (0, 1)
    frame[765:768] = bytes((7, 8, 9))        # (15, 15)
    b.show(frame)
    out = w.frames[-1]
    expect("strip length", len(out), 768)
    expect("LED 0 = (0, 0), sent G, R, B", tuple(out[0:3]), (100, 200, 50))
    expect("LED 1 = (1, 0)", tuple(out[3:6]), (2, 1, 3))
    # serpentine: the second row runs back, so (0, 1) is the 32nd LED
    expect("LED 31 = (0, 1)", tuple(out[93:96]), (20, 10, 30))
    expect("LED 240 = (15, 15)", tuple(out[720:723]), (8, 7, 9))
    expect("every other LED dark", sum(out) - sum((100, 200, 50, 2, 1, 3, 20, 10, 30, 8, 7, 9)), 0)
    # half brightness halves every channel (rounding down)
    b.brightness = 128
    b.show(frame)
    expect("LED 0 at brightness 128", tuple(w.frames[-1][0:3]), (50, 100, 25))


def check_brightness_cap():
    w, b = make_board(load("reference"))   # brightness cap 128
    frame = bytearray(16 * 16 * 3)
    frame[0:3] = bytes((255, 255, 255))
    b.brightness = 255
    b.show(frame)
    expect("a white LED at brightness 255 with the cap at 128", tuple(w.frames[-1][0:3]),
           (128, 128, 128))


def check_current_limit():
    p = load("reference")                   # budget 1500 mA, 20 mA a channel, 256 x 600 uA idle
    w, b = make_board(p)
    white = bytearray(b"\xff" * 768)
    b.brightness = 128
    ma = b.show(white)
    out = w.frames[-1]
    sent_ma = 154 + sum(out) * 20 / 255
    if not sent_ma <= 1500:
        raise AssertionError("all white draws an estimated %.0f mA, budget 1500" % sent_ma)
    if sent_ma < 1400:
        raise AssertionError("all white dimmed to %.0f mA: far below the 1500 mA budget" % sent_ma)
    if abs(ma - sent_ma) > 1:
        raise AssertionError("show() reports %d mA for a frame that draws %.1f mA" % (ma, sent_ma))
    expect("channels dimmed together", len(set(out)), 1)
    # a board's worth of checkers is far below the budget: only the brightness applies
    frame = bytearray(768)
    side0 = p["colours"]["side0"]
    for i in profiles.pixels(p, "p6")[:5] + profiles.pixels(p, "p13")[:5]:
        frame[3 * i:3 * i + 3] = bytes(side0)
    b.show(frame)
    out = w.frames[-1]
    g = side0[1] * 128 // 255
    r = side0[0] * 128 // 255
    blue = side0[2] * 128 // 255
    lit = [tuple(out[i:i + 3]) for i in range(0, 768, 3) if out[i:i + 3] != b"\x00\x00\x00"]
    expect("ten checkers at brightness 128", lit, [(g, r, blue)] * 10)


# ---- OLED --------------------------------------------------------------------------------------
def oled_writes(w):
    """The I2C traffic split into (commands, data writes)."""
    cmds, data = [], []
    for addr, buf in w.i2c:
        if addr != 60:
            raise AssertionError("I2C write to address %d, the OLED is at 60 (0x3C)" % addr)
        if buf[0] == 0x80:
            cmds.append(buf[1])
        elif buf[0] == 0x40:
            data.append(buf[1:])
        else:
            raise AssertionError("I2C write with control byte %02x" % buf[0])
    return cmds, data


def check_oled_protocol():
    w, b = make_board(load("reference"))
    expect("I2C bus, SDA, SCL, clock", w.i2c_bus, (0, 4, 5, 400000))
    cmds, data = oled_writes(w)
    for seq, what in (([0x8D, 0x14], "charge pump on"), ([0xA8, 63], "64 rows"),
                      ([0x20, 0x00], "horizontal addressing"), ([0xAF], "display on")):
        if not any(cmds[i:i + len(seq)] == seq for i in range(len(cmds))):
            raise AssertionError("OLED set-up lacks %s %r" % (what, seq))
    expect("screens sent at start", [len(d) for d in data], [1024])
    expect("start screen blank", sum(data[0]), 0)
    w.i2c = []
    b.text(["MATCH TO 5", "P0 2  P1 3"])
    cmds, data = oled_writes(w)
    expect("window for a screen", cmds, [0x21, 0, 127, 0x22, 0, 7])
    expect("one screen sent", [len(d) for d in data], [1024])
    w.i2c = []
    b.text(["MATCH TO 5", "P0 2  P1 3"])
    expect("the same text again sends nothing", w.i2c, [])
    mini_w, mini = make_board(load("minimal"))
    mini.text(["no display"])
    expect("minimal board: text() sends nothing", mini_w.i2c, [])


def check_oled_calls():
    """CPython (no framebuf): where each line is drawn."""
    w, b = make_board(load("reference"))
    FRAMEBUF.calls = []
    b.text(["MATCH TO 5", "P0 2  P1 3", "LEVEL 6 EXPERT AND MORE"])
    expect("drawing calls", FRAMEBUF.calls,
           [("fill", 0), ("text", "MATCH TO 5", 0, 0), ("text", "P0 2  P1 3", 0, 9),
            ("text", "LEVEL 6 EXPERT A", 0, 18)])


def screen_pixel(screen, x, y):
    return (screen[(y // 8) * 128 + x] >> (y % 8)) & 1


def check_oled_pixels():
    """MicroPython (real framebuf): the bytes sent show the lines where they belong."""
    import framebuf
    w, b = make_board(load("reference"))
    lines = ["MATCH TO 5", "P0 2  P1 3", "PIPS 167 167", "LEVEL 6"]
    w.i2c = []
    b.text(lines)
    screen = oled_writes(w)[1][-1]
    for i, line in enumerate(lines):
        one = bytearray(1024)
        fb = framebuf.FrameBuffer(one, 128, 64, framebuf.MONO_VLSB)
        fb.text(line, 0, 0, 1)
        top = 9 * i
        for y in range(8):
            for x in range(128):
                if screen_pixel(screen, x, top + y) != screen_pixel(one, x, y):
                    raise AssertionError("line %d %r: pixel (%d, %d) differs" % (i, line, x,
                                                                                 top + y))
    lit_rows = [y for y in range(64) if any(screen_pixel(screen, x, y) for x in range(128))]
    if max(lit_rows) >= 36 or min(lit_rows) != 0:
        raise AssertionError("lit rows %r: four lines should fill rows 0-35" % lit_rows)
    for y in (8, 17, 26):
        if y in lit_rows:
            raise AssertionError("row %d between two lines is lit" % y)
    # eight lines are packed 8 pixels apart and all fit
    w.i2c = []
    b.text(["%d" % i for i in range(8)])
    screen = oled_writes(w)[1][-1]
    lit_rows = [y for y in range(64) if any(screen_pixel(screen, x, y) for x in range(128))]
    if max(lit_rows) < 56:
        raise AssertionError("eighth line not drawn at row 56 (lit rows end at %d)"
                             % max(lit_rows))


# ---- the rest of the HAL -----------------------------------------------------------------------
def check_services():
    w, b = make_board(load("reference"))
    expect("board id from machine.unique_id()", b.board_id(), "e6614104032b5c2d")
    expect("no watchdog before the first feed", w.wdt, [])
    b.feed()
    b.feed()
    expect("watchdog", w.wdt, [("start", 8000), "feed", "feed"])
    b.close()
    clear = {0x40058000 + 0x3000: 1 << 30, 0x400D8000 + 0x3000: 1 << 30}
    if not w.mem32 or any(clear.get(a) != v for a, v in w.mem32.items()):
        raise AssertionError("close() did not clear the watchdog's enable bit: %r" % w.mem32)
    w.pwm = []
    start = w.now
    b.beep(50)
    w.now = start + 49
    b.keys()
    expect("piezo during a beep", w.pwm, [("freq", 2400), ("duty", 32768)])
    w.now = start + 50
    b.keys()
    expect("piezo after the beep", w.pwm[-1], ("duty", 0))
    expect("LED data pin", w.strip_pin, 22)
    expect("piezo pin", w.pwm_pin, 15)
    mw, mini = make_board(load("minimal"))
    mini.beep(50)
    expect("minimal board has no piezo", mw.pwm, [])
    # built with no modules passed in (as bghal.open does on a Pico): it uses the modules in
    # use, here the last world's fakes, timer included
    plain = Rp2Hal(load("minimal"))
    expect("the scan timer of a board built as on a Pico", mw.timer, ("periodic", 5))
    mw.held = {8}
    mw.time.sleep_ms(30)
    expect("nothing while SELECT is held", plain.keys(), [])
    mw.held = set()
    mw.time.sleep_ms(30)
    expect("SELECT tapped (reported at release: held, it means OK)", plain.keys(), ["SELECT"])


BOTH = (check_scan_order, check_no_ghosting, check_debounce_timing,
        check_buttons_and_long_press, check_timer_scan_catches_a_tap_during_a_long_wait,
        check_frame_grb, check_brightness_cap, check_current_limit,
        check_oled_protocol, check_services)
