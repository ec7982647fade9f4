# What the tutor's check of a play costs on MicroPython, for `bgboard bench tutor`: run on the
# emulated RP2040 (through the raw REPL, with the board's HAL open and its key scan running) and
# on the unix port. Level-6 bots play each other with seeded dice; at every roll with two legal
# plays or more the board's tutor (bgcore.tutor.Scorer) is timed three ways: the whole roll's
# plays scored at the completing step (a play keyed before the board's loop ran once), one
# background slice (Scorer.step, what each pass of the loop does while the person keys), and the
# completing step once the background is done (the loss looked up). Prints one JSON line.
# usage: set ROLLS (rolls measured), SEED before running it (raw REPL), or pass them as
# arguments (unix).
import gc
import json
import sys
import time

from bgcore import Position
from bgcore.bot import Bot
from bgcore.tutor import Scorer

try:
    rolls, seed = ROLLS, SEED         # type: ignore[name-defined]  # noqa: F821
except NameError:
    rolls, seed = int(sys.argv[1]), int(sys.argv[2])

hal = None
if sys.platform == "rp2":
    import bghal
    from bghal import profile as _profile
    hal = bghal.open(_profile.load("/profile.json"))

state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


bot = Bot(6, seed)
cold, slice_, warm, counts = [], [], [], []
while len(cold) < rolls:
    pos = Position.initial()
    while not pos.is_over() and len(cold) < rolls:
        d1, d2 = die(), die()
        gc.collect()
        plays = pos.plays(d1, d2)
        n = len(plays)
        if n > 1:
            i = (d1 * 7 + d2) % n                 # the play keyed in
            t = time.ticks_us()
            Scorer(bot, pos, plays).loss(i)
            cold.append(time.ticks_diff(time.ticks_us(), t))
            sc = Scorer(bot, pos, plays)
            t = time.ticks_us()
            sc.step()
            slice_.append(time.ticks_diff(time.ticks_us(), t))
            while not sc.done():
                sc.step()
            t = time.ticks_us()
            sc.loss(i)
            warm.append(time.ticks_diff(time.ticks_us(), t))
            counts.append(n)
            sc = None
        play = plays[bot._scan(pos, plays, 0)].detached() if n > 1 else (
            plays[0].detached() if n else None)
        plays = None
        pos = pos.apply(play)
if hal is not None:
    hal.close()
print(json.dumps({"cold_us": cold, "slice_us": slice_, "warm_us": warm, "plays": counts}))
