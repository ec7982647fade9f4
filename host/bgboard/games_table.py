"""`bgboard games`: the archive of pulled records (or any folder of records and .mat files) as
a table: date, players, mode, result, points, file (a ranked game with its standing on its
level's board); files that do not verify are named."""

import sys
from pathlib import Path

from bgboard.archive import archive_root
from bgboard.safetext import for_terminal


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
    row = (date, "%s - %s" % (r.players[0], r.players[1]), mode, result,
           "%d-%d" % (m.score[0], m.score[1]))
    return tuple(for_terminal(c, 160) for c in row), None   # names from the record, shown safe


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
            rows.append(row + (for_terminal(str(p.relative_to(folder))),))
        else:
            bad.append(err)
    head = ("date", "players", "mode", "result", "points", "file")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    print(fmt % head, file=out)
    for r in sorted(rows, key=lambda r: (r[0], r[5])):
        print(fmt % r, file=out)
    for e in bad:
        print("not a valid record: %s" % for_terminal(e, 300), file=sys.stderr)
    return 0 if not bad else 1
