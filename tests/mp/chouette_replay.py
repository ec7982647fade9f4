# Run by MicroPython: replay the chouette record named in argv[1] as a board would at power-up,
# and print every player's score, the line (box, captain, ...) and the position.
import sys
from bgcore.chouette import replay

with open(sys.argv[1]) as f:
    ch, info, torn = replay(f)
print(" ".join(str(s) for s in ch.scores), ",".join(str(p) for p in ch.line), ch.match.pos.id())
