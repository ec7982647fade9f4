"""GNU Backgammon itself (Debian's gnubg) as the referee for files: its own matches and money
sessions verify with its final score and re-export byte for byte; a .mat with one altered move
fails at that move; our selfplay matches import into gnubg with no warning, the same score, and
the same Position and Match IDs."""

import json
import os
import random
import re
import subprocess
import sys

import pytest

from bgcore.match import Rules, MATCH
from bgboard import matfile, paths
from bgboard.games import load, play_record, to_mat, to_sgf

try:
    GNUBG = paths.tool("gnubg")
except paths.ToolMissing:
    GNUBG = None


def gnubg(commands, home):
    assert GNUBG, "Debian's gnubg is required (apt-get install gnubg)"
    r = subprocess.run([GNUBG, "-q", "-t"], input="set threads 1\n" + commands, text=True,
                       capture_output=True, timeout=600, env=dict(os.environ, HOME=str(home)))
    return r.stdout + r.stderr


def final_score(out):
    found = re.findall(r"The score \(after \d+ games?\) is: (\S+) (\d+), (\S+) (\d+)", out)
    assert found, out[-2000:]
    return [int(found[-1][1]), int(found[-1][3])]


PLAYERS = """set player 0 gnubg
set player 1 gnubg
set player 0 name Alice
set player 1 name Bob
set player 0 chequerplay evaluation plies 0
set player 1 chequerplay evaluation plies 0
set player 0 cubedecision evaluation plies 0
set player 1 cubedecision evaluation plies 0
"""


@pytest.fixture(scope="module")
def gnubg_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("gnubg")
    files = {}
    for n, seed in ((3, 42), (5, 5), (7, 7)):
        f = d / ("match%d.mat" % n)
        out = gnubg(PLAYERS + "set seed %d\nnew match %d\nexport match mat %s\nsave match %s\n"
                    "show score\n" % (seed, n, f, f.with_suffix(".sgf")), d)
        files[f] = (False, final_score(out))
    f = d / "money.mat"
    out = gnubg(PLAYERS + "set jacoby on\nset automatic game off\nset seed 11\nnew session\n"
                + "new game\n" * 4 + "export match mat %s\nsave match %s\nshow score\n"
                % (f, f.with_suffix(".sgf")), d)
    files[f] = (True, final_score(out))
    return files


def test_gnubgs_sgf_files_read_as_its_mat_files(gnubg_files):
    """GNU Backgammon's own .sgf of each match (analysis and all) replays to its final score,
    position and cube, as the .mat of the same match does."""
    for path, (jacoby, score) in gnubg_files.items():
        sgf = load(path.with_suffix(".sgf"))
        mat = load(path, jacoby=jacoby)
        assert sgf.kind == "sgf" and sgf.replay.match.score == score, path.name
        assert sgf.replay.match.match_id() == mat.replay.match.match_id(), path.name
        assert sgf.replay.match.pos == mat.replay.match.pos, path.name
        assert len(sgf.replay.history) == len(mat.replay.history)


def test_gnubg_files_verify_with_gnubgs_score(gnubg_files):
    cube_actions = 0
    for path, (jacoby, score) in gnubg_files.items():
        text = path.read_text()
        cube_actions += text.count("Doubles =>")
        args = [sys.executable, "-m", "bgboard.cli", "verify", str(path), "--json"]
        if jacoby:
            args.append("--jacoby")
        r = subprocess.run(args, capture_output=True, text=True)
        assert r.returncode == 0, (path.name, r.stdout, r.stderr)
        assert json.loads(r.stdout)["score"] == score, r.stdout
        ld = load(path, jacoby=jacoby)
        assert ld.replay.match.score == score, path.name
    assert cube_actions >= 2


def test_gnubg_files_export_back_byte_for_byte(gnubg_files):
    for path, (jacoby, _) in gnubg_files.items():
        ld = load(path, jacoby=jacoby)
        original = path.read_text()
        date = re.search(r'EventDate "([\d.]+)"', original)
        assert matfile.write(ld.replay, date.group(1) if date else None) == original, path.name


def test_one_altered_move_fails_at_that_move(gnubg_files, tmp_path):
    path = next(p for p in gnubg_files if p.name == "match5.mat")
    lines = path.read_text().splitlines(True)
    # the right-hand player's play on line 3 of game 1: move a checker from a point it lacks
    k = next(i for i, l in enumerate(lines) if l.startswith("  3) "))
    left, right = lines[k][:33], lines[k][33:]
    assert re.match(r"\d\d: \d", right), lines[k]
    dice = right[:4]
    lines[k] = left + dice + "2/1 2/1\n"
    bad = tmp_path / "altered.mat"
    bad.write_text("".join(lines))
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "verify", str(bad), "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert '"error": "game 1 move 3: ' in r.stdout, r.stdout


@pytest.mark.parametrize("length, seed", [(5, 1), (7, 2)])
def test_our_matches_import_into_gnubg(tmp_path, length, seed):
    text = play_record(Rules(MATCH, length), random.Random(seed), ("Ann", "Ben"),
                       start="2026-11-29T10:00:00")
    rec = tmp_path / "m.bgr"
    rec.write_text(text)
    ld = load(rec)
    m = ld.replay.match
    mat = tmp_path / "m.mat"
    mat.write_text(to_mat(ld))
    sgf = tmp_path / "m.sgf"
    sgf.write_text(to_sgf(ld))
    out = gnubg("import mat %s\nshow score\nshow board\n" % mat, tmp_path)
    assert "WARNING" not in out.upper().replace("WARRANTY", ""), out[-3000:]
    assert final_score(out) == m.score
    assert "Position ID: %s" % m.pos.id() in out
    assert "Match ID   : %s" % m.match_id() in out
    out = gnubg("load match %s\nshow score\n" % sgf, tmp_path)
    assert final_score(out) == m.score, out[-2000:]
