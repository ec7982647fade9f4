"""Seeded sets of (position, roll) pairs of every kind the rules must handle: ordinary contact
play, positions after wild random play, bear-offs with and without contact, checkers on the bar
against closed boards, tall stacks. Used by the rules tests and `bgboard bench rules`; the same
seed always gives the same corpus."""

import random

from bgcore import Position
from bgboard import heuristic

KINDS = ("contact", "random", "bearoff", "bearoff_contact", "bar", "stack")


def play_game(rng, choose="random", max_turns=400):
    """Positions met in one game from the start, each with its roll: a list of (pos, d1, d2)."""
    pos = Position.initial()
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    out = []
    for _ in range(max_turns):
        if pos.is_over():
            break
        out.append((pos, d1, d2))
        plays = pos.plays(d1, d2)
        if not plays:
            play = None
        elif choose == "random":
            play = rng.choice(plays)
        else:
            play = heuristic.choose(pos, d1, d2)
        pos = pos.apply(play)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    return out


def _place(rng, counts, points, n):
    for _ in range(n):
        counts[rng.choice(points)] += 1


def bearoff_position(rng, contact):
    me = [0] * 25
    them = [0] * 25
    _place(rng, me, list(range(0, 6)), 15 - rng.randint(0, 12))
    if contact:
        # Opposing checkers still in our home board or on the bar: hits can happen.
        open_pts = [i for i in range(6, 25) if i == 24 or not me[23 - i]]
        _place(rng, them, open_pts, rng.randint(1, 15))
    else:
        _place(rng, them, list(range(0, 6)), rng.randint(1, 15))
    return Position.from_board([them, me])


def bar_position(rng):
    me = [0] * 25
    them = [0] * 25
    me[24] = rng.randint(1, 4)
    closed = rng.sample(range(18, 24), rng.randint(2, 6))   # our entry points = their home
    left = 15
    for i in closed:
        them[23 - i] = 2
        left -= 2
    _place(rng, them, list(range(6, 24)), rng.randint(0, left))
    rest = 15 - me[24]
    pts = [i for i in range(0, 24) if not them[23 - i]]
    _place(rng, me, pts, rest)
    return Position.from_board([them, me])


def stack_position(rng):
    me = [0] * 25
    them = [0] * 25
    tall = rng.randint(6, 15)
    me[rng.randint(0, 23)] = tall
    pts = [i for i in range(24) if not me[i]]
    _place(rng, me, pts, 15 - tall)
    free = [i for i in range(24) if not me[23 - i]]
    tall2 = rng.randint(2, 15)
    them[rng.choice(free)] = tall2
    _place(rng, them, free + [24], 15 - tall2)
    return Position.from_board([them, me])


def roll(rng):
    return rng.randint(1, 6), rng.randint(1, 6)


def corpus(seed=2026, n=1000):
    """n (Position, d1, d2) triples: one sixth of each kind."""
    rng = random.Random(seed)
    out = []
    per = n // len(KINDS)
    for kind in KINDS:
        want = per if kind != KINDS[-1] else n - per * (len(KINDS) - 1)
        got = []
        while len(got) < want:
            if kind in ("contact", "random"):
                game = play_game(rng, kind if kind == "random" else "heuristic")
                for pos, _, _ in rng.sample(game, min(len(game), 12)):
                    got.append((pos,) + roll(rng))
            else:
                if kind == "bearoff":
                    pos = bearoff_position(rng, False)
                elif kind == "bearoff_contact":
                    pos = bearoff_position(rng, True)
                elif kind == "bar":
                    pos = bar_position(rng)
                else:
                    pos = stack_position(rng)
                got.append((pos,) + roll(rng))
        out.extend(got[:want])
    return out
