#!/usr/bin/env python3
"""Print each profile's power figures for hardware/power.md.

The panel's estimated current (bghal.panel.Panel.encode) for a few frames drawn from the
profile's LED map and colours, at the default brightness and at the cap, without and with the
current limit.

    tools/power_budget.py [NAME ...]      (default: every profile in hardware/profiles)
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware" / "lib"))

from bghal import profile as bprofile  # noqa: E402
from bghal.panel import Panel  # noqa: E402
from hw_cli import load_profile, profile_args  # noqa: E402

# the starting position in player 0's numbering: (point, checkers); player 1 has the mirror
START = ((24, 2), (13, 5), (8, 3), (6, 5))


def frame(prof, kind):
    """start: the starting position, 6-5 on the dice, turn and cube; busy: the same with every
    other point LED lit as a destination; white: every LED full white."""
    n = prof["panel"]["width"] * prof["panel"]["height"]
    if kind == "white":
        return bytearray(b"\xff" * (3 * n))
    f = bytearray(3 * n)
    col = prof["colours"]

    def light(name, count, colour):
        for i in list(bprofile.pixels(prof, name))[:count]:
            f[3 * i:3 * i + 3] = bytes(colour)

    for point, count in START:
        light("p%d" % point, count, col["side0"])
        light("p%d" % (25 - point), count, col["side1"])
    light("die0", 6, col["dice"])
    light("die1", 5, col["dice"])
    light("turn0", 1, col["side0"])
    light("cube", 1, col["cube"])
    if kind == "busy":
        for p in range(1, 25):
            for i in bprofile.pixels(prof, "p%d" % p):
                if not any(f[3 * i:3 * i + 3]):
                    f[3 * i:3 * i + 3] = bytes(col["dest"])
    return f


def figures(prof):
    """[(kind, brightness, mA asked, mA sent)]"""
    unlimited = dict(prof, power=dict(prof["power"], budget_ma=10 ** 9))
    limited_panel, free_panel = Panel(prof), Panel(unlimited)
    out = limited_panel.buffer()
    rows = []
    for kind in ("start", "busy", "white"):
        f = frame(prof, kind)
        for b in (prof["brightness"]["default"], prof["brightness"]["max"]):
            rows.append((kind, b, free_panel.encode(f, out, b), limited_panel.encode(f, out, b)))
    return rows


def main(argv=None):
    names, _ = profile_args("tools/power_budget.py", __doc__.splitlines()[0], None,
                            argv, out=False)
    for name in names:
        path, prof, _ = load_profile(name, "tools/power_budget.py")
        power = prof["power"]
        print("%s: supply %d mA, LED budget %d mA, dark panel %d mA, rest %d mA"
              % (path.stem, power["supply_ma"], power["budget_ma"], bprofile.idle_ma(prof),
                 power["other_ma"]))
        for kind, b, asked, sent in figures(prof):
            print("  %-5s at brightness %3d: %5d mA asked, %5d mA sent" % (kind, b, asked, sent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
