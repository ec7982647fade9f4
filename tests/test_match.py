"""The cube, scores and the Crawford rule, event by event, as a player would check them."""

import pytest

from bgcore.match import (Match, Rules, MATCH, MONEY, NOCUBE, TURN, DOUBLED, GAME_OVER,
                          MATCH_OVER, decode_match_id)


def started(rules, d0=3, d1=1):
    m = Match(rules)
    m.new_game()
    m.opening(d0, d1)
    m.move(m.turn, None if not m.pos.plays(*m.dice) else str(m.pos.plays(*m.dice)[0]))
    return m


def test_doubling_take_and_ownership():
    m = started(Rules(MONEY))
    p = m.turn
    assert m.cube_available(p) and m.cube_available(1 - p) is False
    m.double(p)
    assert m.phase == DOUBLED
    with pytest.raises(ValueError, match="turn"):
        m.take(p)                                    # the doubler cannot take its own double
    m.take(1 - p)
    assert (m.cube, m.owner, m.phase) == (2, 1 - p, TURN)
    with pytest.raises(ValueError, match="owns the cube"):
        m.double(p)                                  # only the owner redoubles
    m.roll(p, 6, 5)
    with pytest.raises(ValueError, match="a play is due"):
        m.double(p)                                  # doubling comes before rolling


def test_drop_pays_the_value_before_the_double():
    m = started(Rules(MONEY))
    p = m.turn
    m.double(p)
    m.take(1 - p)
    m.roll(p, 2, 1)
    m.move(p, str(m.pos.plays(2, 1)[0]))
    q = 1 - p
    m.double(q)                                      # redouble to 4
    m.drop(p)
    assert m.phase == GAME_OVER and m.result == (q, 2, "drop")
    assert m.score[q] == 2


def test_no_cube_game_and_bad_dice():
    m = started(Rules(NOCUBE))
    with pytest.raises(ValueError, match="no cube"):
        m.double(m.turn)
    with pytest.raises(ValueError, match="1 to 6"):
        m.roll(m.turn, 0, 7)


def test_crawford_game_then_post_crawford():
    m = Match(Rules(MATCH, 3))
    m.score = [2, 0]                                  # player 0 has just reached 2 of 3
    m.new_game()
    assert m.crawford
    m.opening(5, 2)
    m.move(0, "13/8 13/11")
    with pytest.raises(ValueError, match="Crawford"):
        m.double(1)
    m.resign(1, 1)
    assert m.score == [3, 0] and m.phase == MATCH_OVER
    m2 = Match(Rules(MATCH, 3))
    m2.score = [2, 1]
    m2.crawford_done = True                          # the Crawford game was played
    m2.new_game()
    assert not m2.crawford
    m2.opening(5, 2)
    m2.move(0, "13/8 13/11")
    m2.double(1)                                     # post-Crawford: the trailer may double


def test_gammon_counts_the_cube_and_jacoby():
    # A won race for player 0 with the opponent still at home: a gammon.
    from bgcore import Position
    from conftest import board
    pos = Position.from_board(board({1: 1}, {6: 15}))
    for jacoby, turned, expect in ((False, False, 2), (True, False, 1), (True, True, 4)):
        m = Match(Rules(MONEY, jacoby=jacoby))
        m.new_game()
        m.opening(3, 1)
        m.pos, m.dice = pos, (2, 1)
        if turned:
            m.cube, m.turned = 2, True
        m.move(0, "1/off")
        assert m.result == (0, expect, "gammon")


def test_beaver_and_automatic_doubles():
    m = Match(Rules(MONEY, beavers=True, auto_doubles=1))
    m.new_game()
    assert m.opening(4, 4) is None and m.cube == 2   # equal opening dice turn the cube
    assert m.opening(3, 3) is None and m.cube == 2   # the limit is one
    m.opening(3, 1)
    m.move(0, "8/5 6/5")
    m.double(1)                                       # centred cube: either side may double
    m.beaver(0)                                       # beaver: takes at 4, redoubles to 8 at once
    assert m.cube == 4
    with pytest.raises(ValueError, match="beaver"):
        m.beaver(1)
    m.take(1)
    assert (m.cube, m.owner) == (8, 0)              # and player 0 keeps the cube
    no_beaver = Match(Rules(MONEY))
    no_beaver.new_game()
    no_beaver.opening(3, 1)
    no_beaver.move(0, "8/5 6/5")
    no_beaver.double(1)
    with pytest.raises(ValueError, match="not allowed"):
        no_beaver.beaver(0)


def test_options_belong_to_money_play():
    with pytest.raises(ValueError, match="money-play"):
        Rules(MATCH, 5, jacoby=True)
    with pytest.raises(ValueError, match="1-99"):
        Rules(MATCH, 0)


def test_match_id_round_trip():
    m = started(Rules(MATCH, 7))
    m.double(m.turn)
    f = decode_match_id(m.match_id())
    assert f["length"] == 7 and f["doubled"] == 1 and f["turn"] == 1 - m.turn
    assert f["owner"] == 3 and f["cube_log2"] == 0 and f["state"] == 1
    with pytest.raises(ValueError):
        decode_match_id("short")
