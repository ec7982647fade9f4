"""The command line shared by the hardware tools (wiring_svg.py, mechanical_svg.py,
power_budget.py): which profiles to work on (names in hardware/profiles or paths, all by
default), where to write, and loading a profile so that any problem ends the tool with one
message naming it, never a traceback."""

import argparse
import sys
from pathlib import Path

_HOST = str(Path(__file__).resolve().parent.parent / "host")
if _HOST not in sys.path:
    sys.path.insert(0, _HOST)

from bgboard import paths  # noqa: E402

paths.firmware_import_path()
from bghal import profile as bprofile  # noqa: E402


def profile_args(tool, description, what, argv, out=True):
    """Parse `[NAME ...] [--out DIR]` for the hardware tool `tool` (as the user types it:
    tools/NAME.py); returns (names, out directory or None). The names default to every
    profile in hardware/profiles; --out is made if missing (a message, not a traceback, when
    it cannot be)."""
    ap = argparse.ArgumentParser(prog=tool, description=description)
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="a profile: a name in hardware/profiles (%s) or the path of a profile "
                         "file (default: every profile in hardware/profiles)"
                         % ", ".join(paths.profile_names()))
    if out:
        ap.add_argument("--out", metavar="DIR", default=str(paths.REPO / "hardware"),
                        help="where to write %s (default: hardware/)" % what)
    args = ap.parse_args(argv)
    out_dir = None
    if out:
        out_dir = Path(args.out)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            ap.exit(1, "%s: --out %s: %s\n" % (tool, args.out, e.strerror or e))
    return args.names or paths.profile_names(), out_dir


def load_profile(name, tool, mechanical=False):
    """(path, profile, path as shown) of a profile that passes the firmware's check; any
    problem ends the tool with a message naming it."""
    try:
        path = paths.profile_path(name)
        prof = bprofile.load(str(path), mechanical=mechanical)
    except (OSError, ValueError) as e:
        raise SystemExit("%s: %s" % (tool, e.args[0] if len(e.args) == 1 else e))
    faults = bprofile.check(prof)
    if faults:
        raise SystemExit("%s: profile %s has faults (bgboard hw check %s):\n  %s"
                         % (tool, name, name, "\n  ".join(faults)))
    try:
        source = str(path.resolve().relative_to(paths.REPO))
    except ValueError:
        source = str(path)
    return path, prof, source
