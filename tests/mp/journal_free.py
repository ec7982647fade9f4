# Run by MicroPython: how often the board's journal asks littlefs for its free space (statvfs
# walks every file: on a full flash the costliest step the board takes). Prints the lookups
# after each step, then how many of them had a watchdog feed right before and right after.
import sys

from bgapp.journal import Journal
from bgcore.match import Rules


class Hal:
    def __init__(self, d):
        self.data_dir = d

    def feed(self):
        log.append("feed")

    def sync(self):
        pass

    def board_id(self):
        return "0123456789abcdef"


class Counted(Journal):
    looks = 0

    def _statvfs(self):
        Counted.looks += 1
        log.append("walk")
        return Journal._statvfs(self)


log = []


j = Counted(Hal(sys.argv[1]))
print("power-up", Counted.looks)   # (once, to make the settings' folder on a fresh flash)
Counted.looks = 0
del log[:]                    # (power-up comes before the first feed starts the watchdog)
for _ in range(20):           # STATE, menu frames
    j.free()
print("frames", Counted.looks)
j.start(Rules("money", 0), ("Ann", "Bob"), "fw", start="-")
j.free()
print("start", Counted.looks)
for i in range(40):           # 40 short events: under 4 KB
    j.append("ROLL 0 3 1")
    j.free()
print("events", Counted.looks)
for i in range(200):          # a block more
    j.append("MOVE 0 24/21 13/12 padding padding")
    j.free()
print("block", Counted.looks)
walks = [i for i, w in enumerate(log) if w == "walk"]
print("fed", sum(1 for i in walks if log[i - 1:i + 2] == ["feed", "walk", "feed"]),
      "of", len(walks))
