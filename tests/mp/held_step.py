# Run by MicroPython's unix port: the app's own loop (App._loop) with a HAL whose keys are the
# board's own (hal.keys(), as the key matrix gives them), a record on the host's disk, and hooks
# that look at the flash when each frame goes out and when each `!EV` line is sent. argv: data
# dir, profile path. A two-player game is started over the link; then board keys, one loop turn
# each: a checker picked up, put down (a STEP), and in one scan a checker put down and UNDO.
# Prints one JSON line: for each frame, whether the record held the step then; for each `!EV`,
# whether its event was on flash when it was announced; what the record held at each frame.
import sys
import gc
import json

sys.path.append(sys.argv[0].rsplit("/", 1)[0])


class Stop(Exception):
    pass


class Hal:
    def __init__(self, profile, data):
        self.profile = profile
        self.data_dir = data
        self.brightness = 0
        self.t = 0
        self.queue = []           # the board keys the next loop turn reads
        self.turns = 0            # loop turns left before the loop is stopped
        self.frames = []          # the record's lines on flash at each frame
        self.announced = []       # (`!EV` payload, whether the record held it then)
        self.app = None

    def flash_text(self):
        j = self.app.journal if self.app else None
        if not j or not j.name:
            return ""
        with open(j.path(j.name)) as f:
            return f.read()

    def flash(self):
        """The record's events on flash now (without their checks)."""
        return [ln.rsplit("|", 1)[0] for ln in self.flash_text().splitlines()]

    def show(self, frame):
        self.frames.append(self.flash_text())

    def keys(self):
        out = self.queue
        self.queue = []
        return out

    def text(self, lines):
        pass

    def ticks_ms(self):
        self.t += 1
        return self.t

    def sleep_ms(self, ms):
        self.t += ms
        self.turns -= 1
        if self.turns <= 0:
            raise Stop()            # (the end of a loop turn: nothing of it is left undone)

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
        b = bytes(b)
        if b.startswith(b"!EV "):
            ev = b[4:].decode().strip()
            self.announced.append((ev, ev in self.flash()))


from bghal import profile as P
prof = P.load(sys.argv[2])
del sys.modules["bghal.profile"]
del P
gc.collect()
hal = Hal(prof, sys.argv[1])
from bgapp.app import App
from bgapp import moves
app = hal.app = App(hal)
app.link.watching = True


def turn(*keys):
    """One turn of the app's loop with these board keys; the frames it showed."""
    hal.frames = []
    hal.queue = list(keys)
    hal.turns = 1
    try:
        app._loop()
    except Stop:
        pass
    return hal.frames


def key_of(pt, p):
    """The board key of point pt in player p's numbering."""
    for q in range(1, 25):
        k = "P%d" % q
        if moves.point(k, p) == pt:
            return k
    return "BAR" if pt == 25 else "OFF"


for k in ("P7", "OK"):            # over the link: two players, a new game
    assert app.press(k) is None, k
while app.game.m.phase != "move":
    assert app.press("OK") is None      # the opening roll (again after a tie)
out = {}
p = app.game.m.turn
# a source with a destination one die away
src = sorted(app.move.opts)[0]
dst = sorted(app.move.dests(src))[0]
pick, put = key_of(src, p), key_of(dst, p)
step = "STEP %d %d %d" % (p, src, dst)
turn(pick)
before = hal.flash()
hal.announced = []
frames = turn(put)
out["step"] = step
out["flash_at_frames"] = [[ln.rsplit("|", 1)[0] for ln in f.splitlines()][len(before):]
                          for f in frames]
out["flash_after"] = hal.flash()[len(before):]
out["announced"] = list(hal.announced)
# a power cut at that frame: the flash as it was then replays to the game before the step (the
# step in progress is the one thing lost), the flash after the turn to the game with it
from bgcore.record import replay
for name, text in (("cut_at_frame", frames[0]), ("after", hal.flash_text())):
    rep, info, torn = replay(text, history=False)
    out[name] = [torn, ["%d/%d" % s for s in rep.steps]]
# two board keys in one scan: a checker put down and UNDO; both written, in order
hal.announced = []
src2 = sorted(app.move.opts)[0]
dst2 = sorted(app.move.dests(src2))[0]
turn(key_of(src2, p))
before = hal.flash()
frames = turn(key_of(dst2, p), "UNDO")
out["two_keys_flash_after"] = hal.flash()[len(before):]
out["two_keys_announced"] = list(hal.announced)
out["two_keys_flash_at_frames"] = [[ln.rsplit("|", 1)[0] for ln in f.splitlines()][len(before):]
                                   for f in frames]
# a key over the link is on flash when its answer comes (nothing held)
src3 = sorted(app.move.opts)[0]
dst3 = sorted(app.move.dests(src3))[0]
assert app.press(key_of(src3, p)) is None
before = hal.flash()
assert app.press(key_of(dst3, p)) is None
out["link_key_flash"] = hal.flash()[len(before):]
print(json.dumps(out))
