"""The rules, case by case, in positions a player would set up to check them."""

import pytest

from bgcore import Position, SINGLE, GAMMON, BACKGAMMON
from bgcore.notation import format_steps
from conftest import board


def pos(me, them):
    return Position.from_board(board(me, them))


def texts(position, d1, d2):
    return sorted(str(p) for p in position.plays(d1, d2))


def test_start_position_and_id():
    p = Position.initial()
    assert p.id() == "4HPwATDgc/ABMA"
    assert p.pips() == (167, 167)
    assert sum(p.checkers(0, i) for i in range(26)) == 15
    assert sum(p.checkers(1, i) for i in range(26)) == 15
    assert Position.from_id("4HPwATDgc/ABMA") == p
    assert hash(Position.from_id(p.id())) == hash(p)


def test_opening_31_makes_the_five_point():
    p = Position.initial()
    play = p.parse_play("8/5 6/5", 3, 1)
    assert play in p.plays(3, 1)
    after = p.apply(play)
    # The opponent is on roll: its view of our new five-point is its 20-point.
    assert after.checkers(1, 5) == 2 and after.checkers(1, 8) == 2 and after.checkers(1, 6) == 4
    assert after.pips() == (167, 163)


def test_blocked_points_and_hits():
    # Our 24-point checker faces an opposing point on 18 and a blot on 20.
    p = pos({24: 1, 6: 14}, {7: 2, 5: 1, 2: 12})     # their 7 = our 18, their 5 = our 20
    plays = texts(p, 6, 4)
    assert not any(s.startswith("24/18") for s in plays)          # 18 is blocked
    assert "24/20*/14" in plays                                  # hit and run on
    play = p.parse_play("24/20*/14", 6, 4)
    after = p.apply(play)
    assert after.checkers(0, 25) == 1                            # the blot went to the bar


def test_entering_comes_first_and_can_fail():
    closed = {i: 2 for i in range(1, 7)}                         # their home board closed
    p = pos({25: 1, 13: 14}, {**closed, 13: 3})
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert p.plays(d1, d2) == []                         # the whole turn is lost
    # Two on the bar, only the 5 enters (their 6-point = our 19 is closed): one step only.
    p = pos({25: 2, 13: 13}, {6: 2, 13: 13})
    assert texts(p, 6, 5) == ["25/20"]
    # One on the bar: it enters before anything else moves, then the other die is free.
    p = pos({25: 1, 13: 14}, {6: 2, 13: 13})
    for play in p.plays(6, 5):
        assert play.moves[0][0] == 25


def test_both_dice_must_be_played_when_possible():
    # 13/7 or 13/8 alone would leave a number unplayed: both must go, with one checker.
    p = pos({13: 1, 3: 14}, {1: 15})
    assert texts(p, 6, 5) == ["13/2"]
    with pytest.raises(ValueError, match="as much of the roll"):
        p.parse_play("13/7", 6, 5)


def test_larger_die_when_only_one_can_be_played():
    # Either 13/7 or 13/8 is possible, but both lead to our 2-point, which is held.
    p = pos({13: 1}, {23: 2, 1: 13})
    assert texts(p, 6, 5) == ["13/7"]
    # When the larger die cannot move at all, the smaller one is played.
    p = pos({13: 1}, {18: 2, 23: 2, 1: 11})                   # our 7 and 2 held
    assert texts(p, 6, 5) == ["13/8"]


def test_doubles_as_many_as_possible():
    p = pos({24: 1}, {9: 2, 2: 13})                              # our 16 held
    assert texts(p, 4, 4) == ["24/20"]
    p = Position.initial()
    for play in p.plays(6, 6):
        assert len(play.moves) == 4


def test_bear_off_rules():
    p = pos({6: 2, 3: 1}, {6: 15})
    assert "6/1 6/off" in texts(p, 6, 5)
    # A larger number bears off from the highest point only when nothing is higher.
    p = pos({3: 2, 1: 1}, {6: 15})
    assert texts(p, 6, 5) == ["3/off(2)"]
    p = pos({6: 1, 4: 1}, {6: 15})
    for play in p.plays(5, 5):
        assert (4, 0) not in play.moves[:1]                     # 6/1 must come first
    # Not while a checker is outside the home board: 8/7 first, then bear off with the ones.
    p = pos({8: 1, 1: 14}, {6: 15})
    plays = p.plays(1, 1)
    assert "8/6 1/off(2)" in texts(p, 1, 1)
    assert all(play.moves[0] == (8, 7) for play in plays)


def test_hit_during_bear_off_must_come_around():
    p = pos({25: 1, 1: 10}, {6: 15})                         # their 6 = our 19: held
    for d1, d2 in ((6, 5), (1, 1), (3, 2)):
        for play in p.plays(d1, d2):
            assert play.moves[0][0] == 25
            assert all(t != 0 for _, t in play.moves)              # nothing bears off


def test_game_end_kinds():
    # We bear off our last checker; the opponent is then on roll and has lost.
    p = Position.from_board(board({1: 1}, {6: 15}))
    end = p.apply(p.plays(2, 1)[0])
    assert end.is_over() and end.winner() == 1
    assert end.result() == (1, GAMMON)                            # they bore off none
    p = Position.from_board(board({1: 1}, {6: 9}))                # they have 6 off
    assert p.apply(p.plays(2, 1)[0]).result() == (1, SINGLE)
    p = Position.from_board(board({1: 1}, {22: 1, 6: 14}))        # their 22 = our home board
    assert p.apply(p.plays(2, 1)[0]).result() == (1, BACKGAMMON)
    p = Position.from_board(board({1: 1}, {25: 1, 6: 14}))        # a checker on the bar
    assert p.apply(p.plays(2, 1)[0]).result() == (1, BACKGAMMON)
    assert Position.initial().result() is None
    assert p.apply(p.plays(2, 1)[0]).plays(3, 1) == []


def test_pips():
    p = pos({25: 1, 6: 2, 1: 3}, {23: 1, 2: 4})
    assert p.pips() == (25 + 12 + 3, 23 + 8)


def test_apply_gives_the_opponent_the_roll_and_refuses_foreign_plays():
    p = Position.initial()
    q = p.apply(p.plays(6, 5)[0])
    assert q.apply(None) == q.swapped()
    with pytest.raises(ValueError):
        q.apply(p.plays(6, 5)[0])


def test_notation_as_gnubg_writes_it():
    assert format_steps(((13, 7), (7, 1)), 1 << 7) == "13/7*/1"
    assert format_steps(((8, 5), (5, 3)), 0) == "8/3"
    assert format_steps(((6, 2), (6, 2), (8, 4), (8, 4)), 0) == "8/4(2) 6/2(2)"
    assert format_steps(((25, 22), (8, 7)), 1 << 22) == "25/22* 8/7"
    assert format_steps(((6, 0), (5, 0)), 0) == "6/off 5/off"
    p = pos({13: 1}, {18: 1, 1: 14})                              # a blot on our 7
    assert texts(p, 6, 6) == ["13/7*/off"]


def test_parse_play_accepts_every_spelling():
    p = Position.initial()
    want = p.parse_play("8/5 6/5", 3, 1)
    for text in ("6/5 8/5", "  8/5   6/5 ", "8/5 6/5", "6/5 8/5"):
        assert p.parse_play(text, 1, 3) is want or p.parse_play(text, 1, 3) == want
    assert str(p.parse_play("24/18(2) 13/7(2)", 6, 6)) == "24/18(2) 13/7(2)"
    assert str(p.parse_play("24/18 24/18 13/7 13/7", 6, 6)) == "24/18(2) 13/7(2)"
    assert str(p.parse_play("13/8 13/7", 6, 5)) == "13/8 13/7"
    assert str(p.parse_play("24/13", 6, 5)) == "24/13"
    assert str(p.parse_play("24/18/13", 6, 5)) == "24/13"
    q = pos({25: 1, 6: 14}, {3: 1, 1: 14})                        # their 3 = our 22
    assert str(q.parse_play("bar/22* 6/5", 3, 1)) == "25/22* 6/5"
    assert str(q.parse_play("25/22 6/5", 3, 1)) == "25/22* 6/5"
    r = pos({6: 2, 3: 1}, {6: 15})
    assert str(r.parse_play("6/0 6/1", 6, 5)) == "6/1 6/off"


@pytest.mark.parametrize("text, why", [
    ("8/4 6/5", "5 pips"),
    ("13/10/6", "moves 7 pips"),
    ("24/19", "5 pips cannot be moved"),
    ("13/x", "not a point"),
    ("13", "from/to"),
    ("5/8", "higher to lower"),
    ("9/8 8/5", "no checker on point 9"),
    ("24/23 8/7", "as much of the roll"),
    ("", "a play is required"),
])
def test_parse_play_explains_refusals(text, why):
    p = Position.initial()
    with pytest.raises(ValueError, match=why):
        p.parse_play(text, 3, 1)


def test_parse_play_blocked_and_bar():
    p = Position.initial()
    with pytest.raises(ValueError, match="blocked"):
        p.parse_play("24/19 13/7", 6, 5)
    q = pos({25: 1, 13: 14}, {6: 2, 13: 13})
    with pytest.raises(ValueError, match="bar must enter first"):
        q.parse_play("13/8 13/7", 6, 5)
    closed = pos({25: 1, 13: 14}, {i: 2 for i in range(1, 8)})
    assert closed.parse_play("", 6, 5) is None
    with pytest.raises(ValueError, match="cannot be played"):
        closed.parse_play("25/20", 6, 5)


@pytest.mark.parametrize("pid, why", [
    ("4HPwATDgc/ABM", "14 characters"),
    ("4HPwATDgc/ABMAA", "14 characters"),
    ("4HPwATDgc/AB-A", "not base64"),
    ("//////////////", "more than 15|runs out"),
    ("/////wAAAAAAAA", "15"),
    (12345, "string"),
])
def test_bad_position_ids(pid, why):
    with pytest.raises(ValueError, match=why):
        Position.from_id(pid)


def test_impossible_boards_are_refused():
    with pytest.raises(ValueError, match="16 checkers"):
        Position.from_board(board({6: 16}, {}))
    with pytest.raises(ValueError, match="same point"):
        Position.from_board(board({6: 1}, {19: 1}))


@pytest.mark.parametrize("d1, d2", [(0, 3), (7, 1), (3, -1), ("3", 1), (2.0, 1)])
def test_dice_outside_one_to_six(d1, d2):
    with pytest.raises(ValueError, match="1 to 6"):
        Position.initial().plays(d1, d2)
