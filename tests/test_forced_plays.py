"""Auto-play of forced plays (menu P17) on MicroPython's unix port (tests/mp/app_drive.py): with
the setting on, a roll with exactly one legal play is made by the board before any key; with it
off, the board waits for the person's keys."""

import re

from conftest import ROOT, run_micropython

from bgboard.vboard import DEFAULT_HEAP

from bgcore.record import replay

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def game(data_dir, *menu, lib=None):
    # two people, seed 3: a game with many rolls that have exactly one legal play
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED 3", "KEY P7", *menu, "KEY OK",
                        "GAME both", heap=DEFAULT_HEAP, lib=lib, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("GAME ")][0]
    assert line.endswith("refused 0"), r.stdout
    return int(re.search(r"forced (\d+)", line).group(1)), r.stdout


def test_forced_plays_are_made_by_the_board(tmp_path, mpy_lib):
    forced, out = game(tmp_path, lib=mpy_lib)
    assert forced >= 5, out
    # not one of them waited for keys (the drive keys a play in only when the board waits)
    assert "KEYED FORCED" not in out, out
    st = dict(w.split("=", 1) for w in
              [ln for ln in out.splitlines() if ln.startswith("STATE ")][-1].split()[1:])
    rep, info, torn = replay((tmp_path / st["record"]).read_text(), history=False)
    assert torn is None and rep.match.pos.id() == st["pos"] and st["phase"] == "game_over"


def test_with_the_setting_off_the_board_waits_for_the_keys(tmp_path, mpy_lib):
    forced, out = game(tmp_path, "KEY P17", lib=mpy_lib)
    assert forced >= 5 and out.count("KEYED FORCED") == forced, out
