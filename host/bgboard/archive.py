"""The laptop's archive of game records taken off boards: where it lives (the user's data
directory, one folder per board id), how a pulled record is named there, and finding an
archived record by its name. (`bgboard games` shows it as a table: bgboard.games_table.)"""

import hashlib
import os
from pathlib import Path

from bgboard import names
from bgboard.paths import data_dir
from bgboard.safetext import for_terminal


def archive_root():
    return data_dir() / "archive"


def board_dir(board_id):
    """The archive folder of the board BOARD_ID (a hex id, checked: names.BadName otherwise)."""
    return names.inside(archive_root(), names.board_id(board_id))


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


def place_for(folder, name, digest):
    """Where the record NAME with this sha256 belongs in FOLDER, and whether it is already
    there. A board numbers its records from 0001 again after its flash is wiped, so a different
    record under a name already taken gets its digest's first 8 digits added.
    NAME must pass the record-name rule and both places must lie inside FOLDER (BadName
    otherwise)."""
    names.record_name(name)
    if not all(c in "0123456789abcdef" for c in digest[:8]) or len(digest) < 8:
        raise names.BadName("sha256 %s is not hex" % for_terminal(digest, 70))
    plain = names.inside(folder, name)
    stem, dot, ext = name.rpartition(".")
    other = names.inside(folder, "%s-%s.%s" % (stem, digest[:8], ext))
    for path in (plain, other):
        if path.is_file() and sha256_file(path) == digest:
            return path, True
    if not os.path.lexists(plain):
        return plain, False
    return other, False


def find_record(name):
    """An archived record by its name ('0003.bgr' or 'BOARD/0003.bgr'), or None."""
    root = archive_root()
    if not root.is_dir():
        return None
    direct = root / name
    if direct.is_file():
        return direct
    hits = sorted(root.glob("*/" + Path(name).name))
    return hits[0] if len(hits) == 1 else None
