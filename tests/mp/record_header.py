# Run by MicroPython: read a record header whose player name is UNIT (quoted as a record quotes
# it) repeated to N characters, REPS times over. The host measures this process's CPU time
# with REPS and with 0 (starting up and building the header cost the same in both) and checks
# that the time a read takes grows in proportion to the header's size, not faster.
# Usage: record_header.py UNIT N REPS   (UNIT "_" stands for a space)
import sys
from bgcore.record import parse_header, quote, unquote

assert unquote(quote("a b%c|d=e\nf")) == "a b%c|d=e\nf"
assert unquote("%%41%4%zz%") == "%A%4%zz%"
unit = sys.argv[1].replace("_", " ")
n = int(sys.argv[2])
payload = "BGR 1 mode=money p0=" + quote(unit) * (n // len(unit)) + " p1=x"
for _ in range(int(sys.argv[3])):
    parse_header(payload)
print("ok")
