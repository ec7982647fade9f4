# Run by MicroPython's unix port: the board's app, a two-player game over the link, and the heap
# failing (MemoryError) at the move view's allocations, each once or twice as a long session's
# fragmented heap can make it fail: the plays left after a step (moves.narrow), a picked-up
# point's destinations (moves.dests), the roll's packed plays (moves.pack). For each: the
# link's answer to the key, the record's events on flash before and after, and the same key
# again. Prints one JSON line. argv: data dir, profile path.
import sys
import gc
import json


class Hal:
    def __init__(self, profile, data):
        self.profile = profile
        self.data_dir = data
        self.brightness = 0
        self.t = 0
        self.sent = b""           # what the board sent on the link
        self.app = None

    def flash(self):
        """The record's events on flash now (without their checks)."""
        j = self.app.journal
        with open(j.path(j.name)) as f:
            return [ln.rsplit("|", 1)[0] for ln in f.read().splitlines()]

    def show(self, frame):
        pass

    def keys(self):
        return ()

    def beep(self, ms):
        pass

    def text(self, lines):
        pass

    def ticks_ms(self):
        self.t += 1
        return self.t

    def sleep_ms(self, ms):
        self.t += ms

    def seed(self):
        return 4242

    def board_id(self):
        return "test"

    def sync(self):
        pass

    def feed(self):
        pass

    def read(self):
        return b""

    def write(self, b):
        self.sent += bytes(b)


from bghal import profile as P
prof = P.load(sys.argv[2])
del sys.modules["bghal.profile"]
del P
gc.collect()
hal = Hal(prof, sys.argv[1])
from bgapp.app import App
from bgapp import moves
app = hal.app = App(hal)


def key(name):
    """KEY name over the link: its answer (the `!` lines aside)."""
    hal.sent = b""
    app.link.request("KEY " + name)
    lines = [ln.strip() for ln in hal.sent.decode().split("\n")]   # (a line may come in pieces)
    return [ln for ln in lines if ln and not ln.startswith("!")][-1]


def key_of(pt, p):
    for q in range(1, 25):
        k = "P%d" % q
        if moves.point(k, p) == pt:
            return k
    return "BAR" if pt == 25 else "OFF"


def failing(name, times):
    """moves.<name> raising MemoryError the next `times` calls, then itself again."""
    real = getattr(moves, name)
    left = [times]

    def f(*args):
        if left[0]:
            left[0] -= 1
            raise MemoryError()
        return real(*args)
    setattr(moves, name, f)
    return real


for k in ("P7", "OK"):            # two players, a new game
    assert app.press(k) is None, k
while app.game.m.phase != "move":
    assert app.press("OK") is None      # the opening roll (again after a tie)
out = {}
p = app.game.m.turn
mv = app.move
src = sorted(mv.opts)[0]
dst = sorted(mv.dests(src))[0]
pick, put = key_of(src, p), key_of(dst, p)
mv = None
# a checker put down while the plays left cannot be narrowed: refused, nothing recorded
assert key(pick) == "OK KEY " + pick
before = hal.flash()
real = failing("narrow", 1)
out["put_refused"] = key(put)
out["put_refused_flash"] = hal.flash()[len(before):]
out["put_refused_steps"] = len(app.game.rep.steps)
out["put_again"] = key(put)
out["put_again_flash"] = hal.flash()[len(before):]
moves.narrow = real
assert key("UNDO") == "OK KEY UNDO"
# a point picked up while its destinations cannot be worked out: refused, then taken
real = failing("dests", 1)
out["pick_refused"] = key(pick)
out["pick_again"] = key(pick)
moves.dests = real
assert key(pick) == "OK KEY " + pick      # (put back down where it was: nothing selected)
# the next roll's plays cannot be packed: the roll is taken (on flash); the turn does not pass
# by itself; a point key is refused while the heap still cannot, then taken
for s, t in app.move.plays[0].detached().moves:
    assert key(key_of(s, p)).startswith("OK"), (s, t)
    assert key(key_of(t, p)).startswith("OK"), (s, t)
assert key("OK") == "OK KEY OK"
while app.game.m.phase != "turn":
    app.tick()
before = hal.flash()
real = failing("pack", 2)
out["roll"] = key("OK")
out["roll_flash"] = hal.flash()[len(before):]
for i in range(50):
    hal.t += 100
    app.tick()
out["after_ticks_flash"] = hal.flash()[len(before):]
q = app.game.m.turn
raw = app.game.board()
src = [s for s in range(25, 0, -1) if raw[s]][0]
out["key_refused"] = key(key_of(src, q))
out["key_again"] = key(key_of(src, q))
out["opts"] = len(app.move.opts)
moves.pack = real
print(json.dumps(out))
