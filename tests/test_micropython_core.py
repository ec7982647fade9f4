"""The core on real MicroPython (the unix port): it imports under a small heap, and for the same
(position, roll) pairs it lists exactly the plays CPython lists, in the same order, with the same
notation and Position IDs."""

from pathlib import Path

from bgboard.corpus import corpus
from conftest import run_micropython

HERE = Path(__file__).parent
PAIRS = 1200


def expected_line(pos, d1, d2):
    plays = pos.plays(d1, d2)
    return "%s %d %d | %s" % (pos.id(), d1, d2,
                              ";".join("%s=%s" % (p, pos.apply(p).id()) for p in plays))


def test_core_imports_on_micropython(mpy_lib):
    out = run_micropython(HERE / "mp" / "imports.py", heap="64k", lib=mpy_lib)
    assert out.returncode == 0, out.stderr + out.stdout
    assert out.stdout.split() == ["4HPwATDgc/ABMA", "16", "8/5", "6/5", "sGfwATDgc/ABMA",
                                  "ValueError"]


def test_core_imports_from_source_on_micropython():
    # Without mpy-cross the board compiles the sources itself: that needs a larger heap.
    out = run_micropython(HERE / "mp" / "imports.py", heap="192k")
    assert out.returncode == 0, out.stderr + out.stdout
    assert out.stdout.split()[0] == "4HPwATDgc/ABMA"


def test_same_plays_on_micropython_and_cpython(tmp_path, mpy_lib):
    pairs = corpus(seed=11, n=PAIRS)
    src = tmp_path / "pairs.txt"
    src.write_text("".join("%s %d %d\n" % (p.id(), d1, d2) for p, d1, d2 in pairs))
    out = run_micropython(HERE / "mp" / "plays_dump.py", str(src), heap="64k", lib=mpy_lib)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("HEAP ")
    peak = int(lines[-1].split()[1])
    print("MicroPython: most heap in use holding a plays() result: %d bytes (heap 64k)" % peak)
    got = lines[:-1]
    assert len(got) == len(pairs)
    total = 0
    for line, (pos, d1, d2) in zip(got, pairs):
        assert line == expected_line(pos, d1, d2)
        total += line.count("=")
    assert total > 10 * len(pairs)
