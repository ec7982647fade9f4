# Run by MicroPython: how often the board's journal asks littlefs for its free space (statvfs
# walks every file: on a full flash the costliest step the board takes). Prints the lookups
# after each step.
import sys

from bgapp.journal import Journal
from bgcore.match import Rules


class Hal:
    def __init__(self, d):
        self.data_dir = d

    def feed(self):
        pass

    def sync(self):
        pass

    def board_id(self):
        return "0123456789abcdef"


class Counted(Journal):
    looks = 0

    def _statvfs(self):
        Counted.looks += 1
        return Journal._statvfs(self)


j = Counted(Hal(sys.argv[1]))
print("power-up", Counted.looks)   # (once, to make the settings' folder on a fresh flash)
Counted.looks = 0
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
