# Run by MicroPython's unix port: the board's real boot (/main.py on a littlefs image, its /lib
# compiled, the virtual HAL) driven over its link by protocol lines only, as the soak drives a
# virtual board, with a clock and dice of its own (the same script is the same run). argv: the
# image file, its block size and count, the dice seed, then a script of steps, each a protocol
# line sent once its predecessor is answered, or one of:
#   "CHOUETTE n"   every bot's chouette played until game n is over (STATE after each answer;
#                  KEY OK between games; each game's end: a PIPS check, then any key back)
#   "GARBAGE n"    n lines of the soak's garbage that reach link_more (GET, TICKETS, DEMO)
#   "IDLE n"       n passes of the loop with nothing sent
#   "MAXANSWERS n" the run stops after n answers (4000 unless said)
#   "DIAG"         the loop's faults printed with their tracebacks (the first three)
#   "MEM tag"      prints "MEM tag free largest" (bytes free after a collection, the largest
#                  block the heap can give)
# Every line the board sends that is not an event is printed as "ANS <line>"; at the end
# "SUMMARY answers= errmem= evmem= low_free= low_largest= frames= badled=" (ERR memory answers,
# out-of-memory events, the lowest figures of the MEM steps and of each chouette game's end,
# !LED lines, and those not one whole frame: "BADLED length start" each).
import gc
import os
import sys
import vfs

IMAGE, BS, BLOCKS, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
SCRIPT = sys.argv[5:]


class _Flash:
    # the image file as a littlefs block device (as bgboard.vboard's boot shim)
    def __init__(self, f, n):
        self.f = f
        self.n = n

    def readblocks(self, b, buf, off=0):
        self.f.seek(b * BS + off)
        self.f.readinto(buf)

    def writeblocks(self, b, buf, off=None):
        self.f.seek(b * BS + (off or 0))
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return BS
        return 0


_f = open(IMAGE, "r+b")
_out = sys.stdout.buffer
vfs.umount("/")
vfs.mount(vfs.VfsLfs2(_Flash(_f, BLOCKS)), "/")
os.chdir("/")
sys.path[:] = ["", ".frozen", "/lib"]


def largest():
    """The largest block the heap can give now (bytes, to 64)."""
    lo, hi = 0, 1 << 18
    while hi - lo > 64:
        mid = (lo + hi) // 2
        try:
            b = bytearray(mid)
            b = None
            lo = mid
        except MemoryError:
            hi = mid
    return lo


LB = 1024           # bytes of a line kept
FRAME = 16 * 16 * 3     # bytes of an LED frame (the reference profile's 16 x 16 RGB)
MAX_ANSWERS = 4000   # answers before the run stops
LIMIT = 40          # ERR memory answers before the run stops
GARBAGE = ("GET", "GET nosuch.bgr", "GET settings.json 99999999", "TICKETS ASK 0", "TICKETS FOO",
           "DEMO", "DEMO 0", "DEMO x", "GET ../x", "TICKETS ASK x", "DEMO 2 slow", "GET .hidden")


class Driver:
    def __init__(self):
        self.steps = list(SCRIPT)
        self.owed = 0           # answers awaited
        self.line_start = True
        self.lbuf = bytearray(LB)   # the line being received (its first LB bytes)
        self.n = 0
        self.full = 0           # its length so far
        self.lastc = 0          # its last byte so far
        self.frames = 0         # !LED lines seen
        self.badled = 0         # of them not one whole frame (cut, or joined to another line)
        self.state = None       # the last answer's fields if it was STATE's
        self.answers = 0
        self.errmem = 0
        self.evmem = 0
        self.low_free = 1 << 30
        self.low_largest = 1 << 30
        self.mode = None        # ("CHOUETTE", n) while a chouette is driven
        self.idle = 0
        self.garbage = 0
        self.gi = 0
        self.pips_game = 0      # the game whose end was checked with PIPS
        self.ended = False

    def mem(self, tag):
        gc.collect()
        free = gc.mem_free()
        big = largest()
        self.low_free = min(self.low_free, free)
        self.low_largest = min(self.low_largest, big)
        print("MEM %s %d %d" % (tag, free, big))

    # The board's output is read without copying it whole (a 1.5 KB !LED line copied here
    # would be this script's allocation, not the board's): each line's first LB bytes are kept
    # in a buffer made once; a STATE answer's fields are read from it.
    def written(self, b):
        lb = self.lbuf
        size = len(b)
        at = 0
        find = getattr(b, "find", None)
        while at < size:
            if find:
                i = find(b"\n", at)
            else:
                i = at
                while i < size and b[i] != 10:
                    i += 1
                if i == size:
                    i = -1
            end = size if i < 0 else i
            k = min(end - at, LB - self.n)
            if k > 0:
                lb[self.n:self.n + k] = memoryview(b)[at:at + k]
                self.n += k
            self.full += end - at
            if end > at:
                self.lastc = b[end - 1]
            if i < 0:
                break
            self.line_end()
            at = i + 1

    def line_end(self):
        lb, n, full = self.lbuf, self.n, self.full
        self.n = self.full = 0
        if full and self.lastc == 13:
            full -= 1
            if n > full:
                n = full
        self.lastc = 0
        if not n:
            return
        out = _out.write
        if lb.startswith(b"!LED "):
            self.led_line(lb, n, full)
        if lb[0] != 33:             # (not "!": an answer)
            self.answers += 1
            self.owed -= 1
            mem = lb.find(b"out of memory", 0, n) >= 0
            self.errmem += mem
            out(b"ANS ")
            out(memoryview(lb)[:min(n, 300)])
            out(b"\n")
            self.state = None
            if lb.startswith(b"STATE "):
                self.state = {}
                for key in (b"view", b"phase", b"game", b"wait"):
                    i = lb.find(b" " + key + b"=", 0, n)
                    if i >= 0:
                        i += len(key) + 2
                        j = lb.find(b" ", i, n)
                        self.state[key.decode()] = bytes(lb[i:j if j >= 0 else n]).decode()
            if self.answers >= MAX_ANSWERS:
                self.ended = True       # (a run that goes nowhere: stop)
            if self.errmem >= LIMIT:
                self.ended = True       # (a board that cannot answer: stop)
        elif lb.find(b"memory", 0, n) >= 0 or lb.startswith(b"!ERROR"):
            self.evmem += 1            # (the loop's own work, out of memory: !NO ...)
            out(b"EVT ")
            out(memoryview(lb)[:min(n, 200)])
            out(b"\n")

    def led_line(self, lb, n, full):
        # a frame's line: "!LED <brightness> <the frame in hex>", all of it, nothing joined
        i = 5
        while i < n and 48 <= lb[i] <= 57:
            i += 1
        ok = i > 5 and i < n and lb[i] == 32
        for j in range(i + 1, n):
            c = lb[j]
            if not (48 <= c <= 57 or 97 <= c <= 102):
                ok = False
                break
        ok = ok and (full - i - 1) == 2 * FRAME
        self.frames += 1
        if not ok:
            self.badled += 1
            out = _out.write
            out(b"BADLED %d " % full)
            out(memoryview(lb)[:min(n, 80)])
            out(b"\n")

    def next_line(self):
        """The next line to send, or None (nothing now)."""
        if self.ended:
            return None
        if self.owed > 0:
            return None
        if self.idle:
            self.idle -= 1
            return None
        if self.garbage:
            self.garbage -= 1
            self.gi += 1
            return GARBAGE[self.gi % len(GARBAGE)]
        if self.mode:
            return self.chouette()
        while self.steps:
            s = self.steps.pop(0)
            w = s.split()
            if w[0] == "DIAG":
                continue
            if w[0] == "MAXANSWERS":
                global MAX_ANSWERS
                MAX_ANSWERS = int(w[1])
                continue
            if w[0] == "IDLE":
                self.idle = int(w[1])
                return None
            if w[0] == "MEM":
                self.mem(w[1])
                continue
            if w[0] == "GARBAGE":
                self.garbage = int(w[1])
                return None
            if w[0] == "CHOUETTE":
                self.mode = int(w[1])
                self.asked = False
                return None
            return s
        self.ended = True
        return None

    def chouette(self):
        # STATE, then what it calls for
        if not self.asked:
            self.asked = True
            return "STATE"
        self.asked = False
        f = self.state
        if f is None:
            return None             # (a key's answer: ask again)
        game = int(f.get("game", "0") or 0)
        over = f.get("phase") in ("game_over", "match_over") or f.get("wait") == "player"
        if f.get("view") == "pips":
            return "KEY UNDO"
        if over and f.get("wait") == "player":
            if self.pips_game != game:
                self.pips_game = game
                self.mem("game%d" % game)
                self.garbage = 6
                return "KEY PIPS"
            if game >= self.mode:
                self.mode = None
                return None
            return "KEY OK"
        self.idle = 3
        return None


D = Driver()

import bghal                                    # noqa: E402
from bghal.virtual import VirtualHal            # noqa: E402


class ScriptedHal(VirtualHal):
    # the virtual HAL with the link's bytes scripted and a clock and dice of its own
    t = 0

    def seed(self):
        return SEED

    def ticks_ms(self):
        self.t += 1
        return self.t

    def sleep_ms(self, ms):
        self.t += ms

    def board_id(self):
        return "longsession"

    def read(self):
        if D.ended and D.owed <= 0 or D.errmem >= LIMIT:
            raise KeyboardInterrupt
        line = D.next_line()
        if line is None:
            return b""
        D.owed += 1
        return line.encode() + b"\n"

    def write(self, b):
        D.written(b)


def _open(profile):
    return ScriptedHal(profile)


bghal.open = _open
if "DIAG" in SCRIPT:        # (diagnosis: the loop's faults printed where they happen)
    import bgapp.app
    _fault = bgapp.app.App.fault
    _n = [0]

    def _diag(self, e):
        _n[0] += 1
        if _n[0] < 4:
            sys.print_exception(e)
        D.evmem += 1
        _fault(self, e)
    bgapp.app.App.fault = _diag
try:
    with open("/main.py") as f:
        src = f.read()
    code = compile(src, "main.py", "exec")
    src = None
    exec(code, {"__name__": "__main__", "__file__": "/main.py"})
except KeyboardInterrupt as e:
    if not D.ended:
        sys.print_exception(e)      # (stopped from outside: where it was)
print("SUMMARY answers=%d errmem=%d evmem=%d low_free=%d low_largest=%d frames=%d badled=%d"
      % (D.answers, D.errmem, D.evmem, D.low_free, D.low_largest, D.frames, D.badled))
