# The virtual board's HAL, for MicroPython's unix port run by `bgboard vboard`: the serial link
# is the process's stdin/stdout (a pty the host opens like a Pico's USB port), keys arrive over
# the link (KEY), storage is the littlefs image mounted at "/", the clock is the unix port's.
# The LEDs are the frames the app streams with WATCH (logical frame and brightness); the host
# (`bgboard sim`) puts them through the same Panel.encode a board runs, so this HAL keeps only
# the last frame and does not load the panel code (heap is scarce: see docs/protocol.md). There is
# no watchdog: feed() measures the longest gap between two feeds in the process's CPU time (from
# the bridge's _vcpu clock; STATE feedgap=), which `bgboard soak` scales to an RP2040's.

import os
import select
import sys
import time


class VirtualHal:
    data_dir = "/data"

    def __init__(self, profile):
        self.profile = profile
        self.brightness = profile["brightness"]["default"]
        self.frame = None
        self.lines = ()
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._rx = bytearray(256)       # what read() gathers, a byte at a time
        self._one = bytearray(1)
        self._head = b""                # the start of a line a read left unended (its name)
        self._id = None
        try:
            import _vcpu  # type: ignore[import-not-found]  # (the virtual board puts it there)
            self._cpu = _vcpu.ns
        except ImportError:
            self._cpu = None
        self._fed = None          # CPU time of the last feed (ns); None before the first one
        self.feed_gap = 0         # the longest gap between two feeds so far (µs of CPU time)
        self.gap_job = ""         # what the board did in that gap (STATE gapwhat=)
        self._job = []            # what it did since the last feed: the link's command words
        self._at = []             # when each began: µs of CPU after the last feed
        self._ctx = "boot"        # the last gap's job that had a name

    def show(self, frame):
        self.frame = frame
        self.did("show")

    def did(self, what):
        j = self._job
        if len(j) < 6 and (not j or j[-1] != what):
            j.append(what)
            if self._fed is not None:
                self._at.append((self._cpu() - self._fed) // 1000)

    def keys(self):
        return ()

    def text(self, lines):
        self.lines = lines

    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def seed(self):
        # the dice and the bots' seed: fixed by the host (`bgboard soak --seed`: a run repeats
        # its games) through BGBOARD_DICE_SEED, else from the OS
        fixed = os.getenv("BGBOARD_DICE_SEED")
        if fixed and fixed.isdigit():
            return int(fixed) & 0x7FFFFFFF
        b = os.urandom(4)
        return b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x7F) << 24

    def board_id(self):
        # a virtual board's identity lives on its flash: made once, kept across power cycles
        if self._id is None:
            try:
                with open("/board-id") as f:
                    self._id = f.read().strip()
            except OSError:
                self._id = "".join("%02x" % b for b in os.urandom(8))
                with open("/board-id", "w") as f:
                    f.write(self._id)
        return self._id

    def sync(self):
        s = getattr(os, "sync", None)
        if s:
            s()

    def feed(self):
        # the first feed starts the measure, as it starts an RP2040's watchdog (bghal.rp2)
        if self._cpu is None:
            return
        now = self._cpu()
        if self._fed is not None:
            gap = (now - self._fed) // 1000
            what = "+".join(self._job)
            if what:
                self._ctx = what
            if gap > self.feed_gap:
                self.feed_gap = gap
                # a gap without a job of its own is the rest of the last one (a feed inside it);
                # each job with the ms of CPU it began at, when known (KEY@0+show@12)
                at = self._at
                if len(at) == len(self._job):
                    what = "+".join("%s@%d" % (w, t // 1000) for w, t in zip(self._job, at))
                self.gap_job = what or "in:" + self._ctx
        self._fed = now
        self._job = []
        self._at = []

    def read(self):
        """The bytes waiting on the link (at most 256), or b"" (never blocks). Bytes the app has
        not read stay in the pty, and the bridge (bgboard.vboard) holds the host's writes
        meanwhile: nothing is dropped (flow control, as a Pico's USB)."""
        rx = self._rx
        one = self._one
        n = 0
        p = self._poll
        while n < 256 and p.poll(0):
            if not self._in.readinto(one):
                break
            rx[n] = one[0]
            n += 1
        if not n:
            return b""
        data = bytes(rx[:n])
        # the jobs' names: the first words of the lines this read ends (their work comes with
        # their end), a line begun in an earlier read named by its start (kept in _head)
        lines = data.split(b"\n")
        lines[0] = self._head + lines[0]
        self._head = lines.pop()[:12]
        for line in lines[:3]:
            w = line.split(None, 1)
            if w and 2 < len(w[0]) < 9 and w[0].isalpha():
                self.did(w[0].decode().upper())
        return data

    def write(self, b):
        self._out.write(b)

    def beep(self, ms):
        pass
