# Run by MicroPython: read record headers whose player name grows in size (plain and %XX
# quoted) and print, per size, the microseconds of CPU one parse_header took: the host checks
# that the time grows in proportion to the size, not faster. CPU time, from Linux's
# /proc/self/schedstat (the unix port has no process clock), so that other programs on a loaded
# machine do not count (the wall clock where it is missing); that count moves in scheduler
# ticks, so each figure is a block of parses long enough (20 ms at the smallest size) for a
# tick not to matter, the same number of parses at every size.
import sys
import time
import gc
from bgcore.record import parse_header, quote, unquote

BLOCK_US = 20000


def _schedstat():
    with open("/proc/self/schedstat") as f:
        return int(f.read().split()[0]) // 1000


try:
    _schedstat()
    clock, elapsed = _schedstat, lambda t0, t1: t1 - t0
except (OSError, ValueError, IndexError):
    clock, elapsed = time.ticks_us, lambda t0, t1: time.ticks_diff(t1, t0)


def block(payload, reps):
    gc.collect()
    t = clock()
    for _ in range(reps):
        parse_header(payload)
    return elapsed(t, clock())


assert unquote(quote("a b%c|d=e\nf")) == "a b%c|d=e\nf"
assert unquote("%%41%4%zz%") == "%A%4%zz%"
sizes = [int(a) for a in sys.argv[1:]]
for unit in ("ab", "%41", "% "):
    payloads = ["BGR 1 mode=money p0=" + quote(unit) * (n // len(unit)) + " p1=x" for n in sizes]
    reps = 1
    while block(payloads[0], reps) < BLOCK_US and reps < 4096:
        reps *= 2
    row = [block(p, reps) // reps for p in payloads]
    print(unit.replace(" ", "_"), " ".join(str(x) for x in row))
