# What a bot's cube decision costs on MicroPython, for `bgboard bench chip`: run on the emulated
# RP2040 (raw REPL) and on the unix port. Two bots of level 6 play money games with seeded dice;
# before each roll the probe times the one-roll look ahead (bgcore.lookahead, the dearest part)
# and the whole decision (Bot.wants_double, which looks ahead only near a cube window). Prints one
# JSON line: the times in us, and the lowest free heap after a decision.
# usage: set GAMES, SEED before running it (raw REPL), or pass them as arguments (unix).
import gc
import json
import sys
import time

from bgcore.bot import Bot
from bgcore.match import Match, Rules, MONEY, TURN, MOVE
try:
    from bgcore.lookahead import ahead
except ImportError:               # (a firmware from before the look ahead)
    ahead = None

try:
    args = (GAMES, SEED)      # type: ignore[name-defined]  # noqa: F821
except NameError:
    args = (int(sys.argv[1]), int(sys.argv[2]))
games, seed = args
state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


bots = (Bot(6, seed), Bot(6, seed + 1))
ahead_us = []
decide_us = []
low = None
m = Match(Rules(MONEY))
for g in range(games):
    m.new_game()
    d1 = d2 = 0
    while d1 == d2:
        d1, d2 = die(), die()
    m.opening(d1, d2)
    while m.phase in (TURN, MOVE):
        if m.phase == TURN:
            bot = bots[m.turn]
            if ahead:
                gc.collect()
                t = time.ticks_us()
                ahead(bot, m.pos)
                ahead_us.append(time.ticks_diff(time.ticks_us(), t))
            gc.collect()
            t = time.ticks_us()
            bot.wants_double(m)
            decide_us.append(time.ticks_diff(time.ticks_us(), t))
            free = gc.mem_free()
            if low is None or free < low:
                low = free
            m.roll(m.turn, die(), die())
        play = bots[m.turn].choose(m.pos, *m.dice)
        m.move(m.turn, play)
print(json.dumps({"ahead_us": ahead_us, "decide_us": decide_us, "low_free": low}))
