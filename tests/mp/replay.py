# Run by MicroPython: replay the record named in argv[1] as the board does at power-up, and
# print the position, Match ID, score and whether a torn last line was dropped.
import sys
from bgcore.record import replay

with open(sys.argv[1]) as f:
    rep, info, torn = replay(f, history=False)
m = rep.match
print(m.pos.id(), m.match_id(), m.score[0], m.score[1], torn is not None)
