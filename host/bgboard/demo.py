"""`bgboard demo`: two computer players play a game on a text board in the terminal."""

import random
import sys
import time

from bgcore import Position

KIND = {1: "single game", 2: "gammon", 3: "backgammon"}


def _chooser(rng):
    from bgcore.bot import Bot
    bot = Bot(6, seed=rng.randrange(1 << 30))
    return bot.choose, "bot level 6"


def play_one(rng, out, delay):
    choose, name = _chooser(rng)
    names = ("X", "O")
    pos = Position.initial()
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    while a == b:
        out.write("Opening roll: X %d, O %d - tie, roll again\n" % (a, b))
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    side = 0 if a > b else 1
    out.write("Opening roll: X %d, O %d - %s starts (%s for both)\n" % (a, b, names[side], name))
    d1, d2 = a, b
    turn = 0
    while True:
        turn += 1
        play = choose(pos, d1, d2)
        text = str(play) if play else "(no legal play)"
        pos = pos.apply(play)
        side ^= 1
        # Show the board from X's side whoever moved.
        shown = pos if side == 0 else pos.swapped()
        out.write("\n%3d. %s rolls %d%d: %s\n%s\n" % (turn, names[side ^ 1], max(d1, d2),
                                                     min(d1, d2), text, shown))
        out.flush()
        if pos.is_over():
            winner, kind = pos.result()
            who = names[side ^ 1] if winner == 1 else names[side]
            out.write("\n%s wins a %s (%d point%s) after %d turns.\n"
                      % (who, KIND[kind], kind, "s" if kind > 1 else "", turn))
            return who, kind
        if delay:
            time.sleep(delay)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def run_demo(seed=None, delay=0.4, games=1, out=None):
    out = out or sys.stdout
    rng = random.Random(seed)
    for _ in range(games):
        play_one(rng, out, delay)
    return 0
