# Bot-against-bot games with the cube: two level-6 bots, seeded dice (the same games on
# MicroPython and CPython: the cube decisions are integer arithmetic). Two uses:
# - the trace (tests/test_bot_cube.py, unix port and CPython, compared line by line): every cube
#   action and play printed, and the one-roll look ahead of every eighth position; on MicroPython
#   the last line gives the most heap in use after a move.
#   usage: cube_games.py SEED GAMES LENGTH   (LENGTH 0: money games, else a match to LENGTH)
# - the timing, for `bgboard bench chip` (MicroPython: the emulated RP2040's raw REPL and the unix
#   port): before each roll the one-roll look ahead (bgcore.lookahead, the dearest part) and the
#   whole decision (Bot.wants_double, which looks ahead only near a cube window) are timed, and
#   the cube stays in the middle. Prints one JSON line: the times in µs, and the lowest free
#   heap after a decision. usage: set SEED and GAMES before running it (raw REPL; money games),
#   or cube_games.py SEED GAMES LENGTH time
import gc
import sys

from bgcore.bot import Bot
from bgcore.match import Match, Rules, MONEY, MATCH, TURN, MOVE, MATCH_OVER
try:
    from bgcore.lookahead import ahead
except ImportError:               # (a firmware from before the look ahead: its decision timed)
    ahead = None

try:
    seed, games, length, timing = SEED, GAMES, 0, True  # type: ignore[name-defined]  # noqa: F821
except NameError:
    seed, games, length = [int(a) for a in sys.argv[1:4]]
    timing = sys.argv[4:5] == ["time"]
if timing:
    import json
    from time import ticks_us, ticks_diff


def say(*words):
    # the trace's lines (the timing prints its JSON line alone)
    if not timing:
        print(*words)


def timed(times, f, *args):
    """f(*args), its time in µs appended to `times`."""
    gc.collect()
    t = ticks_us()
    r = f(*args)
    times.append(ticks_diff(ticks_us(), t))
    return r


bots = (Bot(6, seed), Bot(6, seed + 1))
state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


ahead_us = []
decide_us = []
low = None            # the lowest free heap after a decision (timing)
peak = 0              # the most heap in use after a move (the trace, on MicroPython)
m = Match(Rules(MATCH, length) if length else Rules(MONEY))
turns = 0
for g in range(games):
    if m.phase == MATCH_OVER:
        break
    m.new_game()
    d1 = d2 = 0
    while d1 == d2:
        d1, d2 = die(), die()
    m.opening(d1, d2)
    while m.phase in (TURN, MOVE):
        if m.phase == TURN:
            p = m.turn
            turns += 1
            if timing:
                # every turn: the look ahead and the decision timed; the cube is never turned,
                # so every turn of the game has a decision to time
                if ahead:
                    timed(ahead_us, ahead, bots[p], m.pos)
                timed(decide_us, bots[p].wants_double, m)
                free = gc.mem_free()
                low = free if low is None or free < low else low
            else:
                if turns % 8 == 0:
                    say("AHEAD", ahead(bots[p], m.pos))
                if m.cube_available(p) and bots[p].wants_double(m):
                    m.double(p)
                    if bots[1 - p].takes(m):
                        m.take(1 - p)
                        say("DOUBLE", p, m.cube, "TAKE")
                    else:
                        say("DOUBLE", p, m.cube * 2, "DROP")
                        m.drop(1 - p)
                        break
            m.roll(p, die(), die())
        play = bots[m.turn].choose(m.pos, *m.dice)
        say("MOVE", m.turn, play)
        m.move(m.turn, play)
        if not timing and hasattr(gc, "mem_alloc"):
            gc.collect()
            used = gc.mem_alloc()
            peak = used if used > peak else peak
    say("END", m.result, m.score)
if timing:
    print(json.dumps({"ahead_us": ahead_us, "decide_us": decide_us, "low_free": low}))
else:
    print("PEAK", peak)
