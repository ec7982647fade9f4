"""What the board says, on MicroPython's unix port (tests/mp/app_drive.py): the result in good
grammar, a refused double with its reason, refusals while moving that are true (a checker on the
bar, DOUBLE after the roll)."""

from conftest import ROOT, run_micropython

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def drive(data_dir, seed, *script, lib=None):
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED %d" % seed, *script,
                        heap="256k", lib=lib, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout


def test_the_person_wins_in_good_grammar(tmp_path, mpy_lib):
    # seed 2: the person, playing level 6's best plays (hint), wins a single (seed 6 did until
    # level 6 looked ahead at four plays: its game now ends in a gammon)
    out = drive(tmp_path, 2, "KEY OK", "GAME best", "SHOW", lib=mpy_lib)
    text = [ln for ln in out.splitlines() if ln.startswith("TEXT ")][-1]
    assert text.startswith("TEXT you win 1 (single)"), out


def test_a_refused_double_says_why(tmp_path, mpy_lib):
    # a single game has no cube; after the roll DOUBLE is too late (not "not a point")
    out = drive(tmp_path / "single", 6, "KEY OK", "KEY OK", "TURN", "KEY DOUBLE", "KEY OK",
                "KEY DOUBLE", lib=mpy_lib)
    assert "KEY DOUBLE no cube in a single game (P9 money, P10 match)" in out, out
    assert "KEY DOUBLE the dice are rolled: double before you roll" in out, out
    # money: the person doubles, the bot takes and owns the cube
    out = drive(tmp_path / "money", 6, "KEY P9", "KEY OK", "KEY OK", "TURN", "KEY DOUBLE",
                "TURN", "STATE", "KEY DOUBLE", lib=mpy_lib)
    assert "owner=1" in out and "KEY DOUBLE bot:6 owns the cube" in out, out
    assert "cannot double now" not in out


def test_with_a_checker_on_the_bar_the_board_says_enter_first(tmp_path, mpy_lib):
    # seed 2: the person is hit several times (seven); each time a point of its own is pressed
    # first
    out = drive(tmp_path, 2, "KEY OK", "GAME bar", lib=mpy_lib)
    said = [ln[len("BARPRESS "):] for ln in out.splitlines() if ln.startswith("BARPRESS ")]
    assert len(said) >= 3 and set(said) == {"enter from the bar first"}, out
