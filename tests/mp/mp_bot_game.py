# Plays whole cubeless games between two bots with seeded dice and prints every play, so the
# same script on MicroPython and CPython can be compared line by line. On MicroPython it also
# reports the most heap in use and the time per move of the first bot.
# usage: bot_game.py LEVEL_A LEVEL_B SEED GAMES
import sys
import gc
from bgcore import Position
from bgcore.bot import Bot

try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1e6)

    def ticks_diff(a, b):
        return a - b

la, lb, seed, games = [int(a) for a in sys.argv[1:5]]
bots = (Bot(la, seed), Bot(lb, seed + 1))
state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


peak = 0
times = []
for g in range(games):
    pos = Position.initial()
    side = 0
    while not pos.is_over():
        d1, d2 = die(), die()
        t = ticks_us()
        play = bots[side].choose(pos, d1, d2)
        dt = ticks_diff(ticks_us(), t)
        if side == 0:
            times.append(dt)
        used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        if used > peak:
            peak = used
        print("%d %d%d %s" % (side, d1, d2, play.moves if play else "-"))
        pos = pos.apply(play)
        side = 1 - side
    print("END", pos.result())
times.sort()
print("MOVES", len(times), "MEDIAN_US", times[len(times) // 2], "MAX_US", times[-1], "HEAP", peak)
