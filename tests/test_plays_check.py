"""Checking one play without the roll's whole play list (Position.plays_ending, used by
notation's parse_play and so by every record's MOVE line): for a corpus of positions and rolls,
every legal play reads back from its notation as itself, plays_ending gives exactly the plays of
the whole list that end alike, and the plays' records are byte for byte the same on CPython and
on MicroPython."""

import subprocess
import sys

from bgboard.corpus import corpus
from conftest import FIRMWARE_LIB, ROOT, run_micropython

SCRIPT = ROOT / "tests" / "mp" / "plays_check.py"


def test_plays_ending_matches_the_whole_list_on_every_interpreter(tmp_path, mpy_lib):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("".join("%s %d %d\n" % (p.id(), d1, d2)
                             for p, d1, d2 in corpus(seed=13, n=240)))
    cpy = subprocess.run([sys.executable, str(SCRIPT), str(pairs)], capture_output=True,
                         text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=300)
    assert cpy.returncode == 0, cpy.stderr[-2000:]
    mp = run_micropython(SCRIPT, str(pairs), lib=mpy_lib, heap="192k")
    assert mp.returncode == 0, mp.stderr[-2000:]
    count = int(cpy.stdout.split()[0])
    assert count > 2000
    assert mp.stdout == cpy.stdout


def test_checking_a_double_holds_a_record_not_the_list():
    """A 1-1 with hundreds of plays: the play is found among a chunk of records."""
    from bgcore import Position
    from conftest import board
    pos = Position.from_board(board({24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1,
                                     16: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1},
                                    {16: 5, 18: 5, 20: 5}))
    plays = pos.plays(1, 1)
    assert len(plays) > 100
    play = plays[len(plays) // 2]
    ending, legal = pos.plays_ending(1, 1, play._key()[:13])
    assert legal and play in ending
    assert len(ending._f.chunks) == 1
    assert pos.parse_play(str(play), 1, 1) == play
