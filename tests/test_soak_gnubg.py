"""`bgboard soak` loads the exports of the records it pulled into GNU Backgammon (Debian's
gnubg, headless; bgboard.soak.gnubg_check): a record's .mat and .sgf load without a warning and
show its score; a .mat with an illegal move, or a score that is not the record's, is named as a
failure in one line."""

import random

import pytest

from bgboard import paths
from bgboard.games import load, play_record, to_mat, to_sgf
from bgboard.soak import gnubg_check
from bgcore.match import MATCH, MONEY, Rules

try:
    GNUBG = paths.tool("gnubg")
except paths.ToolMissing:
    GNUBG = None


@pytest.fixture
def gnubg_dir(tmp_path):
    assert GNUBG, "Debian's gnubg is required (apt-get install gnubg)"
    (tmp_path / "home").mkdir()
    return tmp_path


@pytest.mark.parametrize("rules", [Rules(MATCH, 5), Rules(MONEY, jacoby=True)],
                         ids=["match", "money"])
def test_a_records_exports_load_into_gnubg_with_its_score(gnubg_dir, rules):
    rec = gnubg_dir / "r.bgr"
    rec.write_text(play_record(rules, random.Random(3), ("Ann", "Ben"), games=3,
                                 level=1))
    ld = load(rec)
    score = ld.replay.match.score
    assert gnubg_check(GNUBG, gnubg_dir, "r", to_mat(ld), "mat", score) is None
    assert gnubg_check(GNUBG, gnubg_dir, "r", to_sgf(ld), "sgf", score) is None
    wrong = [score[0] + 1, score[1]]
    assert gnubg_check(GNUBG, gnubg_dir, "r", to_mat(ld), "mat", wrong) \
        == "gnubg shows the score %s, the record %s" % (score, wrong)


def test_a_mat_with_an_illegal_move_is_a_failure(gnubg_dir):
    rec = gnubg_dir / "r.bgr"
    rec.write_text(play_record(Rules(MATCH, 5), random.Random(3), ("Ann", "Ben"), level=1))
    ld = load(rec)
    lines = to_mat(ld).splitlines(True)
    # the right-hand player's play on line 3 of game 1: from a point it has no checker on
    k = next(i for i, ln in enumerate(lines) if ln.startswith("  3) "))
    lines[k] = lines[k][:33] + lines[k][33:37] + "2/1 2/1\n"
    why = gnubg_check(GNUBG, gnubg_dir, "bad", "".join(lines), "mat", ld.replay.match.score)
    assert why is not None and "Invalid move" in why, why


def test_a_no_cube_gammon_is_loaded_with_the_setting_export_names(gnubg_dir):
    """Found by the short soak: a no-cube game won with a backgammon showed 1 point in gnubg,
    3 on the board - the soak imported the .mat under gnubg's default Jacoby rule, not with the
    setting `bgboard export` names for a money or no-cube .mat (`set jacoby off`)."""
    from bgboard.games import gnubg_setting
    from bgcore.match import NOCUBE
    rec = gnubg_dir / "r.bgr"
    rec.write_text(play_record(Rules(NOCUBE), random.Random(0), ("Ann", "Ben"), level=1))
    ld = load(rec)
    score = ld.replay.match.score
    assert sorted(score) == [0, 2]                  # a gammon: 2 points without the Jacoby rule
    assert gnubg_setting(ld) == "set jacoby off"
    assert gnubg_check(GNUBG, gnubg_dir, "r", to_mat(ld), "mat", score, gnubg_setting(ld)) \
        is None
    # under gnubg's own default (the Jacoby rule on) the gammon counts 1
    assert "gnubg shows the score" in gnubg_check(GNUBG, gnubg_dir, "r", to_mat(ld), "mat", score)
