"""Resigning and the bot's beaver on the board, by keys on MicroPython's unix port
(tests/mp/app_drive.py): a person offers a resignation with RESIGN and the bot or the other person
answers it; the bot resigns a lost game when the menu's HINT setting is on; the bot beavers a
double it is clearly the favourite against. Each record is checked the way a user would: `bgboard
verify` replays it, and its .mat/.sgf exports read back with the same score. The dice come from
fixed seeds: every run plays the same games."""

import json
import subprocess
import sys

from conftest import ROOT, run_micropython

DRIVE = ROOT / "tests" / "mp" / "app_drive.py"
PROFILE = ROOT / "hardware" / "profiles" / "reference.json"


def drive(data_dir, seed, *script, lib=None):
    r = run_micropython(DRIVE, str(data_dir), str(PROFILE), "SEED %d" % seed, *script,
                        heap="256k", lib=lib, timeout=300)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout


def record(data_dir):
    recs = sorted(data_dir.rglob("*.bgr"))
    assert len(recs) == 1, recs
    return recs[0]


def events(path):
    return [ln.rsplit("|", 1)[0] for ln in path.read_text().splitlines()]


def bgboard(*args):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


def verified_score(path):
    r = bgboard("verify", path, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["ok"], out
    return out["score"]


def exports_agree(path, formats=("mat", "sgf")):
    """The record verifies, and each export reads back with the same score."""
    score = verified_score(path)
    for fmt in formats:
        out = path.with_suffix("." + fmt)
        r = bgboard("export", path, "--format", fmt, "-o", out)
        assert r.returncode == 0, r.stderr
        assert verified_score(out) == score, (fmt, out.read_text())
    return score


def states(out):
    return [ln for ln in out.splitlines() if ln.startswith("STATE ")]


def test_a_person_resigns_a_gammon_and_the_bot_accepts(tmp_path, mpy_lib):
    # money play; the bot wins the opening roll (seed 6) and the person is on roll: RESIGN
    # offers a single, RESIGN again a gammon, OK offers it
    out = drive(tmp_path, 6, "KEY P9", "KEY OK", "KEY OK", "TURN", "KEY RESIGN", "STATE", "SHOW",
                "KEY RESIGN", "STATE", "KEY OK", "STATE", lib=mpy_lib)
    st = states(out)
    assert "resign=0,1,choosing" in st[0] and "resign=0,2,choosing" in st[1], out
    assert "TEXT you resign a single (1 pt)|OK offers, DOUBLE more" in out, out
    assert "phase=game_over" in st[2] and "score=0-2" in st[2] and "resign=" not in st[2], out
    path = record(tmp_path)
    ev = events(path)
    assert ev[-2:] == ["RESIGN 0 2", "END 1 2 resign"], ev
    assert exports_agree(path) == [0, 2]


def test_two_people_refuse_then_accept_a_resignation(tmp_path, mpy_lib):
    # two players, a 3-point match: player 0 offers a single, player 1 refuses (UNDO) and
    # nothing is recorded; UNDO while choosing withdraws; then a gammon offer, made from the
    # menu (MENU, OFF: as a board without a RESIGN key does), is accepted (OK)
    out = drive(tmp_path, 6, "KEY P7", "KEY P10", "KEY P11", "KEY P11", "KEY OK", "KEY OK",
                "TURN", "KEY RESIGN", "KEY OK", "STATE", "KEY UNDO", "STATE", "SHOW",
                "KEY RESIGN", "KEY UNDO", "STATE", "KEY MENU", "KEY OFF", "KEY DOUBLE",
                "KEY OK", "STATE", "KEY OK", "STATE", lib=mpy_lib)
    st = states(out)
    p = st[0].split(" turn=")[1][0]              # whoever is on roll offers
    assert "resign=%s,1,offered" % p in st[0] and "wait=player" in st[0], out
    assert "phase=turn" in st[1] and "resign=" not in st[1], out
    assert "resignation refused: play on" in out, out
    assert "resign=" not in st[2], out
    assert "resign=%s,2,offered" % p in st[3], out
    assert "phase=match_over" in st[4] or "phase=game_over" in st[4], out
    path = record(tmp_path)
    ev = events(path)
    assert [e for e in ev if e.startswith("RESIGN")] == ["RESIGN %s 2" % p], ev
    want = [0, 0]
    want[1 - int(p)] = 2
    assert ev[ev.index("RESIGN %s 2" % p) + 1] == "END %d 2 resign" % (1 - int(p)), ev
    assert exports_agree(path) == want


def test_the_bot_resigns_a_lost_race_when_the_setting_is_on(tmp_path, mpy_lib):
    # seed 21: the person (level 6's best plays) wins the race; with HINT in the menu (the
    # setting) the bot offers a single, which the person accepts with OK
    out = drive(tmp_path / "on", 21, "KEY HINT", "SHOW", "KEY P9", "KEY OK", "GAME best",
                lib=mpy_lib)
    assert "bot-resigns" in out, out
    path = record(tmp_path / "on")
    ev = events(path)
    # a single at the cube's value (the bots' cube play decides whether it was turned)
    cube = max([int(e.split()[2]) for e in ev if e.startswith("DOUBLE")] + [1])
    assert ev[-2:] == ["RESIGN 1 1", "END 0 %d resign" % cube], ev
    assert exports_agree(path) == [cube, 0]
    # the same dice without the setting: the game is played out, the bot never resigns
    drive(tmp_path / "off", 21, "KEY P9", "KEY OK", "GAME best", lib=mpy_lib)
    ev = events(record(tmp_path / "off"))
    assert not [e for e in ev if e.startswith("RESIGN")] and ev[-1].startswith("END 0 "), ev


def test_the_bot_beavers_a_double_it_is_the_favourite_against(tmp_path, mpy_lib):
    # seed 1: the person (poor plays, doubling at every chance) doubles; with beavers on (P14)
    # the bot beavers and the person takes the beaver
    drive(tmp_path / "on", 1, "KEY P9", "KEY P14", "KEY OK", "GAME double", lib=mpy_lib)
    path = record(tmp_path / "on")
    ev = events(path)
    first = [e for e in ev if e.split()[0] in ("DOUBLE", "BEAVER", "TAKE", "DROP")][:3]
    assert first == ["DOUBLE 0 2", "BEAVER 1 2", "TAKE 0"], ev
    exports_agree(path, ("sgf",))       # a .mat cannot carry beavers
    # beavers off: the same double is answered by a take or a drop
    drive(tmp_path / "off", 1, "KEY P9", "KEY OK", "GAME double", lib=mpy_lib)
    ev = events(record(tmp_path / "off"))
    assert not [e for e in ev if e.startswith("BEAVER")], ev
