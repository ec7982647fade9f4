# Run by MicroPython in the differential test: reads "POSITIONID D1 D2" lines from the file
# named in argv[1] and prints, for each, every play and the Position ID it leads to, in order.
# The last line gives the most heap in use while a plays() result is held (after a collection).
import sys
import gc
from bgcore import Position

peak = 0
with open(sys.argv[1]) as f:
    for line in f:
        pid, d1, d2 = line.split()
        pos = Position.from_id(pid)
        gc.collect()
        plays = pos.plays(int(d1), int(d2))
        gc.collect()
        used = gc.mem_alloc()
        if used > peak:
            peak = used
        w = sys.stdout.write
        w("%s %s %s | " % (pid, d1, d2))
        for i in range(len(plays)):
            p = plays[i]
            w("%s%s=%s" % (";" if i else "", p, pos.apply(p).id()))
        w("\n")
        plays = None
print("HEAP", peak)
