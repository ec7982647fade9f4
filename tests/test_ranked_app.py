"""Ranked games in the board's application on MicroPython's unix port (compiled to .mpy, run in
the virtual board's heap, the live peak held under 192 KB), driven by tests/mp/app_drive.py: what a ranked game costs in heap and time against the
same game unranked (figures printed), and the name entry by the four-button scheme."""

import json
import re
import time

from conftest import ROOT, run_micropython

from bgboard.ranked import verify_ranked
from bgboard.vboard import DEFAULT_HEAP

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"
# A N N, OK, N Z, OK; a tick in the entry and one in the best-wins view count in the peak
NAME = ("KEY P1", "KEY P14", "KEY P14", "TICK 1", "KEY OK", "KEY P14", "KEY OFF", "KEY OK",
        "TICK 1")


def drive(data_dir, *script, seed=7, lib=None):
    t0 = time.perf_counter()
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED %d" % seed, *script,
                        heap=DEFAULT_HEAP, lib=lib, timeout=180)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout, time.perf_counter() - t0


def state(out, which=-1):
    line = [ln for ln in out.splitlines() if ln.startswith("STATE ")][which]
    return dict(w.split("=", 1) for w in line.split()[1:])


def test_four_buttons_type_a_name():
    # LEFT/RIGHT walk the cursor over the same keys, SELECT types the one under it, BACK is UNDO
    import sys
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))
    from bgapp.input import Input
    from bgapp.naming import Entry
    prof = json.loads((ROOT / "hardware" / "profiles" / "minimal.json").read_text())
    assert prof["input"]["style"] == "buttons"
    inp = Input(prof)
    e = Entry()

    def press(*names):
        for n in names:
            k = inp.key(n)
            if k:
                assert e.key(k) is None, (n, k)

    press("SELECT", "RIGHT", "SELECT")                  # P1: A, P2: B
    press("LEFT", "LEFT", "SELECT")                     # round the ring to HINT: a space
    assert e.text == "AB " and inp.at() == "HINT"
    press("LEFT", "SELECT")                             # DOUBLE: the digits page
    press("RIGHT", "RIGHT", "RIGHT", "RIGHT", "SELECT")  # HINT, P1, P2, P3: 2
    assert e.text == "AB 2" and e.page == 1
    press("BACK")                                       # UNDO
    assert e.text == "AB "


def test_what_a_ranked_game_costs_in_heap_and_time(tmp_path, mpy_lib):
    """The same person (the best play each turn) against the level-1 bot, ranked and not, for
    three seeds: both keep their live peak under 192 KB plus the firmware's names (which the
    board interns at power-up, bgnames: 18 KB more on the unix port than such a game meets by
    itself; measured 183,392 bytes before, 201,792 with them); the figures are printed (a
    benchmark, not a limit)."""
    rows = []
    for seed in (1, 2, 3):
        plain, rk = tmp_path / ("p%d" % seed), tmp_path / ("r%d" % seed)
        plain.mkdir()
        rk.mkdir()
        out_p, t_p = drive(plain, "KEY P1", "KEY OK", "GAME best", seed=seed, lib=mpy_lib)
        # the ranked game's dice come from the board's randomness: the bot wins some of them,
        # and then the name keys below start the next game, so the record is the one named
        # right after the game
        out_r, t_r = drive(rk, "KEY P1", "KEY P21", "KEY OK", "GAME best", "STATE", *NAME,
                           "STATE", seed=seed, lib=mpy_lib)
        peak_p = int(re.search(r"PEAK (\d+)", out_p).group(1))
        peak_r = int(re.search(r"PEAK (\d+)", out_r).group(1))
        assert peak_r < (192 + 24) * 1024
        st = state(out_r)
        res = verify_ranked((rk / state(out_r, 0)["record"]).read_text())
        assert res.ok, res.error
        won = res.points > 0
        if won:
            assert st["view"] == "best" and res.name == "ANN" and res.country == "NZ"
            assert "ANN" in (rk / "best.txt").read_text()
        rows.append((seed, peak_p, peak_r, t_p, t_r, won))
    print()
    for seed, pp, pr, tp, tr, won in rows:
        print("seed %d: live heap peak %d -> %d bytes ranked (+%d%s); run %.2f s -> %.2f s"
              % (seed, pp, pr, pr - pp, ", with the name entry" if won else "", tp, tr))


def test_a_power_cut_between_the_end_and_the_reveal_is_completed_at_power_up(tmp_path, mpy_lib):
    # the game starts (its seed kept in /ranked/game), then is played to its end in a second
    # power-up; the record is then cut back to its END line, as a power cut right after it
    # leaves it, with the kept seed as it was then
    data = tmp_path / "data"          # the board's /data; its /ranked is tmp_path / "ranked"
    data.mkdir()
    out, _ = drive(data, "KEY P1", "KEY P21", "KEY OK", "TICK 2", lib=mpy_lib)
    kept = (tmp_path / "ranked" / "game").read_text()
    for seed in (11, 12, 13, 14, 15, 16):
        out, _ = drive(data, "GAME best", "STATE", seed=seed, lib=mpy_lib)
        st = state(out)
        if st["view"] == "name":
            break
        # lost: another game, its dice from another seed of the board's randomness
        out, _ = drive(data, "KEY OK", "KEY OK", "TICK 2", seed=seed, lib=mpy_lib)
        kept = (tmp_path / "ranked" / "game").read_text()
    assert st["view"] == "name", "no win in six games"
    path = data / st["record"]
    lines = path.read_text().splitlines(True)
    end = [i for i, ln in enumerate(lines) if ln.startswith("END ")][0]
    assert lines[end + 1].startswith("SEED ")
    path.write_text("".join(lines[:end + 1]))
    (tmp_path / "ranked" / "game").write_text(kept)
    out, _ = drive(data, "STATE", lib=mpy_lib)
    st = state(out)
    assert st["view"] == "name"
    again = path.read_text().splitlines(True)
    assert again[:end + 1] == lines[:end + 1] and again[end + 1] == lines[end + 1]
    res = verify_ranked(path.read_text())
    assert res.ok and res.points > 0 and res.name is None, res.error


def test_a_ranked_game_never_starts_with_the_tutor_on(tmp_path, mpy_lib):
    # found by `bgboard soak`: with ranked games and the tutor both turned on in the menu after
    # a game ended, OK on the game-over screen started a ranked game with TUTOR lines in it
    # a 1-point match (P10, length down to 1) played out, then ranked and the tutor turned on
    out, _ = drive(tmp_path, "KEY P1", "KEY P10", *["KEY P11"] * 5, "KEY OK", "GAME best",
                   "KEY MENU", "KEY P21", "KEY P23", "KEY MENU", "STATE", "KEY OK", "STATE",
                   lib=mpy_lib)
    said = [ln for ln in out.splitlines() if ln.startswith("KEY OK ")][-1]
    assert said == "KEY OK a ranked game is played without the tutor: P23 until it is off", out
    before, after = state(out, -2), state(out, -1)
    assert after["record"] == before["record"] and after["settings"].startswith("ranked,")
    for rec in tmp_path.glob("*.bgr"):
        text = rec.read_text()
        assert not ("ranked=1" in text.splitlines()[0] and "\nTUTOR " in text), rec.name
