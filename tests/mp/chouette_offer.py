# Run by MicroPython's unix port: the board's app in its own main loop (App._loop: a pass, a fault
# said and survived, the watchdog fed, the idle pause) with a HAL whose keys are a person's, WATCH
# on. argv: data dir, profile path, dice seed, mode:
#   offer   a three-player multiple-cube chouette set up by keys (the person in seat 3, bots in
#           seats 1 and 2). The heap runs out right after the first cube offer is on flash (the
#           HAL holds every free byte from the offer's `!EV CDOUBLE` until the loop next feeds the
#           watchdog), as a long chouette's fragmented heap can make it fail before the offer's
#           screen is up. The person plays on: OK takes an offered cube and rolls, a play of each
#           roll is keyed in. Stops when game 1 is over or after PASSES passes.
#   double  the same, and the person doubles over the link at their first turn (KEY DOUBLE, KEY
#           P<n> for the last cube they may turn, KEY OK): that offer is the one the heap cuts.
#   resume  the record in the data dir resumed at power-up; the person waits 150 passes, then
#           presses MENU, P7 and OK (a new game, two players) and OK (its opening roll); stops
#           after 200 passes.
# Prints each `!EV`, `!NO` (a key refused, the heap out) and `!ERROR` line, the link's `ERR`
# answers, "OOM <event>" where the heap ran out, "PASSES n" and the final STATE.
import sys
import gc

PASSES = 6000


class Stop(BaseException):
    pass


class Hal:
    def __init__(self, profile, data, seed, mode):
        self.profile = profile
        self.data_dir = data
        self.brightness = 0
        self.t = 0
        self.lines = ()
        self.dice = seed
        self.app = None
        self.queue = []           # the keys the person presses in the next pass
        self.passes = 0
        self.hog = None           # the heap's free bytes, held (see write)
        self.armed = mode != "resume"
        self.requests = b""       # the lines the person sends over the link in the next pass
        self.doubled = False
        self.mode = mode

    def seed(self):
        return self.dice

    def board_id(self):
        return "test"

    def show(self, frame):
        pass

    def text(self, lines):
        self.lines = lines

    def beep(self, ms):
        pass

    def ticks_ms(self):
        self.t += 1               # a clock of its own: the same run whatever the machine's load
        return self.t

    def sleep_ms(self, ms):
        self.t += ms

    def sync(self):
        pass

    def read(self):
        r = self.requests
        self.requests = b""
        return r

    def keys(self):
        q = self.queue
        self.queue = []
        return q

    def write(self, b):
        head = bytes(b[:4])       # (the link writes views of its buffers: memoryview)
        if head in (b"!EV ", b"!NO ", b"!ERR") or head[:3] == b"ERR":
            line = bytes(b).decode().strip()
            print(line)
            if self.armed and line.startswith("!EV CDOUBLE"):
                self.armed = False
                self.hog = hog()
                print("OOM", line[4:])

    def feed(self):
        self.hog = None

    def pause(self, ms):
        # the loop is idle: the person looks at the board and presses what the screen asks for
        self.passes += 1
        app = self.app
        g = app.game
        if self.mode == "resume":
            if self.passes >= 200:
                raise Stop()
            self.queue = {150: ["MENU"], 151: ["P7", "OK"], 152: ["OK"]}.get(self.passes, [])
            return
        if self.passes >= PASSES or g.m.phase == "game_over":
            raise Stop()
        if app.pending or app.anim.hops or app.play.waits != "player":
            return
        v = app.view
        if self.mode == "double" and not self.doubled and v is app.roll \
                and g.m.phase == "turn" and g.pickable():
            self.doubled = True
            n = g.ch.line.index(g.pickable()[-1]) + 1
            self.requests = b"KEY DOUBLE\nKEY P%d\nKEY OK\n" % n
        elif v is app.move:
            plays = v.plays
            if not plays:
                return
            play = plays[self.passes % len(plays)].detached()
            plays = None
            p = g.m.turn
            for step in play.moves:
                for q in step:
                    self.queue.append("BAR" if q == 25 else "OFF" if q == 0 else
                                      "P%d" % (q if p == 0 else 25 - q))
            self.queue.append("OK")
        else:
            self.queue.append("OK")   # takes, rolls, lets the bot captain roll


def hog():
    """Every free byte of the heap, held: big blocks, then smaller ones, then the last single
    GC blocks (a chain of tuples: nothing that grows, so no block is left over)."""
    chain = None
    for size in (4096, 256, 0):
        try:
            while True:
                chain = (chain, bytearray(size)) if size else (chain,)
        except MemoryError:
            pass
    return chain


from bghal import profile as P
prof = P.load(sys.argv[2])
del sys.modules["bghal.profile"]
del P
import bghal
del bghal.profile
gc.collect()
hal = Hal(prof, sys.argv[1], int(sys.argv[3]), sys.argv[4])
from bgapp.app import App
app = hal.app = App(hal)
app.fast = True
app.link.watching = True
if hal.mode != "resume":
    for k in ("DOUBLE", "P3", "P10", "P13", "P14", "OK"):     # the chouette's set-up in the menu
        why = app.press(k)
        assert why is None, (k, why)
try:
    app._loop()
except Stop:
    pass
print("PASSES", hal.passes)
sys.stdout.write("STATE ")      # (STATE's fields piece by piece, as the link writes them)
app.state_into(sys.stdout.write)
print()
