"""The laptop's archive of game records taken off boards: where it lives (the user's data
directory, one folder per board id), how a pulled record is named there, and finding an
archived record by its name. (`bgboard games` shows it as a table: bgboard.games_table.)"""

import hashlib
from pathlib import Path

from bgboard.paths import data_dir


def archive_root():
    return data_dir() / "archive"


def board_dir(board_id):
    return archive_root() / board_id


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


def place_for(folder, name, digest):
    """Where the record NAME with this sha256 belongs in FOLDER, and whether it is already
    there. A board numbers its records from 0001 again after its flash is wiped, so a different
    record under a name already taken gets its digest's first 8 digits added."""
    folder = Path(folder)
    plain = folder / name
    stem, dot, ext = name.rpartition(".")
    other = folder / ("%s-%s.%s" % (stem, digest[:8], ext) if dot else "%s-%s" % (name, digest[:8]))
    for path in (plain, other):
        if path.exists() and sha256_file(path) == digest:
            return path, True
    if not plain.exists():
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
