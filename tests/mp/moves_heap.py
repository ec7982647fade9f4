# The move view's work for a roll with hundreds of plays (a 1-1 of 748, +w0IEFGWmwpEBQ) in a
# fragmented heap: the heap is filled with blocks of HOLE bytes and every other one freed, so
# that much of it is free but no free block is larger than about HOLE bytes (as after a long
# session or a chouette). Then, as the move view does for each key: the plays packed, narrowed
# step by step through several plays, the points that may be picked up and every one's
# destinations. Prints "ok N" (N checks) or "memory STAGE" where a MemoryError came.
# usage: moves_heap.py HOLE
import gc
import sys

from bgapp import moves
from bgcore import Position

moves.natives()
hole = int(sys.argv[1])
pos = Position.from_id("+w0IEFGWmwpEBQ")
plays = pos.plays(1, 1)
print("plays", len(plays))
picks = [plays[k].detached().moves for k in range(0, len(plays), 97)]
gc.collect()
# fill the heap with blocks of `hole` bytes, then free every other one
blocks = []
try:
    while True:
        blocks.append(bytearray(hole))
except MemoryError:
    pass
for i in range(0, len(blocks), 2):
    blocks[i] = None
gc.collect()
stage = "pack"
checks = 0
try:
    live = [moves.pack(plays)]
    for mv in picks:
        del live[1:]
        raw = bytearray(pos.raw)
        for s, t in mv:
            stage = "sources"
            opts, index = moves.sources(raw, live[-1])
            stage = "dests"
            for src in opts:
                moves.dests(raw, live[-1], src)
                checks += 1
            stage = "narrow"
            live.append(moves.narrow(live[-1], s, t))
            moves.step(raw, s, t)
        stage = "complete"
        opts, index = moves.sources(raw, live[-1])
        assert index >= 0 and not opts, (mv, index, opts)
    print("ok", checks)
except MemoryError:
    blocks = None
    print("memory", stage)
