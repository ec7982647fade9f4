# Run by MicroPython's unix port: the board's app with a HAL that keeps frames in memory, a data
# directory on the host and keys fed by this script. argv: data dir, profile path, then a script:
# "SEED n" (the dice seed), "KEY name", "TICK n" (run the loop n times), "GAME" (play player 0's
# side to the end of the game), "LINE request" (a protocol line), "STATE", "NOTE". Prints the
# final STATE and PEAK, the most heap in use after a collection at any step.
import sys
import gc
import time

sys.path.append(sys.argv[0].rsplit("/", 1)[0])


class Hal:
    def __init__(self, profile, data):
        self.profile = profile
        self.data_dir = data
        self.brightness = 0
        self.out = []
        self.t = 0

    def show(self, frame):
        pass

    def keys(self):
        return ()

    def text(self, lines):
        pass

    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        pass

    def seed(self):
        return SEED

    def board_id(self):
        return "test"

    def sync(self):
        pass

    def feed(self):
        pass

    def read(self):
        return b""

    def write(self, b):
        self.out.append(bytes(b))

    def beep(self, ms):
        pass


SEED = 12345
for a in sys.argv[3:]:
    if a.startswith("SEED "):
        SEED = int(a[5:])

from bghal import profile as P
prof = P.load(sys.argv[2])
del sys.modules["bghal.profile"]
del P
import bghal
del bghal.profile
gc.collect()
hal = Hal(prof, sys.argv[1])
from bgapp.app import App
app = App(hal)
app.fast = True
peak = 0
for cmd in sys.argv[3:]:
    w = cmd.split()
    if w[0] == "TICK":
        for i in range(int(w[1])):
            app.tick()
            gc.collect()
            f = gc.mem_alloc()
            peak = max(peak, f)
    elif w[0] == "GAME":
        # play as player 0 (GAME both: as both players; GAME best: the best play, else the k-th
        # legal play) until the game is over: roll, take,
        # pick the k-th legal play (k from a counter) and key in its steps one by one, then OK;
        # GAME double: double whenever the cube is available
        k = 0
        refused = 0
        people = (0, 1) if "both" in w else (0,)
        doubled = False
        while app.game.m.phase not in ("game_over", "match_over"):
            app.tick()
            g = app.game
            if app.pending or app.anim.hops or g.actor() not in people + (None,):
                continue
            m = g.m
            p = g.actor()
            if m.phase == "turn" and "double" in w and m.cube_available(p) and not doubled:
                doubled = True
                app.press("DOUBLE")
            elif m.phase in ("opening", "turn"):
                doubled = False
                app.press("OK")
            elif m.phase == "doubled":
                app.press("OK")
            elif m.phase == "move":
                plays = app.move.plays
                if not plays:
                    continue
                k += 7
                play = plays[k % len(plays)]
                if "best" in w and len(plays) > 1:    # GAME best: the level-6 bot's choice
                    eq = app.bot(6).equities(m.pos, plays)
                    play = plays[eq.index(max(eq))]
                    eq = None
                plays = None
                for a, b in play.moves:
                    for q in (a, b):
                        n = q if p == 0 else 25 - q
                        why = app.press("BAR" if q == 25 else "OFF" if q == 0 else "P%d" % n)
                        if why:
                            print("REFUSED", why, play, m.pos.id(), m.dice)
                            refused += 1
                why = app.press("OK")
                if why:
                    print("REFUSED OK", why, play, m.pos.id(), m.dice, g.rep.steps)
                    refused += 1
                    break
            gc.collect()
            peak = max(peak, gc.mem_alloc())
        print("GAME", app.game.m.result, "refused", refused)
    elif w[0] == "STATE":
        print("STATE", app.state_text())
    elif w[0] == "NOTE":
        print("NOTE", app.note)
    elif w[0] == "SEED":
        pass
    elif w[0] == "KEY":
        print("KEY", w[1], app.press(w[1]))
    elif w[0] == "LINE":
        app.link.request(" ".join(w[1:]))
        for b in hal.out:
            print(b.decode().strip()[:200])
        hal.out = []
print("STATE", app.state_text())
print("PEAK", peak)
