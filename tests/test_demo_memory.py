"""A long DEMO does not grow the heap: the board's application (compiled, on MicroPython's unix
port at the virtual board's heap, driven by tests/mp/app_drive.py) plays a fast demo, and the
heap in use after a collection as each game starts stays where it was after the first games.
(It grew by about 240 bytes a game, the replay's per-game lists kept without history, until a
demo stalled with "out of memory" after 140-160 games.) Games are counted, nothing is timed; the
dice come from a fixed seed."""

import re

from conftest import ROOT, run_micropython

from bgboard.vboard import DEFAULT_HEAP
from bgcore.record import replay

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"
GAMES = 40          # before the fix: 30 games after the 10th grew the heap by about 7 KB
MARGIN = 1024       # bytes: what a game may leave behind that is not a per-game list


def test_a_long_demo_keeps_the_heap_where_it_was_after_ten_games(tmp_path, mpy_lib):
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), "SEED 5", "DEMO %d" % GAMES,
                        heap=DEFAULT_HEAP, lib=mpy_lib, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    assert "out of memory" not in r.stdout
    mem = {int(g): int(b) for g, b in re.findall(r"^DEMOMEM (\d+) (\d+)$", r.stdout, re.M)}
    assert sorted(mem) == list(range(1, GAMES + 1)), sorted(mem)
    print("heap in use as game 2, 10, %d start: %d, %d, %d bytes"
          % (GAMES, mem[2], mem[10], mem[GAMES]))
    assert max(mem[g] for g in range(10, GAMES + 1)) <= mem[10] + MARGIN, mem
    # the demo's record holds every game, and replays on the laptop
    records = sorted(tmp_path.glob("*.bgr"))
    assert len(records) == 1
    rep, info, torn = replay(records[0].read_text(), history=False)
    assert torn is None and rep.ended and rep.finished == GAMES
