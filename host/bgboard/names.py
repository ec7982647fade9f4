"""The one rule for names that come from a board or a file before they touch the filesystem:
record names (the board's own rule, docs/protocol.md), board ids, board profile names, and
paths that must stay inside their folder. Each check returns the name it accepts or raises
BadName with one line saying what is wrong (the name shown terminal-safe)."""

from pathlib import Path

from bgboard.paths import profile_names
from bgboard.safetext import for_terminal

RECORD_SUFFIX = ".bgr"
NAME_MAX = 40            # characters in a file name on the board
BOARD_ID_MAX = 32        # hex digits in a board id (a Pico's unique id has 16)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_HEX = frozenset("0123456789abcdefABCDEF")


class BadName(ValueError):
    """A name or path that fails the rule; the message names it and says why."""


def _say(what, name, why):
    return BadName("%s %s %s" % (what, '"%s"' % for_terminal(name, 60), why))


def file_name(name, what="file name"):
    """The board's rule for any file name: letters, digits, '.', '_', '-' (ASCII), no leading
    dot, 1 to NAME_MAX characters."""
    if not isinstance(name, str) or not name:
        raise BadName("%s is empty" % what)
    if len(name) > NAME_MAX:
        raise _say(what, name, "is longer than %d characters" % NAME_MAX)
    if name[0] == ".":
        raise _say(what, name, "begins with a dot")
    if not _NAME_CHARS.issuperset(name):
        raise _say(what, name, "may hold only letters, digits, '.', '_' and '-'")
    return name


def record_name(name):
    """A record's name on a board: file_name() and the suffix RECORD_SUFFIX."""
    file_name(name, "record name")
    if not name.endswith(RECORD_SUFFIX) or name == RECORD_SUFFIX:
        raise _say("record name", name, "does not end in %s" % RECORD_SUFFIX)
    return name


def board_id(text):
    """A board id as HELLO gives it: 1 to BOARD_ID_MAX hex digits."""
    if not isinstance(text, str) or not text:
        raise BadName("board id is empty")
    if len(text) > BOARD_ID_MAX or not _HEX.issuperset(text):
        raise _say("board id", text, "is not 1 to %d hex digits" % BOARD_ID_MAX)
    return text


def profile_name(text):
    """A profile named by a board: only one the project ships (hardware/profiles/NAME.json),
    by name, never a path."""
    known = profile_names()
    if text not in known:
        raise _say("profile", text if isinstance(text, str) else str(text),
                   "is not a known board profile (%s)" % ", ".join(known))
    return text


def inside(folder, name):
    """FOLDER/NAME resolved (symbolic links followed), required to lie inside FOLDER (not to be
    FOLDER itself): the path, or BadName."""
    name = str(name)
    if "\x00" in name:
        raise _say("path", name, "holds a NUL byte")
    root = Path(folder).resolve()
    path = (root / name).resolve()
    if path == root or root not in path.parents:
        raise _say("path", name, "leads outside %s" % for_terminal(str(root), 200))
    return path
