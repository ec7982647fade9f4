"""The board's application on MicroPython's unix port (compiled to .mpy, as on a board), driven
through its own key handling by tests/mp/app_drive.py: whole games against the level-6 bot under
a 192k heap, records that replay on the laptop to the same state, refused keys that change
nothing, settings and resume from flash."""

import json
import re
import sys

import pytest

from conftest import ROOT, run_micropython

from bgcore.record import replay

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def drive(data_dir, *script, heap="192k", lib=None, seed=12345):
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED %d" % seed, *script, heap=heap,
                        lib=lib, timeout=120)
    return r


def state(out):
    line = [ln for ln in out.splitlines() if ln.startswith("STATE ")][-1]
    return dict(w.split("=", 1) for w in line.split()[1:])


@pytest.mark.parametrize("menu", [("KEY OK",), ("KEY P9", "KEY OK"), ("KEY P10", "KEY OK")],
                         ids=["single", "money", "match"])
def test_whole_game_against_level_6_under_192k(tmp_path, mpy_lib, menu):
    r = drive(tmp_path, *menu, "GAME", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    game = [ln for ln in r.stdout.splitlines() if ln.startswith("GAME ")]
    assert game and game[0].endswith("refused 0"), r.stdout
    peak = int(re.search(r"PEAK (\d+)", r.stdout).group(1))
    assert peak < 192 * 1024
    st = state(r.stdout)
    assert st["players"] == "you,bot:6" and st["phase"] in ("game_over", "match_over")
    # the record on "flash" replays on the laptop to the same end
    text = (tmp_path / st["record"]).read_text()
    rep, info, torn = replay(text, history=False)
    assert torn is None
    assert rep.match.pos.id() == st["pos"] and rep.match.match_id() == st["match"]
    assert "%d-%d" % tuple(rep.match.score) == st["score"]
    print("%s: live heap peak %d bytes of 192k" % (menu, peak))


def test_smallest_heap_for_a_level_6_game(tmp_path, mpy_lib):
    """A figure for the report: the same seeded game at smaller heaps, down to where it fails."""
    ok = None
    for kb in (192, 176, 160, 144, 128):
        d = tmp_path / str(kb)
        d.mkdir()
        r = drive(d, "KEY P9", "KEY OK", "GAME", heap="%dk" % kb, lib=mpy_lib)
        if r.returncode != 0 or "refused 0" not in r.stdout:
            assert kb < 192, r.stderr
            assert "MemoryError" in r.stderr + r.stdout
            break
        ok = kb
    assert ok, "the game needs more than 192k"
    print("a level-6 money game runs with a heap of %dk" % ok)


def test_refused_keys_change_nothing_and_settings_persist(tmp_path, mpy_lib):
    r = drive(tmp_path, "KEY P3", "KEY P10", "KEY P12", "KEY P12", "KEY P16", "KEY P23",
              "KEY OK", "KEY OK", "TICK 3", "STATE", "KEY P1", "KEY P2", "KEY HINT", "STATE",
              lib=mpy_lib)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "KEY P23 not a menu choice" in out
    settings = json.loads((tmp_path / "settings.json").read_text())
    assert (settings["opponent"], settings["mode"], settings["length"], settings["confirm"]) \
        == (3, "match", 7, 1)
    states = [ln for ln in out.splitlines() if ln.startswith("STATE ")]
    assert "players=you,bot:3" in states[0] and "length=7" in states[0]
    # power up again on the same flash: the match resumes where it was
    r2 = drive(tmp_path, "STATE", lib=mpy_lib, seed=999)
    s1, s2 = state(out), state(r2.stdout)
    for k in ("pos", "match", "dice", "record", "steps", "phase"):
        assert s1[k] == s2[k]


def test_torn_last_line_is_cut_off_at_power_up(tmp_path, mpy_lib):
    r = drive(tmp_path, "KEY OK", "KEY OK", "TICK 3", "STATE", lib=mpy_lib)
    st = state(r.stdout)
    path = tmp_path / st["record"]
    good = path.read_bytes()
    path.write_bytes(good + b"STEP 0 13 1")          # a power cut while writing a line
    r2 = drive(tmp_path, "STATE", lib=mpy_lib)
    assert r2.returncode == 0, r2.stderr
    s2 = state(r2.stdout)
    assert (s2["pos"], s2["match"], s2["steps"]) == (st["pos"], st["match"], st["steps"])
    assert path.read_bytes() == good
    # a record altered in the middle cannot be resumed: the board says so and starts clean
    lines = good.decode().splitlines(True)
    lines[2] = lines[2].replace("OPEN", "OPEM")
    path.write_text("".join(lines))
    r3 = drive(tmp_path, "NOTE", "STATE", lib=mpy_lib)
    assert r3.returncode == 0, r3.stderr
    assert "NOTE %s cannot be resumed" % st["record"] in r3.stdout
    assert state(r3.stdout)["view"] == "menu"


def test_a_damaged_record_is_named_on_the_board(tmp_path, mpy_lib):
    r = drive(tmp_path, "KEY OK", "KEY OK", "STATE", lib=mpy_lib)
    path = tmp_path / state(r.stdout)["record"]
    lines = path.read_text().splitlines(True)
    lines[2] = lines[2].replace("OPEN", "OPEM")
    path.write_text("".join(lines))
    r2 = drive(tmp_path, "NOTE", lib=mpy_lib)
    assert "cannot be resumed: integrity check failed" in r2.stdout


def test_real_dice_are_keyed_in_and_marked(tmp_path, mpy_lib):
    r = drive(tmp_path, "KEY P18", "KEY OK", "KEY OK", "KEY P3", "KEY P5", "TICK 5",
              "KEY OK", "KEY P2", "KEY P4", "STATE", lib=mpy_lib)
    assert r.returncode == 0, r.stderr
    assert "KEY OK key in the dice: P1-P6" in r.stdout
    st = state(r.stdout)
    lines = [ln.rsplit("|", 1)[0] for ln in (tmp_path / st["record"]).read_text().splitlines()]
    assert lines[2] == "OPEN 3 5 real"         # player 1 (the bot) opens with 5-3
    assert lines[3].startswith("MOVE 1 ")
    assert lines[4] == "ROLL 0 2 4 real"
    assert st["phase"] == "move" and st["dice"] == "24"
    # the computer's roll is keyed in too: it waits for it
    rep, info, torn = replay((tmp_path / st["record"]).read_text(), history=False)
    assert rep.real_dice


def test_four_buttons_walk_a_cursor_over_the_points():
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))
    from bgapp.input import Input
    inp = Input({"input": {"style": "buttons"}})
    assert inp.key("SELECT") == "P1"
    assert [inp.key("RIGHT") for _ in range(12)] == [None] * 12
    assert inp.key("SELECT") == "P13" and inp.at() == "P13"
    for _ in range(13):
        inp.key("LEFT")
    assert inp.key("SELECT") == "HINT"          # the ring wraps: ... BAR, OFF, DOUBLE, HINT
    assert inp.key("BACK") == "UNDO" and inp.key("OK") == "OK"
    assert Input({"input": {"style": "matrix"}}).key("P7") == "P7"


def test_two_players_key_their_own_sides(tmp_path, mpy_lib):
    """Two people: player 1 presses the same physical points (its point q is P(25-q))."""
    r = drive(tmp_path, "KEY P7", "KEY P9", "KEY OK", "GAME both double", lib=mpy_lib)
    assert r.returncode == 0, r.stderr
    assert [ln for ln in r.stdout.splitlines() if ln.startswith("GAME ")][0].endswith("refused 0")
    st = state(r.stdout)
    assert st["players"] == "player1,player2" and st["phase"] == "game_over"
    text = (tmp_path / st["record"]).read_text()
    rep, info, torn = replay(text, history=False)
    assert rep.match.pos.id() == st["pos"] and torn is None
    moves = [ln.split()[1] for ln in text.splitlines() if ln.startswith("MOVE ")]
    assert "0" in moves and "1" in moves
    assert re.search(r"^DOUBLE [01] 2\|", text, re.M) and re.search(r"^TAKE [01]\|", text, re.M)


def test_the_bot_answers_a_double(tmp_path, mpy_lib):
    r = drive(tmp_path, "KEY P9", "KEY OK", "GAME double", lib=mpy_lib)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / state(r.stdout)["record"]).read_text()
    assert re.search(r"^DOUBLE 0 2\|", text, re.M)
    assert re.search(r"^(TAKE|DROP) 1\|", text, re.M)
    replay(text, history=False)


def test_destinations_single_die_and_combined():
    """What a press on a point shows: its destinations with either die and with both."""
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))
    from bgapp import moves
    from bgcore import Position
    pos = Position.initial()
    plays = pos.plays(3, 1)
    opts, complete = moves.options(bytearray(pos.raw), plays, [])
    assert sorted(opts) == [6, 8, 13, 24] and complete is None
    assert sorted(opts[8]) == [4, 5, 7]                       # 3, 1 and 3+1
    assert sorted(opts[24]) == [20, 21, 23]
    assert opts[13][9] in (((13, 10), (10, 9)), ((13, 12), (12, 9)))
    raw = bytearray(pos.raw)
    moves.step(raw, 8, 5)
    opts, complete = moves.options(raw, plays, [(8, 5)])
    assert complete is None and all(set(d) <= {4, 5, 7, 12, 23} for d in opts.values())
    assert 5 in opts[6] and 7 in opts[8]                     # only the 1 is left
    moves.step(raw, 6, 5)
    opts, complete = moves.options(raw, plays, [(8, 5), (6, 5)])
    assert opts == {} and str(complete) == "8/5 6/5"
    # on the bar: nothing but the entering checker may move; a blocked point is no destination
    barred = Position.from_board([[0, 0, 0, 0, 2, 2] + [0] * 19, [0] * 12 + [3] + [0] * 11 + [1]])
    opts, _ = moves.options(bytearray(barred.raw), barred.plays(6, 3), [])
    assert list(opts) == [25] and sorted(opts[25]) == [16, 22]    # the 6 enters only after
