"""`bgboard hw check PROFILE...`: is a board profile one the firmware will accept, and does it
fit the hardware? Runs the firmware's own `bghal.profile.load` and `check` (firmware/lib is
put on the path, as on the board), prints one line per fault, or a summary of the board when
there is none."""

import sys
from pathlib import Path

from bgboard import paths
from bgboard.paths import profile_names  # noqa: F401 (older name)


def _profile_module():
    paths.firmware_import_path()
    from bghal import profile
    return profile


def resolve(name):
    """The file of profile `name`: a path to a file, or a name in hardware/profiles."""
    return paths.profile_path(name)


def load_and_check(name):
    """(path, profile or None, faults) for profile `name`: the firmware's check, then whether
    the keys physically fit (bgboard.mechanical, host only)."""
    from bgboard import mechanical
    bp = _profile_module()
    path = resolve(name)
    try:
        prof = bp.load(str(path), mechanical=True)
    except ValueError as e:
        return path, None, [str(e).split(": ", 1)[-1]]
    faults = bp.check(prof)
    # the keys' geometry needs a sound profile; until then only the section's form is checked
    more = mechanical.check(prof) if not faults else mechanical.check_form(prof)
    return path, prof, faults + [f for f in more if f not in faults]


def summary(prof):
    """One paragraph on what a (valid) profile describes."""
    bp = _profile_module()
    panel = prof["panel"]
    power = prof["power"]
    inp = prof["input"]
    if inp["style"] == "matrix":
        count = sum(1 for row in inp["keys"] for k in row if k is not None)
        keys = "%d keys in a %dx%d diode matrix (rows GPIO %s, columns GPIO %s)" % (
            count, len(inp["rows"]), len(inp["cols"]), _pins(inp["rows"]), _pins(inp["cols"]))
    else:
        keys = "buttons " + ", ".join("%s GPIO %d" % (k, v) for k, v in
                                      sorted(inp["buttons"].items(), key=lambda kv: kv[1]))
    oled = prof.get("oled")
    extras = []
    if oled:
        extras.append("SSD1306 %dx%d OLED at 0x%02X on I2C%d (SDA GPIO %d, SCL GPIO %d)"
                      % (oled["width"], oled["height"], oled["address"], oled["i2c"],
                         oled["sda"], oled["scl"]))
    if prof.get("piezo") is not None:
        extras.append("piezo on GPIO %d" % prof["piezo"])
    lines = [
        "%s: %s" % (prof["name"], " or ".join(bp.mcus(prof))),
        "  panel: %dx%d %s, first LED %s, rotated %d, data on GPIO %d, %s"
        % (panel["width"], panel["height"], panel["wiring"], panel["origin"],
           panel["rotation"], panel["pin"], panel["order"]),
        "  keys: " + keys,
    ]
    if extras:
        lines.append("  also: " + "; ".join(extras))
    from bgboard import mechanical
    top = mechanical.summary(prof)
    if top:
        lines.append(top)
    lines.append("  power: LEDs limited to %d mA (%d mA with all off), rest %d mA, supply %d mA"
                 % (power["budget_ma"], bp.idle_ma(prof), power["other_ma"], power["supply_ma"]))
    return "\n".join(lines)


def _pins(pins):
    return ", ".join(str(p) for p in pins)


def run_check(names, out=None, err=None):
    """Check each profile; returns the exit status (0: all fine, 1: a fault or a missing file)."""
    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    for name in names:
        try:
            path, prof, faults = load_and_check(name)
        except OSError as e:
            print("bgboard hw check: %s" % (e.args[0] if len(e.args) == 1 else e), file=err)
            status = 1
            continue
        shown = _shown(path)
        if faults:
            status = 1
            print("%s: %d fault%s" % (shown, len(faults), "" if len(faults) == 1 else "s"),
                  file=err)
            for f in faults:
                print("  " + f, file=err)
        else:
            print("%s: OK" % shown, file=out)
            print(summary(prof), file=out)
    return status


def _shown(path):
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
