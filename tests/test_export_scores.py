"""Exports score in GNU Backgammon (Debian's gnubg, headless) exactly as on the board: a no-cube
game won by a gammon or a backgammon, as .mat (imported with the gnubg setting `export` names)
and as .sgf (which carries the rules); a bot against itself gets two names; a game a .mat cannot
carry (a beaver, an automatic double) is refused as .mat and scores right as .sgf. Also the
one-line answers of `export` about its output and about archive names two boards share."""

import random
import subprocess
import sys

import pytest

from bgcore.match import Rules, MONEY, NOCUBE
from bgcore.record import Replay, Writer
from bgboard.games import play_record

from test_gnubg_files import final_score, gnubg


def export(*args, env=None):
    return subprocess.run([sys.executable, "-m", "bgboard.cli", "export"] + [str(a) for a in args],
                          capture_output=True, text=True, env=env)


def record(rules, events, players=("Ann", "Ben")):
    """A native record of EVENTS (ended by the replay's own result)."""
    w = Writer()
    out = [w.header(rules, players, board="host", fw="test", start="2026-11-30T10:00:00")]
    rp = Replay(rules, players)
    for e in events:
        rp.event(e.split())
        out.append(w.line(e))
    winner, points, how = rp.match.result
    out.append(w.line("END %d %d %s" % (winner, points, how)))
    return "".join(out)


# level-1 bots against themselves; the seeds give the result named (checked below)
@pytest.mark.parametrize("seed, how, points", [(2, "gammon", 2), (17, "backgammon", 3)])
def test_nocube_gammons_score_in_gnubg_as_on_the_board(tmp_path, seed, how, points):
    rec = tmp_path / "game.bgr"
    rec.write_text(play_record(Rules(NOCUBE), random.Random(seed), ("bot:6", "bot:6"), level=1))
    assert ("END 0 %d %s" % (points, how)) in rec.read_text()
    mat, sgf = tmp_path / "game.mat", tmp_path / "game.sgf"

    r = export(rec, "--format", "mat", "-o", mat)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("bgboard export: wrote %s (.mat): " % mat), r.stderr
    assert "score %d-0" % points in lines[0]
    setting = [l for l in lines if "GNU Backgammon" in l]
    assert len(setting) == 1 and "`set jacoby off`" in setting[0], r.stderr
    r = export(rec, "--format", "sgf", "-o", sgf)
    assert r.returncode == 0, r.stderr
    assert not [l for l in r.stderr.splitlines() if "set jacoby" in l]   # .sgf says it itself

    # .mat with the setting export named: the board's score, two names
    out = gnubg("set jacoby off\nimport mat %s\nshow score\n" % mat, tmp_path)
    assert final_score(out) == [points, 0], out[-1500:]
    assert "is: bot6 %d, bot6b 0" % points in out
    # without it gnubg applies its default Jacoby rule: why export names the setting
    assert final_score(gnubg("import mat %s\nshow score\n" % mat, tmp_path)) == [1, 0]
    # .sgf carries the rules: the board's score whatever gnubg's own setting
    out = gnubg("set jacoby on\nload match %s\nshow score\n" % sgf, tmp_path)
    assert final_score(out) == [points, 0], out[-1500:]
    assert "is: bot:6 %d, bot:6b 0" % points in out


def test_beaver_is_refused_as_mat_and_scores_as_sgf(tmp_path):
    rec = tmp_path / "beaver.bgr"
    rec.write_text(record(Rules(MONEY, beavers=True), [
        "GAME 1", "OPEN 3 1", "MOVE 0 8/5 6/5", "DOUBLE 1", "BEAVER 0", "TAKE 1", "RESIGN 1 1"]))
    out = tmp_path / "beaver.mat"
    r = export(rec, "--format", "mat", "-o", out)
    assert r.returncode == 1 and not out.exists()
    assert r.stderr.strip().splitlines() == [
        "bgboard export: a .mat cannot carry a beaver; export it as .sgf (--format sgf), "
        "which GNU Backgammon loads with the board's score"]
    sgf = tmp_path / "beaver.sgf"
    assert export(rec, "--format", "sgf", "-o", sgf).returncode == 0
    assert final_score(gnubg("load match %s\nshow score\n" % sgf, tmp_path)) == [4, 0]


def test_automatic_double_is_refused_as_mat_and_scores_as_sgf(tmp_path):
    rec = tmp_path / "auto.bgr"
    rec.write_text(play_record(Rules(MONEY, auto_doubles=2), random.Random(5), ("Ann", "Ben"),
                               level=1))
    text = rec.read_text()
    assert any("OPEN %d %d" % (d, d) in text for d in range(1, 7))
    # what the game came to (the bots' cube play decides it): the exports must score the same
    end = [ln.split("|")[0].split() for ln in text.splitlines() if ln.startswith("END ")][0]
    winner, points = int(end[1]), int(end[2])
    score = [points, 0] if winner == 0 else [0, points]
    r = export(rec, "--format", "mat")
    assert r.returncode == 1 and r.stdout == ""
    assert "a .mat cannot carry an automatic double" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    sgf = tmp_path / "auto.sgf"
    assert export(rec, "--format", "sgf", "-o", sgf).returncode == 0
    assert "CV[2]" in sgf.read_text()
    assert final_score(gnubg("load match %s\nshow score\n" % sgf, tmp_path)) == score
    # and bgboard reads its own .sgf and JSON back to the same score
    js = tmp_path / "auto.json"
    assert export(rec, "--format", "json", "-o", js).returncode == 0
    for f in (sgf, js):
        r = subprocess.run([sys.executable, "-m", "bgboard.cli", "verify", str(f)],
                           capture_output=True, text=True)
        assert r.returncode == 0 and "score %d-%d" % tuple(score) in r.stdout, \
            r.stdout + r.stderr


def test_export_output_errors_are_one_line(tmp_path):
    rec = tmp_path / "g.bgr"
    rec.write_text(play_record(Rules(NOCUBE), random.Random(2), ("Ann", "Ben"), level=1))
    for target, why in ((tmp_path / "missing" / "g.mat", "No such file or directory"),
                        (tmp_path, "is a folder")):
        r = export(rec, "--format", "mat", "-o", target)
        assert r.returncode == 1, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and why in lines[0] and str(target) in lines[0], r.stderr
    r = export(rec, "--format", "json")
    assert r.returncode == 0 and r.stdout.startswith("{")
    assert r.stderr.strip().splitlines() == [
        "bgboard export: wrote standard output (.json): Ann vs Ben, games without cube: "
        "1 game(s), score 2-0 (finished)"]


def test_a_record_name_two_boards_share_names_both(tmp_path):
    import os
    archive = tmp_path / "data" / "bgboard" / "archive"
    for board, seed in (("E6614103E7", 1), ("E6614104A1", 17)):
        (archive / board).mkdir(parents=True)
        (archive / board / "0001.bgr").write_text(
            play_record(Rules(NOCUBE), random.Random(seed), ("Ann", "Ben"), level=1))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "export", "0001.bgr", "--format",
                        "sgf"], capture_output=True, text=True, env=env, cwd=cwd)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "bgboard export: 0001.bgr: in the archive of 2 boards: give one of "
        "E6614103E7/0001.bgr, E6614104A1/0001.bgr"]
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "export", "E6614104A1/0001.bgr",
                        "--format", "sgf"], capture_output=True, text=True, env=env, cwd=cwd)
    assert r.returncode == 0 and "RE[W+3]" in r.stdout, r.stderr


def test_export_into_a_closed_pipe_is_quiet(tmp_path):
    """`bgboard export ... | head`: the reader went away; no traceback."""
    import os
    rec = tmp_path / "g.bgr"
    rec.write_text(play_record(Rules(NOCUBE), random.Random(1), ("Ann", "Ben"), level=1))
    r, w = os.pipe()
    os.close(r)                         # the reader is gone before export writes
    try:
        p = subprocess.run([sys.executable, "-m", "bgboard.cli", "export", str(rec), "--format",
                            "sgf"], stdout=w, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(w)
    assert p.returncode == 0 and p.stderr == "", p.stderr
