"""A checker put down with the board's own keys is lit before it is written (the write takes
~60 ms on an RP2040's flash), and nothing else about the record changes: on MicroPython's unix
port, the app's own loop (tests/mp/held_step.py) with hooks that read the record on flash at each
frame and at each `!EV` line. The step is on flash by the end of the loop turn that showed it,
`!EV` never announces an event before it is on flash, a power cut at the frame loses that step
alone (the record replays whole, to the game before it), two keys in one scan are written in
order, and a key over the link is on flash before its answer."""

import json

from conftest import ROOT, run_micropython

SCRIPT = ROOT / "tests" / "mp" / "held_step.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def test_a_board_key_step_is_lit_then_written_and_announced_after(tmp_path, mpy_lib):
    r = run_micropython(SCRIPT, str(tmp_path), str(PROFILE), heap="256k", lib=mpy_lib,
                        timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    out = json.loads(r.stdout.strip().splitlines()[-1])
    step = out["step"]
    # lit first: the frame went out with the step not yet on flash; by the end of that loop
    # turn it is, and only then announced
    assert out["flash_at_frames"] and out["flash_at_frames"][0] == [], out
    assert out["flash_after"] == [step], out
    assert out["announced"] == [[step, True]], out
    # a power cut at the frame: the record is whole and replays to the game before the step
    assert out["cut_at_frame"] == [None, []], out
    assert out["after"][0] is None and len(out["after"][1]) == 1, out
    # two keys in one scan (a checker put down, then UNDO): the step is written before UNDO is
    # handled, UNDO after the frame; each announced once on flash
    two = out["two_keys_flash_after"]
    assert len(two) == 2 and two[0].startswith("STEP ") and two[1].startswith("UNDO "), out
    assert [a[0] for a in out["two_keys_announced"]] == two, out
    assert all(on for _, on in out["two_keys_announced"]), out
    assert out["two_keys_flash_at_frames"][-1] == two[:1], out
    # a key over the link: on flash when press() returns
    assert len(out["link_key_flash"]) == 1 and out["link_key_flash"][0].startswith("STEP "), out
