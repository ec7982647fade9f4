# Run by MicroPython: read record headers whose player name doubles in size (plain and %XX
# quoted) and print, per size, the microseconds parse_header took (best of 3): the host checks
# that the time grows in proportion to the size, not faster.
import sys
import time
import gc
from bgcore.record import parse_header, quote, unquote

assert unquote(quote("a b%c|d=e\nf")) == "a b%c|d=e\nf"
assert unquote("%%41%4%zz%") == "%A%4%zz%"
sizes = [int(a) for a in sys.argv[1:]]
for unit in ("ab", "%41", "% "):
    row = []
    for n in sizes:
        payload = "BGR 1 mode=money p0=" + quote(unit) * (n // len(unit)) + " p1=x"
        best = None
        for _ in range(3):
            gc.collect()
            t = time.ticks_us()
            parse_header(payload)
            dt = time.ticks_diff(time.ticks_us(), t)
            best = dt if best is None or dt < best else best
        row.append(best)
    print(unit.replace(" ", "_"), " ".join(str(x) for x in row))
