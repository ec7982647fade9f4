"""A point key the heap cannot answer is refused whole, and the board goes on (real MicroPython,
unix port: the board's app over its link, MemoryError raised at the move view's allocations
once or twice, as a long session's fragmented heap raises it). Before, such a key answered
`ERR memory` after its step was already applied (the soak counted a dozen in one move), and a
roll whose plays could not be listed looked like a roll with no legal play."""

import json

from conftest import ROOT, run_micropython

SCRIPT = ROOT / "tests" / "mp" / "move_memory.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"
NO_MEMORY = "out of memory: the key was not taken, press it again"


def test_a_point_key_without_memory_is_refused_whole_and_the_board_goes_on(tmp_path, mpy_lib):
    r = run_micropython(SCRIPT, str(tmp_path), str(PROFILE), heap="256k", lib=mpy_lib,
                        timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    out = json.loads(r.stdout.strip().splitlines()[-1])
    # a checker put down: refused, nothing on flash or in the game; the same key again: the step
    assert out["put_refused"].startswith("NO KEY ") and out["put_refused"].endswith(NO_MEMORY)
    assert out["put_refused_flash"] == [] and out["put_refused_steps"] == 0, out
    assert out["put_again"].startswith("OK KEY "), out
    assert len(out["put_again_flash"]) == 1 and out["put_again_flash"][0].startswith("STEP ")
    # a point picked up: refused, then taken
    assert out["pick_refused"].endswith(NO_MEMORY) and out["pick_again"].startswith("OK KEY ")
    # the roll is taken and on flash; the turn does not pass by itself (no MOVE) while its
    # plays cannot be listed; a point key is refused until they can, then taken
    assert out["roll"] == "OK KEY OK", out
    assert len(out["roll_flash"]) == 1 and out["roll_flash"][0].startswith("ROLL "), out
    assert out["after_ticks_flash"] == out["roll_flash"], out
    assert out["key_refused"].endswith(NO_MEMORY), out
    assert out["key_again"].startswith("OK KEY ") and out["opts"] > 0, out
