# Bot-against-bot games with the cube (level 6, seeded dice), every cube action and play printed,
# and the one-roll look ahead of every eighth position, so the same script on MicroPython and
# CPython can be compared line by line (the cube decisions are integer arithmetic). On MicroPython
# the last line gives the most heap in use.
# usage: mp_cube_game.py SEED GAMES LENGTH   (LENGTH 0: money games, else a match to LENGTH)
import sys
import gc
from bgcore.bot import Bot
from bgcore.match import Match, Rules, MONEY, MATCH, TURN, MOVE, MATCH_OVER
from bgcore import lookahead

seed, games, length = [int(a) for a in sys.argv[1:4]]
bots = (Bot(6, seed), Bot(6, seed + 1))
state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


peak = 0
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
            if turns % 8 == 0:
                print("AHEAD", lookahead.ahead(bots[p], m.pos))
            if m.cube_available(p) and bots[p].wants_double(m):
                m.double(p)
                if bots[1 - p].takes(m):
                    m.take(1 - p)
                    print("DOUBLE", p, m.cube, "TAKE")
                else:
                    print("DOUBLE", p, m.cube * 2, "DROP")
                    m.drop(1 - p)
                    break
            m.roll(p, die(), die())
        play = bots[m.turn].choose(m.pos, *m.dice)
        print("MOVE", m.turn, play)
        m.move(m.turn, play)
        if hasattr(gc, "mem_alloc"):
            gc.collect()
        used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        peak = used if used > peak else peak
    print("END", m.result, m.score)
print("PEAK", peak)
