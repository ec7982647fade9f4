# Run by MicroPython (bgboard bench resume): the board's journal (bgapp.journal) resumes record
# argv[2] in folder argv[1] as at power-up, argv[3] times; prints, as JSON on its last line, the
# process's CPU time for one resume (µs, the best of the runs), the longest gap between two
# watchdog feeds inside it and the feeds made (from the kernel's schedstat: CPU time, not wall
# time, so that a loaded machine does not count against the firmware).
import sys

from bgapp.journal import Journal

_stat = open("/proc/self/schedstat", "rb")


def cpu_us():
    _stat.seek(0)
    return int(_stat.read(48).split()[0]) // 1000


class Hal:
    def __init__(self, d):
        self.data_dir = d
        self.feeds = 0
        self.last = 0
        self.gap = 0

    def feed(self):
        now = cpu_us()
        self.gap = max(self.gap, now - self.last)
        self.last = now
        self.feeds += 1

    def sync(self):
        pass

    def board_id(self):
        return "0123456789abcdef"


best = None
for _ in range(int(sys.argv[3])):
    hal = Hal(sys.argv[1])
    j = Journal(hal)
    t0 = hal.last = cpu_us()
    rep, info, torn = j.resume(sys.argv[2])
    t = cpu_us() - t0
    hal.gap = max(hal.gap, cpu_us() - hal.last)
    j.close()
    if best is None or t < best[0]:
        best = (t, hal.gap, hal.feeds, rep.match.game)
print('{"us": %d, "gap_us": %d, "feeds": %d, "game": %d}' % best)
