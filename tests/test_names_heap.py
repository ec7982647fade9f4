"""A long session's first new name: the soak's boards answered `ERR memory out of memory while
answering KEY` to every menu key after hours of play ("memory allocation failed, allocating 1280
bytes" with 47 KB free). MicroPython keeps the names it meets (qstrs) in tables that double; past
the 1,260th name the next table takes 1,280 entries, 14 KB in one block, and a heap left in
pieces has none. The build's bgnames module holds every name of the firmware, and the app
imports it at power-up: the big table comes then. Here the real firmware on the unix port plays
a chouette, then before each step that follows its free heap is cut into 4 KB pieces; the views
and requests a session meets late (the best-wins view, the pips view, a demo, a pull's requests,
GET names of every printable character) need no new table, and each is answered. (Without
bgnames.mpy the same run answers `ERR memory` to the GET of the first record.)"""

import re
import string

from conftest import ROOT, chip_heap, run_micropython

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"

# GET names of every printable character but the space (a name has at most 40)
_ODD = "".join(c for c in string.printable if c.isprintable() and c != " ")
GETS = ["LINE GET " + _ODD[i:i + 30] for i in range(0, len(_ODD), 30)]
# what a session meets late, after a chouette: the menu's views (best wins, pips, chouette set-up,
# the tutor's setting), a new game's keys (hint, pips, resign), a demo, the requests of a pull
LATE = (["LINE KEY MENU", "LINE KEY P22", "LINE KEY P3", "LINE KEY MENU", "LINE KEY P24",
         "LINE KEY MENU", "LINE KEY DOUBLE", "LINE KEY MENU", "LINE KEY P23", "LINE KEY OK",
         "LINE KEY OK", "LINE KEY HINT", "LINE KEY PIPS", "LINE KEY RESIGN", "LINE KEY OFF",
         "LINE KEY MENU", "LINE KEY OK", "TICK 50", "LINE DEMO 1 fast", "TICK 3000",
         "LINE TICKETS ASK 1", "LINE LOGS", "LINE GET 0001.bgr", "LINE DEL 0001.bgr",
         "LINE HELLO"] + GETS)


def _pools(line):
    m = re.match(r"qstr pool: n_pool=(\d+), n_qstr=(\d+)", line)
    return int(m.group(1)), int(m.group(2))


def test_names_met_late_in_a_heap_in_pieces_need_no_new_table(tmp_path, mpy_lib):
    # a chouette by keys (4 players, a bot in seat 4), then every late step in a heap cut anew;
    # "MEM" first loads the drive's own module for NAMES and SPLIT (tests/mp/drive_extra.py,
    # compiled from its source) while the heap is whole: the compile is the drive's need, not
    # the board's, and it took a 1.5 KB block the chouette's heap no longer had. 264k, not 256k
    # since the network's contact inputs (2026-12-03): the demo's game now has a roll of more
    # than 128 plays, which loads bgcore.shortlist (kept once loaded, 3.5 KB with its table),
    # and the contact inputs hold 1.9 KB more from power-up; at 256k the GET late in the run
    # found no block for its code (with the shortlist loaded the same way, the code before them
    # had 2.2 KB to spare there)
    script = ["MEM", "KEY DOUBLE", "KEY P14", "KEY P15", "KEY OK", "CGAME play", "NAMES"]
    for step in LATE:
        script += ["SPLIT 4096", step]
    r = run_micropython(DRIVE, str(tmp_path), str(PROFILE), "SEED 7", *script, "NAMES", "MEM",
                        heap=chip_heap(264), lib=mpy_lib)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    lines = r.stdout.splitlines()
    free = [int(ln.split()[1]) for ln in lines if ln.startswith("SPLIT ")]
    assert min(free) > 10000, "the cut heap should still have KBs free: %s" % free
    before, after = [_pools(ln) for ln in lines if ln.startswith("qstr pool:")]
    # every answer came, and none ran out of memory
    answers = [ln for ln in lines if ln.startswith(("OK ", "NO ", "ERR ", "HELLO ", "LOGS "))]
    assert not [a for a in answers if a.startswith("ERR memory")], answers
    assert sum(a.startswith("ERR args") or a.startswith("ERR nofile") for a in answers) == 4
    for step in ("KEY P22", "KEY P24", "KEY DOUBLE", "DEMO 1 fast", "DEL 0001.bgr"):
        assert "OK " + step in answers, answers
    # no name table was needed after the heap was cut: the big one came at power-up
    assert after[0] == before[0], (before, after)
    print("free heap in pieces of 4 KB: %d-%d bytes; names %d -> %d in %d tables"
          % (min(free), max(free), before[1], after[1], after[0]))
