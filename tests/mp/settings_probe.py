# Settings writes on a nearly full flash, on the unix port with the virtual board's littlefs
# mount (bgboard.vboard's shim, block reads counted): the journal's save_settings WRITES times,
# each after a change a new game makes (the record in progress and the next number), as the
# soak's boards did late in a run with the flash filled. Prints one JSON line: for each write
# its block reads and CPU µs, the longest gap between two watchdog feeds (µs of CPU), and the
# block reads of one walk of every file (a statvfs, as littlefs's search for free blocks).
# argv: IMAGE WRITES
import json
import os
import sys

from flash_shim import cpu_us as clock, mount     # (beside this script)

flash = mount(sys.argv[1])
writes = int(sys.argv[2])

from bgapp.journal import Journal    # noqa: E402


class Hal:
    data_dir = "/data"

    def __init__(self):
        self.last = clock()
        self.gap = 0

    def feed(self):
        now = clock()
        self.gap = max(self.gap, now - self.last)
        self.last = now

    def sync(self):
        if hasattr(os, "sync"):
            os.sync()


hal = Hal()
j = Journal(hal)
reads = []
us = []
for i in range(writes):
    j.settings["next"] += 1
    j.settings["current"] = "%04d.bgr" % j.settings["next"]
    hal.feed()
    n = flash.reads
    t = clock()
    j.save_settings()
    us.append(clock() - t)
    reads.append(flash.reads - n)
hal.feed()
n = flash.reads
os.statvfs("/data")           # littlefs walks every file: what a block taken may cost
print(json.dumps({"reads": reads, "us": us, "gap_us": hal.gap, "walk_reads": flash.reads - n}))
