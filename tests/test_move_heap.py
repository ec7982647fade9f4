"""A roll with hundreds of plays keyed in on a fragmented heap (real MicroPython, unix port).

The soak's third board once answered a dozen point keys of one move with `ERR memory`: the move
view asked the heap for one block the size of the whole roll's packed plays (a 1-1 of 748 plays:
8 KB) and a long session's heap, much of it free, had no such block left. The move view's
buffers are now small (bgapp.moves: at most 512 bytes each): with the heap's free space in
pieces of about 1 KB, every step of several plays of that 1-1 is narrowed, and every point
that may be picked up gets its destinations."""

from conftest import ROOT, run_micropython

SCRIPT = ROOT / "tests" / "mp" / "moves_heap.py"


def test_a_748_play_double_keyed_in_on_a_fragmented_heap(mpy_lib):
    r = run_micropython(SCRIPT, "1024", lib=mpy_lib, heap="256k", timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    assert lines[0] == "plays 748"
    assert lines[1].startswith("ok "), r.stdout     # not "memory pack" (one 8 KB block)
    assert int(lines[1].split()[1]) > 100           # destinations worked out
