"""A four-button board (the `minimal` profile) played over the link by its four keys alone:
remote KEY lines go through the same input layer as the buttons (cursor, SELECT, BACK, long
presses), on MicroPython's unix port with the compiled firmware (tests/mp/app_drive.py)."""

import re

from conftest import ROOT, run_micropython

from bgboard.vboard import DEFAULT_HEAP
from bgcore.record import replay

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
MINIMAL = ROOT / "hardware" / "profiles" / "minimal.json"
REFERENCE = ROOT / "hardware" / "profiles" / "reference.json"


def drive(data_dir, profile, *script, lib=None):
    # as test_firmware_app: the virtual board's heap, and the game's live peak under 192 KB (where
    # a block lands in a fuller heap must not decide the test)
    r = run_micropython(DRIVE, str(data_dir), str(profile), "SEED 777", *script,
                        heap=DEFAULT_HEAP, lib=lib, timeout=120)
    peak = re.search(r"^PEAK (\d+)", r.stdout, re.M)
    if r.returncode == 0 and peak:
        assert int(peak.group(1)) < 192 * 1024, "live heap peak %s bytes" % peak.group(1)
    return r


def state(out):
    line = [ln for ln in out.splitlines() if ln.startswith("STATE ")][-1]
    return dict(w.split("=", 1) for w in line.split()[1:])


def test_a_whole_money_game_by_the_four_buttons_over_the_link(tmp_path, mpy_lib):
    # menu: the cursor starts on P1; eight RIGHTs reach P9 (money), SELECT picks it, a long
    # SELECT is OK (new game); then the whole game, doubles included, by LEFT/RIGHT/SELECT/BACK
    menu = ["LINE KEY RIGHT"] * 8 + ["LINE KEY SELECT", "STATE", "LINE KEY SELECT long"]
    r = drive(tmp_path, MINIMAL, *menu, "FOUR", "GAME double", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    out = r.stdout
    assert "OK KEY RIGHT" in out and "OK KEY SELECT\n" in out and "OK KEY SELECT long" in out
    assert "NO KEY" not in out.split("FOUR")[0], out
    game = [ln for ln in out.splitlines() if ln.startswith("GAME ")]
    assert game and game[0].endswith("refused 0"), out
    st = state(out)
    assert st["players"] == "you,bot:6" and st["phase"] in ("game_over", "match_over")
    assert int(re.search(r"FOURKEYS (\d+)", out).group(1)) > 50
    text = (tmp_path / st["record"]).read_text()
    assert "money" in text.splitlines()[0] or re.search(r"^DOUBLE 0 2\|", text, re.M), text[:300]
    rep, info, torn = replay(text, history=False)
    assert torn is None and rep.match.pos.id() == st["pos"]


def test_long_back_is_menu_and_back_is_undo_over_the_link(tmp_path, mpy_lib):
    # a game started, a long BACK (MENU) opens the menu, BACK (UNDO) goes back to the game
    r = drive(tmp_path, MINIMAL, "LINE KEY SELECT long", "STATE", "LINE KEY BACK long", "STATE",
              "LINE KEY BACK", "STATE", "LINE KEY SELECT nope", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    out = r.stdout
    assert "OK KEY SELECT long" in out and "OK KEY BACK long" in out and "OK KEY BACK\n" in out
    views = [dict(w.split("=", 1) for w in ln.split()[1:])["view"]
             for ln in out.splitlines() if ln.startswith("STATE ")]
    assert views[0] != "menu" and views[1] == "menu" and views[2] == views[0]
    assert "ERR args KEY takes a key name and, for a long press, long" in out


def test_a_key_without_a_long_meaning_is_a_short_press(tmp_path, mpy_lib):
    """On the reference board (a key per point, no long presses) KEY P9 long is P9."""
    r = drive(tmp_path, REFERENCE, "LINE KEY P9 long", "LINE KEY LEFT", "STATE", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "OK KEY P9 long" in r.stdout
    assert "NO KEY LEFT" in r.stdout
