"""The laptop's archive of game records taken off boards: where it lives (the user's data
directory, one folder per board id), how a pulled record is named there, and `bgboard games`,
the archive (or any folder of records) as a table."""

import hashlib
import os
import sys
from pathlib import Path


def data_dir():
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bgboard"


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


# ---- bgboard games ---------------------------------------------------------------------------

def _row(path, standing=None):
    from bgboard.games import FileError, load
    from bgcore.match import GAME_OVER, MATCH, MATCH_OVER, MONEY
    try:
        ld = load(path)
    except FileError as e:
        return None, str(e)
    r = ld.replay
    m = r.match
    rules = m.rules
    start = ld.info.get("start", "")
    date = start.replace("T", " ")[:16] if start else "-"
    mode = {MATCH: "match to %d" % rules.length, MONEY: "money"}.get(rules.mode, "single")
    if r.ended or m.phase in (GAME_OVER, MATCH_OVER):
        w = 0 if m.score[0] > m.score[1] else 1
        result = "%s won" % r.players[w] if m.score[0] != m.score[1] else "level"
    else:
        result = "in progress (game %d)" % m.game
    if ld.torn:
        result += ", last line torn"
    if standing:                # a ranked game: its place on the level's board (bgboard.ranked)
        mode, result = "ranked", "%s; %s" % (result, standing)
    return (date, "%s - %s" % (r.players[0], r.players[1]), mode, result,
            "%d-%d" % (m.score[0], m.score[1])), None


def run_games(folder=None, out=None):
    out = out or sys.stdout
    folder = Path(folder) if folder else archive_root()
    if not folder.exists():
        print("no records yet: %s does not exist (bgboard logs pull fills it)" % folder,
              file=sys.stderr)
        return 1
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".bgr", ".mat") and p.is_file())
    if not files:
        print("no game records in %s" % folder, file=sys.stderr)
        return 1
    from bgboard.ranked import collect, standing
    boards, ranked = collect(p for p in files if p.suffix == ".bgr")
    rows, bad = [], []
    for p in files:
        row, err = _row(p, standing(p, boards, ranked))
        if row:
            rows.append(row + (str(p.relative_to(folder)),))
        else:
            bad.append(err)
    head = ("date", "players", "mode", "result", "points", "file")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    print(fmt % head, file=out)
    for r in sorted(rows, key=lambda r: (r[0], r[5])):
        print(fmt % r, file=out)
    for e in bad:
        print("not a valid record: %s" % e, file=sys.stderr)
    return 0 if not bad else 1
