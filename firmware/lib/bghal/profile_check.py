# The checks of a board profile (bghal.profile.check): every fault of a loaded profile as one
# message each. Loaded only when asked (`bgboard hw check`, `bgboard flash`, and a board whose
# profile or checking code changed since its last boot: main.py). Pure and MicroPython-compatible.

from bghal.profile import ELEMENTS, runs_pixels, mcus, idle_ma

# GPIOs of the RP2040 and of the RP2350 in the Pico 2's package (RP2350A): 0-29. The Pico boards
# use four of them themselves; they are not on the header.
GPIO_COUNT = 30
BOARD_GPIOS = {
    23: "the Pico's power-supply mode pin",
    24: "the Pico's VBUS sense",
    25: "the Pico's on-board LED",
    29: "the Pico's VSYS voltage sense",
}
MCUS = ("rp2040", "rp2350")
HALS = ("rp2", "virtual")
WIRINGS = ("serpentine", "progressive")
ORIGINS = ("top-left", "top-right", "bottom-left", "bottom-right")
ROTATIONS = (0, 90, 180, 270)

# elements whose LED count is fixed by what they show: a die lights one LED per pip, the cube
# one LED per doubling (2, 4, ... 64)
FIXED_SIZES = {"die0": 6, "die1": 6, "cube": 6}

MATRIX_KEYS = tuple("P%d" % n for n in range(1, 25)) + ("BAR", "OFF", "OK", "UNDO", "DOUBLE",
                                                        "HINT", "MENU")
BUTTON_KEYS = ("LEFT", "RIGHT", "SELECT", "BACK")
LONG_ONLY_KEYS = ("RESIGN",)     # logical keys a board reaches only by a long press
INPUT_STYLES = {"matrix": MATRIX_KEYS, "buttons": BUTTON_KEYS}
STYLE_NEEDS = {"matrix": "a matrix board needs P1-P24, BAR, OFF, OK, UNDO, DOUBLE, HINT, MENU",
               "buttons": "a buttons board needs LEFT, RIGHT, SELECT, BACK"}

COLOURS = ("side0", "side1", "stack0", "stack1", "source", "dest", "last", "dice", "cube")

# (`mechanical`, where the keys sit on the top, is the laptop's business: bgboard hw check checks
# that the keys fit, and `load` leaves it out on the board)
TOP_KEYS = ("name", "about", "mcu", "hal", "panel", "leds", "colours", "brightness", "power",
            "input", "oled", "piezo", "mechanical")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check(profile):
    """Every fault in a loaded profile as a list of messages, empty when it is fine."""
    faults = []
    _check_top(profile, faults)
    pins = []  # (where, pin) of every GPIO the profile uses
    panel_ok = _check_panel(profile.get("panel"), faults, pins)
    if panel_ok:
        _check_leds(profile, faults)
    _check_input(profile.get("input"), faults, pins)
    _check_oled(profile.get("oled"), faults, pins)
    piezo = profile.get("piezo")
    if piezo is not None:
        pins.append(("piezo", piezo))
    _check_pins(pins, faults)
    _check_colours(profile.get("colours"), faults)
    _check_brightness(profile.get("brightness"), faults)
    if panel_ok:
        _check_power(profile, faults)
    return faults


def _check_top(profile, faults):
    for key in sorted(profile):
        if key not in TOP_KEYS:
            faults.append("%s: not a profile setting (settings: %s)" % (key, ", ".join(TOP_KEYS)))
    name = profile.get("name")
    if not isinstance(name, str) or not name:
        faults.append("name: missing (a short name for the board, such as \"reference\")")
    ms = mcus(profile)
    if not ms or ms == (None,):
        faults.append("mcu: missing (one of %s)" % ", ".join(MCUS))
    for m in ms:
        if m is not None and m not in MCUS:
            faults.append("mcu: unknown MCU %r (one of %s)" % (m, ", ".join(MCUS)))
    if profile.get("hal") not in HALS:
        faults.append("hal: unknown %r (one of %s)" % (profile.get("hal"), ", ".join(HALS)))


def _check_panel(panel, faults, pins):
    if not isinstance(panel, dict):
        faults.append("panel: missing")
        return False
    ok = True
    for key in ("width", "height"):
        v = panel.get(key)
        if not _is_int(v) or not 1 <= v <= 64:
            faults.append("panel.%s: %r is not a whole number of LEDs from 1 to 64" % (key, v))
            ok = False
    if panel.get("wiring") not in WIRINGS:
        faults.append("panel.wiring: %r is not one of %s" % (panel.get("wiring"),
                                                             ", ".join(WIRINGS)))
        ok = False
    if panel.get("origin") not in ORIGINS:
        faults.append("panel.origin: %r is not one of %s" % (panel.get("origin"),
                                                             ", ".join(ORIGINS)))
        ok = False
    if panel.get("rotation") not in ROTATIONS:
        faults.append("panel.rotation: %r is not one of 0, 90, 180, 270" % (panel.get("rotation"),))
        ok = False
    order = panel.get("order")
    if not isinstance(order, str) or sorted(order) != ["B", "G", "R"]:
        faults.append("panel.order: %r is not an order of the letters R, G and B (WS2812: GRB)"
                      % (order,))
        ok = False
    if "pin" not in panel:
        faults.append("panel.pin: missing (the GPIO driving the LEDs' data input)")
    else:
        pins.append(("panel.pin", panel["pin"]))
    return ok


def _check_leds(profile, faults):
    leds = profile.get("leds")
    if not isinstance(leds, dict):
        faults.append("leds: missing (the LED map: which LEDs show which part of the board)")
        return
    width = profile["panel"]["width"]
    height = profile["panel"]["height"]
    owner = {}
    for name in ELEMENTS:
        if name not in leds:
            faults.append("leds.%s: missing" % name)
    for name in sorted(leds):
        if name not in ELEMENTS:
            faults.append("leds.%s: not an element of the board (p1 ... p24, bar0, bar1, "
                          "off0, off1, die0, die1, cube, turn0, turn1)" % name)
            continue
        runs = leds[name]
        if not _runs_ok(runs):
            faults.append("leds.%s: %r is not a list of runs [x, y, dx, dy, count] with count "
                          "at least 1" % (name, runs))
            continue
        count = 0
        outside = []
        shared = {}     # element already owning some of these LEDs -> those LEDs
        for xy in runs_pixels(runs):
            count += 1
            x, y = xy
            if not (0 <= x < width and 0 <= y < height):
                outside.append(xy)
            elif xy in owner:
                shared.setdefault(owner[xy], []).append(xy)
            else:
                owner[xy] = name
        if outside:
            faults.append("leds.%s: %s outside the %dx%d panel (x 0-%d, y 0-%d)"
                          % (name, _some_leds(outside), width, height, width - 1, height - 1))
        for other in sorted(shared):
            faults.append("leds.%s: %s already in %s" % (name, _some_leds(shared[other]), other))
        size = FIXED_SIZES.get(name)
        if size and count != size:
            faults.append("leds.%s: %d LEDs, needs exactly %d" % (name, count, size))


def _some_leds(xys):
    if len(xys) == 1:
        return "LED (%d, %d) is" % xys[0]
    return "%d LEDs, (%d, %d) to (%d, %d), are" % ((len(xys),) + xys[0] + xys[-1])


def _runs_ok(runs):
    if not isinstance(runs, list) or not runs:
        return False
    for run in runs:
        if not isinstance(run, list) or len(run) != 5:
            return False
        for v in run:
            if not _is_int(v):
                return False
        if run[4] < 1 or run[4] > 256:
            return False
    return True


def _check_input(inp, faults, pins):
    if not isinstance(inp, dict):
        faults.append("input: missing")
        return
    style = inp.get("style")
    if style not in INPUT_STYLES:
        faults.append("input.style: %r is not one of %s" % (style, ", ".join(INPUT_STYLES)))
        return
    wanted = INPUT_STYLES[style]
    seen = {}
    if style == "matrix":
        rows = inp.get("rows")
        cols = inp.get("cols")
        keys = inp.get("keys")
        for part, v in (("rows", rows), ("cols", cols)):
            if not isinstance(v, list) or not v:
                faults.append("input.%s: missing (a list of GPIOs)" % part)
                return
        for i, pin in enumerate(rows):
            pins.append(("input.rows[%d]" % i, pin))
        for i, pin in enumerate(cols):
            pins.append(("input.cols[%d]" % i, pin))
        if not isinstance(keys, list) or len(keys) != len(rows):
            faults.append("input.keys: needs one list of key names per row (%d rows)" % len(rows))
            return
        for r, row in enumerate(keys):
            if not isinstance(row, list) or len(row) != len(cols):
                faults.append("input.keys[%d]: needs one key name (or null) per column "
                              "(%d columns)" % (r, len(cols)))
                continue
            for c, name in enumerate(row):
                if name is not None:
                    _key_seen(name, "input.keys[%d][%d]" % (r, c), wanted, seen, faults)
    else:
        buttons = inp.get("buttons")
        if not isinstance(buttons, dict):
            faults.append("input.buttons: missing (key name -> GPIO)")
            return
        for name in sorted(buttons):
            where = "input.buttons.%s" % name
            pins.append((where, buttons[name]))
            _key_seen(name, where, wanted, seen, faults)
    missing = [k for k in wanted if k not in seen]
    if missing:
        faults.append("input: no key for %s (%s)" % (", ".join(missing), STYLE_NEEDS[style]))
    longs = inp.get("long")
    if not isinstance(longs, dict):
        faults.append("input.long: must map a key to the key a long press gives")
    else:
        for k in sorted(longs):
            if k not in wanted:
                faults.append("input.long.%s: no such key on a %s board" % (k, style))
            if longs[k] not in MATRIX_KEYS + BUTTON_KEYS + LONG_ONLY_KEYS:
                faults.append("input.long.%s: %r is not a key name" % (k, longs[k]))
    for key in ("settle_ms", "long_ms"):
        v = inp.get(key)
        if not _is_int(v) or not 0 <= v <= 5000:
            faults.append("input.%s: %r is not a time in ms from 0 to 5000" % (key, v))


def _key_seen(name, where, wanted, seen, faults):
    if name not in wanted:
        faults.append("%s: unknown key %r" % (where, name))
    elif name in seen:
        faults.append("%s: key %s is already at %s" % (where, name, seen[name]))
    else:
        seen[name] = where


def _check_oled(oled, faults, pins):
    if oled is None:
        return
    if not isinstance(oled, dict):
        faults.append("oled: must be an object or null (no display)")
        return
    sda, scl, bus = oled.get("sda"), oled.get("scl"), oled.get("i2c")
    pins.append(("oled.sda", sda))
    pins.append(("oled.scl", scl))
    if bus not in (0, 1):
        faults.append("oled.i2c: %r is not an I2C bus (0 or 1)" % (bus,))
    elif _is_int(sda) and _is_int(scl) and 0 <= sda < GPIO_COUNT and 0 <= scl < GPIO_COUNT:
        # on the RP2040 and RP2350, GPIO n carries I2C bus (n // 2) % 2, SDA on even n, SCL on odd
        if _i2c_role(sda, bus) == "SCL" and _i2c_role(scl, bus) == "SDA":
            faults.append("oled: SDA and SCL are swapped: on I2C%d GPIO %d is SCL and GPIO %d "
                          "is SDA" % (bus, sda, scl))
        else:
            if _i2c_role(sda, bus) != "SDA":
                faults.append("oled.sda: GPIO %d cannot be SDA of I2C%d (it can be: %s)"
                              % (sda, bus, _i2c_pins(bus, "SDA")))
            if _i2c_role(scl, bus) != "SCL":
                faults.append("oled.scl: GPIO %d cannot be SCL of I2C%d (it can be: %s)"
                              % (scl, bus, _i2c_pins(bus, "SCL")))
    if oled.get("address") not in (0x3C, 0x3D):
        faults.append("oled.address: %r is not an SSD1306 address (60 = 0x3C or 61 = 0x3D)"
                      % (oled.get("address"),))
    if oled.get("width") != 128 or oled.get("height") not in (32, 64):
        faults.append("oled: %rx%r is not an SSD1306 size (128x64 or 128x32)"
                      % (oled.get("width"), oled.get("height")))


def _i2c_role(pin, bus):
    if (pin // 2) % 2 != bus:
        return None
    return "SCL" if pin % 2 else "SDA"


def _i2c_pins(bus, role):
    return ", ".join(str(n) for n in range(GPIO_COUNT)
                     if _i2c_role(n, bus) == role and n not in BOARD_GPIOS)


def _check_pins(pins, faults):
    used = {}
    for where, pin in pins:
        if not _is_int(pin):
            faults.append("%s: %r is not a GPIO number" % (where, pin))
        elif not 0 <= pin < GPIO_COUNT:
            faults.append("%s: GPIO %d does not exist (the RP2040 and the Pico 2's RP2350A "
                          "have GPIO 0-29)" % (where, pin))
        elif pin in BOARD_GPIOS:
            faults.append("%s: GPIO %d is %s, not a free pin on the header (reserved: 23, 24, "
                          "25, 29)" % (where, pin, BOARD_GPIOS[pin]))
        elif pin in used:
            faults.append("%s: GPIO %d is already used by %s" % (where, pin, used[pin]))
        else:
            used[pin] = where


def _check_colours(colours, faults):
    if not isinstance(colours, dict):
        faults.append("colours: missing")
        return
    for name in COLOURS:
        c = colours.get(name)
        if c is None:
            faults.append("colours.%s: missing" % name)
        elif not (isinstance(c, list) and len(c) == 3
                  and all(_is_int(v) and 0 <= v <= 255 for v in c)):
            faults.append("colours.%s: %r is not [red, green, blue] with each 0-255" % (name, c))


def _check_brightness(b, faults):
    if not isinstance(b, dict):
        faults.append("brightness: missing")
        return
    cap, default = b.get("max"), b.get("default")
    if not _is_int(cap) or not 1 <= cap <= 255:
        faults.append("brightness.max: %r is not from 1 to 255" % (cap,))
    elif not _is_int(default) or not 1 <= default <= cap:
        faults.append("brightness.default: %r is not from 1 to the cap, %d" % (default, cap))


def _check_power(profile, faults):
    power = profile.get("power")
    if not isinstance(power, dict):
        faults.append("power: missing")
        return
    for key in ("supply_ma", "budget_ma", "channel_ma", "led_idle_ua", "other_ma"):
        v = power.get(key)
        if not _is_int(v) or v < 0:
            faults.append("power.%s: %r is not a whole number from 0 up" % (key, v))
            return
    supply, budget, other = power["supply_ma"], power["budget_ma"], power["other_ma"]
    if budget + other > supply:
        faults.append("power: the LEDs' budget %d mA plus %d mA for the rest of the board is "
                      "more than the %d mA supply" % (budget, other, supply))
    idle = idle_ma(profile)
    if budget <= idle:
        faults.append("power.budget_ma: %d mA does not even cover the %d mA the panel draws "
                      "with every LED off" % (budget, idle))
    if power["channel_ma"] == 0:
        faults.append("power.channel_ma: 0 (a WS2812 channel draws about 20 mA at full)")
