"""The rules against GNU Backgammon (gnubg-nn): for every (position, roll) of a varied corpus,
our set of resulting positions must equal gnubg's, and Position IDs must read and write alike."""

import random

import gnubg_nn as gnubg
import pytest

from bgcore import Position
from bgboard.corpus import corpus

PAIRS = 24000


def key_after(play):
    a = play.after
    return gnubg.key_of_board([list(a[27:52]), list(a[1:26])])


@pytest.fixture(scope="module")
def pairs():
    return corpus(seed=7, n=PAIRS)


def kinds_of(pos):
    """What a position is, seen from the side on roll (several kinds at once)."""
    opp, me = pos.board()
    mine = [p + 1 for p in range(25) if me[p]]                  # 25: the bar
    theirs = [24 - q for q in range(25) if opp[q]]              # in my numbering; their bar 0
    contact = bool(mine and theirs) and min(theirs) < max(mine)
    out = set()
    if me[24]:
        out.add("bar")
    if mine and max(mine) <= 6:
        out.add("bearoff_contact" if contact else "bearoff")
    elif contact:
        out.add("contact")
    if max(me[:24]) >= 6:
        out.add("stack")
    return out


def test_corpus_is_varied(pairs):
    assert len(pairs) >= 20000
    kinds = dict.fromkeys(("contact", "bearoff", "bearoff_contact", "bar", "stack"), 0)
    for pos, _, _ in pairs:
        for kind in kinds_of(pos):
            kinds[kind] += 1
    assert min(kinds.values()) >= 1000, kinds


def test_same_plays_as_gnubg(pairs):
    mismatches = []
    for pos, d1, d2 in pairs:
        ours = [key_after(p) for p in pos.plays(d1, d2)]
        assert len(ours) == len(set(ours)), "a resulting position listed twice"
        theirs = set(gnubg.moves(pos.board(), d1, d2))
        if set(ours) != theirs:
            mismatches.append("%s %d%d: ours %d, gnubg %d" % (pos.id(), d1, d2, len(ours), len(theirs)))
    assert not mismatches, "%d mismatches, first: %s" % (len(mismatches), mismatches[:5])


def test_steps_replay_to_the_same_position(pairs):
    # Each play's steps, applied one by one by hand, lead to the play's resulting position.
    for pos, d1, d2 in pairs[::7]:
        for play in pos.plays(d1, d2):
            me = list(pos.raw[:26])
            them = list(pos.raw[26:])
            for s, t in play.moves:
                me[s] -= 1
                me[t] += 1
                if t and them[25 - t] == 1:
                    them[25 - t] = 0
                    them[25] += 1
                assert me[s] >= 0 and (t == 0 or them[25 - t] == 0)
            assert bytes(me + them) == play.after


def test_position_ids_match_gnubg(pairs):
    for pos, _, _ in pairs[::5]:
        pid = gnubg.position_id(pos.board())
        assert pos.id() == pid
        assert Position.from_id(pid) == pos
        assert [list(x) for x in gnubg.board_from_position_id(pos.id())] == pos.board()


def test_notation_reads_back_as_the_same_play(pairs):
    for pos, d1, d2 in pairs[::9]:
        for play in pos.plays(d1, d2):
            assert pos.parse_play(str(play), d1, d2) == play
            # the .mat spelling: each step on its own, 0 for off, in a shuffled order
            steps = ["%d/%d" % m for m in play.moves]
            random.Random(len(steps)).shuffle(steps)
            assert pos.parse_play(" ".join(steps), d2, d1) == play


def test_game_results_match_gnubg_positions():
    # Play random games to the end; the kind of win follows the loser's checkers.
    rng = random.Random(3)
    kinds = set()
    for _ in range(300):
        pos = Position.initial()
        while not pos.is_over():
            plays = pos.plays(rng.randint(1, 6), rng.randint(1, 6))
            pos = pos.apply(rng.choice(plays) if plays else None)
        winner, kind = pos.result()
        assert winner == 1
        loser = pos.board()[1]
        off = 15 - sum(loser)
        if off:
            assert kind == 1
        elif loser[24] or any(loser[18:24]):
            assert kind == 3
        else:
            assert kind == 2
        kinds.add(kind)
    assert kinds == {1, 2, 3}
