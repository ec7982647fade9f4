# What the board's flash work costs, run by `bgboard bench resume` on the emulated RP2040 (raw
# REPL, the board's own littlefs mount) and on the unix port (the virtual board's littlefs image,
# mounted as its shim mounts it): the resume of record RECORD (the journal's power-up replay:
# its time and the longest gap between two watchdog feeds), then the filesystem's own
# operations on /data: statvfs (the free space), listdir, stat, an append to another record
# (OTHER), the settings' write and rename. Prints one JSON line: microseconds (emulated time on
# the chip, CPU time on the unix port) and, on the unix port, the block reads each one made.
import json
import os
import sys
import time

try:
    args = (RECORD, OTHER)            # type: ignore[name-defined]  # noqa: F821
except NameError:
    args = (sys.argv[1], sys.argv[2])
record, other = args

if sys.platform == "rp2":
    def clock():
        return time.ticks_us()
    reads = None
else:
    from flash_shim import cpu_us as clock, mount     # (beside this script)
    reads = mount(sys.argv[3])

from bgapp.journal import Journal    # noqa: E402


class Hal:
    data_dir = "/data"

    def __init__(self):
        self.last = clock()
        self.gap = 0
        self.feeds = 0

    def feed(self):
        now = clock()
        self.gap = max(self.gap, now - self.last)
        self.last = now
        self.feeds += 1

    def sync(self):
        if hasattr(os, "sync"):
            os.sync()

    def board_id(self):
        return "0123456789abcdef"


out = {}


def measure(name, f):
    n = reads.reads if reads else 0
    t = clock()
    f()
    out[name + "_us"] = clock() - t
    if reads:
        out[name + "_reads"] = reads.reads - n


hal = Hal()
j = Journal(hal)
t = hal.last = clock()
rep = j.resume(record)[0]
out["resume_us"] = clock() - t
out["resume_gap_us"] = max(hal.gap, clock() - hal.last)
out["resume_game"] = rep.match.game
j.close()
measure("statvfs", lambda: os.statvfs("/data"))
measure("listdir", lambda: os.listdir("/data"))
measure("stat", lambda: os.stat("/data/" + record))


def append():
    with open("/data/" + other, "a") as f:
        f.write("SIG probe|00000000\n")
    hal.sync()


measure("append", append)
measure("settings", j.save_settings)
print(json.dumps(out))
