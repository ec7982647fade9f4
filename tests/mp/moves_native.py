# bgapp.moves over a seeded game's rolls: for plays spread over each roll's list, keyed step by
# step, the plays left (narrow), the sources, every source's destinations and the complete play,
# and the checkers of each position on the LED frame of every board profile (bgapp.render),
# printed as one sha256 with the count of checks: the same line on CPython (the Python loops) and
# on MicroPython (the native loops, and the Python loops with the native ones switched off).
# usage: moves_native.py PROFILES_DIR [python]
import sys
import hashlib
import binascii

from bgapp import moves, render
from bghal import profile as profiles
from bgcore import Position

renderers = [render.Renderer(profiles.load(sys.argv[1] + "/" + name + ".json"))
             for name in ("reference", "minimal")]
if len(sys.argv) > 2 and sys.argv[2] == "python":
    moves.LOOPS["done"] = True          # the Python loops: the native ones never compiled
print("native" if "narrow" in moves.natives() else "python")
state = [2026]


def rnd(n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n


h = hashlib.sha256()
checks = 0
pos = Position.initial()
for turn in range(70):
    d1, d2 = rnd(6) + 1, rnd(6) + 1
    plays = pos.plays(d1, d2)
    packed = moves.pack(plays)
    for k in range(0, len(plays), len(plays) // 6 + 1):
        raw = bytearray(pos.raw)
        buf = packed
        for s, t in plays[k].moves + ((0, 0),):
            opts, index = moves.sources(raw, buf)
            for c in buf:
                h.update(bytes(c))
            h.update(("%d;" % index).encode())
            for src in sorted(opts):
                d = moves.dests(raw, buf, src)
                for dst in sorted(d):
                    h.update(("%d>%d:%s;" % (src, dst, ",".join("%d/%d" % x for x in d[dst]))).encode())
            checks += 1
            if (s, t) == (0, 0):
                break
            moves.step(raw, s, t)
            buf = moves.narrow(buf, s, t)
            for r in renderers:
                r.clear()
                r.board(raw, turn & 1)
                h.update(r.frame)
    pos = pos.apply(plays[rnd(len(plays))] if plays else None)
    if pos.is_over():
        pos = Position.initial()
# tall stacks: more checkers than a place has LEDs (the stack shade), on the bar and off
for board in ([[15] + [0] * 24, [0] * 5 + [15] + [0] * 19],
              [[0] * 24 + [3], [0] * 23 + [10] + [2]], [[0] * 25, [1] + [0] * 24]):
    raw = bytearray(Position.from_board(board).raw)
    for r in renderers:
        for mover in (0, 1):
            r.clear()
            r.board(raw, mover)
            h.update(r.frame)
print(checks, binascii.hexlify(h.digest()).decode())
