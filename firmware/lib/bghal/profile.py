# Board profiles: the JSON file that says how a board is built (pins, LED panel geometry and
# wiring, which LEDs show which part of the board, colours, power budget, keys, display).
# `load` reads one and fills in defaults; `check` lists everything wrong with one, one message
# per fault (its code, bghal.profile_check, is loaded only when asked: a board skips it at boot
# once its profile passed it, see main.py). The firmware runs both and `bgboard hw check` runs
# the same code on the laptop, so a profile that passes on the laptop is one the board accepts.
# Pure and MicroPython-compatible. The format is described in hardware/profiles/README.md.

import json

# The LED map's elements: every one must be present, and no LED may belong to two of them.
# Points are numbered from player 0's side (player 0 sits at the near edge, y = height - 1).
POINT_ELEMENTS = tuple("p%d" % n for n in range(1, 25))
ELEMENTS = POINT_ELEMENTS + ("bar0", "bar1", "off0", "off1", "die0", "die1", "cube",
                             "turn0", "turn1")
DEFAULTS = {
    "hal": "rp2",
    "panel": {"width": 16, "height": 16, "wiring": "serpentine", "origin": "top-left",
              "rotation": 0, "order": "GRB"},
    "brightness": {"default": 48, "max": 128},
    "power": {"supply_ma": 2000, "budget_ma": 1500, "channel_ma": 20, "led_idle_ua": 600,
              "other_ma": 100},
    "colours": {"side0": [0, 140, 255], "side1": [255, 70, 0], "stack0": [0, 30, 110],
                "stack1": [110, 20, 0], "source": [255, 220, 0], "dest": [0, 255, 40],
                "last": [170, 0, 255], "dice": [255, 255, 255], "cube": [255, 190, 0]},
    "input": {"settle_ms": 20, "long_ms": 700, "long": {}},
    "oled": None,
    "piezo": None,
    "mechanical": None,
}
OLED_DEFAULTS = {"i2c": 0, "address": 0x3C, "width": 128, "height": 64, "freq": 400000}


def load(path, mechanical=False):
    """Read the profile at `path` and fill in defaults. Raises ValueError naming the file when
    it is not a JSON object (OSError when it cannot be read). The layout of the top
    (`mechanical`) is dropped unless asked for: the board has no use for it, and it would keep
    about 7 KB of heap (measured on the unix port) for nothing."""
    with open(path) as f:
        return loads(f.read(), path, mechanical)


def loads(text, path="profile", mechanical=False):
    """The profile in `text` (str or bytes: the contents of the file `path`), as load."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError("%s: not valid JSON (%s)" % (path, e))
    if not isinstance(data, dict):
        raise ValueError("%s: a profile is a JSON object, not %s" % (path, type(data).__name__))
    if not mechanical and "mechanical" in data:
        del data["mechanical"]
    return with_defaults(data)


def with_defaults(data):
    """A copy of the profile dict `data` with every missing setting taken from DEFAULTS."""
    out = {}
    for key, value in data.items():
        out[key] = value
    for key, value in DEFAULTS.items():
        if key not in out:
            out[key] = _copy(value)
        elif isinstance(value, dict) and isinstance(out[key], dict):
            merged = _copy(value)
            for k, v in out[key].items():
                merged[k] = v
            out[key] = merged
    oled = out.get("oled")
    if isinstance(oled, dict):
        merged = dict(OLED_DEFAULTS)
        for k, v in oled.items():
            merged[k] = v
        out["oled"] = merged
    return out


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def runs_pixels(runs):
    """The (x, y) LEDs of a list of runs [x, y, dx, dy, count], in order. Assumes the runs are
    well formed (`check` says when they are not)."""
    out = []
    for x, y, dx, dy, n in runs:
        for i in range(n):
            out.append((x + i * dx, y + i * dy))
    return out


def pixels(profile, name):
    """The logical pixel numbers (y * width + x, the order of a frame's pixels) of LED map
    element `name`, first LED first: a bytearray for panels of up to 256 LEDs, else a list."""
    width = profile["panel"]["width"]
    numbers = [y * width + x for x, y in runs_pixels(profile["leds"][name])]
    if width * profile["panel"]["height"] <= 256:
        return bytearray(numbers)
    return numbers


def mcus(profile):
    """The MCUs a profile is for, as a tuple (the profile may name one or a list)."""
    m = profile.get("mcu")
    return tuple(m) if isinstance(m, list) else (m,)


def check(profile):
    """Every fault in a loaded profile as a list of messages, empty when it is fine."""
    from bghal.profile_check import check as _check
    return _check(profile)


# bghal's modules whose code checks a profile: a profile that passed their check once is not
# checked again at power-up while neither it nor they change (boot_load)
CHECK_CODE = ("profile", "profile_check")


def stamp_of(parts):
    """The stamp of a profile's bytes and of the CHECK_CODE modules' (as installed), in that
    order: sha256 over each part's length and bytes, in hex (bgboard flash computes it with
    this function too)."""
    import binascii
    import hashlib
    h = hashlib.sha256()
    for part in parts:
        h.update(b"%d\n" % len(part))
        h.update(part)
    return binascii.hexlify(h.digest())


def boot_load(path, marker):
    """At power-up: (the profile at `path`, the list of its faults). The checks (a quarter of a
    second on an RP2040) run unless the file `marker` holds the stamp of this profile and of
    the checking code installed beside this module: the pair that last passed them. After a
    pass the stamp is written there; `bgboard flash` writes it too, after the same check."""
    with open(path, "rb") as f:
        data = f.read()
    prof = loads(data, path)
    try:
        where = __file__
    except NameError:       # (frozen: no file to read, so always checked)
        where = ""
    lib = where[:where.rfind("/") + 1]
    ext = where[where.rfind("."):]
    parts = [data]
    for name in CHECK_CODE:
        try:
            with open(lib + name + ext, "rb") as f:
                parts.append(f.read())
        except OSError:
            lib = ""        # the code is not where the stamp can see it: always checked
            break
    stamp = stamp_of(parts) if lib else None
    if stamp:
        try:
            with open(marker, "rb") as f:
                if f.read() == stamp:
                    return prof, []
        except OSError:
            pass
    faults = check(prof)
    if stamp and not faults:
        try:
            with open(marker, "wb") as f:
                f.write(stamp)
        except OSError:
            pass
    return prof, faults


def idle_ma(profile):
    """The panel's current with every LED off, in mA (rounded up)."""
    p = profile["panel"]
    return (p["width"] * p["height"] * profile["power"]["led_idle_ua"] + 999) // 1000
