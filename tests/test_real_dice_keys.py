"""Real dice keyed in on the board (menu P18), on MicroPython's unix port (tests/mp/app_drive.py):
a half-keyed roll shows in STATE and on the text display and UNDO takes the die back; an opening
tie keyed in says so, as board dice do."""

from conftest import ROOT, run_micropython

from bgboard.vboard import DEFAULT_HEAP

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def drive(data_dir, *script, lib=None):
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED 5", "KEY P18", "KEY OK",
                        *script, heap=DEFAULT_HEAP, lib=lib, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout


def states(out):
    return [dict(w.split("=", 1) for w in ln.split()[1:])
            for ln in out.splitlines() if ln.startswith("STATE ")]


def texts(out):
    return [ln for ln in out.splitlines() if ln.startswith("TEXT ")]


def test_a_half_keyed_roll_shows_and_undoes(tmp_path, mpy_lib):
    out = drive(tmp_path, "KEY P3", "STATE", "SHOW", "KEY OK", "KEY UNDO", "STATE", "SHOW",
                "KEY P5", "KEY P2", "STATE", lib=mpy_lib)
    half, undone, rolled = states(out)[:3]
    assert half["keyed"] == "3" and half["dice"] == "-" and half["phase"] == "opening"
    assert "3 keyed" in texts(out)[0], out
    assert "KEY OK key in the second die: P1-P6 (UNDO takes 3 back)" in out
    assert "KEY UNDO None" in out and "keyed" not in undone and "3 keyed" not in texts(out)[1]
    # the die taken back is not in the roll: 5-2 is
    lines = [ln.rsplit("|", 1)[0] for ln in (tmp_path / rolled["record"]).read_text().splitlines()]
    assert lines[2] == "OPEN 5 2 real", lines


def test_an_opening_tie_keyed_in_says_roll_again(tmp_path, mpy_lib):
    out = drive(tmp_path, "KEY P4", "KEY P4", "SHOW", "STATE", lib=mpy_lib)
    assert "a tie, roll again" in texts(out)[0], out
    st = states(out)[0]
    assert st["phase"] == "opening"
    lines = [ln.rsplit("|", 1)[0] for ln in (tmp_path / st["record"]).read_text().splitlines()]
    assert lines[2] == "OPEN 4 4 real", lines


def test_a_move_keyed_as_one_undoes_as_one(tmp_path, mpy_lib):
    """The person opens with 6-5 (dice keyed in: 6 for player 0, 5 for player 1) and keys
    24/13 as one move (P24, then P13: two steps); one UNDO takes both back, and a move keyed
    step by step still goes back a step at a time."""
    out = drive(tmp_path, "KEY P6", "KEY P5", "KEY P24", "KEY P13", "STATE", "KEY UNDO",
                "STATE", "KEY P24", "KEY P18", "KEY P18", "KEY P13", "KEY UNDO", "STATE",
                lib=mpy_lib)
    made, undone, stepwise = states(out)[:3]
    assert made["phase"] == "move" and made["dice"] == "65" and len(made["steps"].split(",")) == 2
    assert made.get("complete") == "1"
    assert undone["steps"] == "-", out
    assert stepwise["steps"] == "24/18", out
