# Run by MicroPython's unix port: the board's app with a HAL that keeps frames in memory, a data
# directory on the host, a clock of its own (so that a script, ranked games included, is always
# the same run) and keys fed by this script. argv: data dir, profile path, then a script:
# "SEED n" (the dice seed), "KEY name", "TICK n" (run the loop n times), "GAME" (play player 0's
# side to the end of the game), "LINE request" (a protocol line), "STATE", "NOTE", "TURN" (play
# the person's best play, keyed in, until the next roll), "BLUNDER" (play best plays until a roll
# whose worst play loses more than the tutor's threshold, then key that play in), "BEST" (key in
# the best play of the roll), "SHOW" (draw, print the text display's lines), "THINK n" (GAME
# runs the loop n times before keying each play in, as while a person thinks), "CGAME plan"
# (a chouette game by keys to its end, for every seat a person holds: plan "play" (no doubles,
# takes), "captaindrop" (the box doubles at once, the captain drops, the others take), "boxwin"
# (the box doubles, everyone drops), "teamwin" (the captain doubles, the box drops), "multi"
# (multiple cubes: people on roll double one cube at a time, up to four a game; people drop
# one answer in three); "CGAME plan n" stops after n presses; prints CMEMBERS and CTEXT (STATE's
# members, the display) after each answer, then CH with the line and scores and CPEAK, its live
# peak), "MEM" (heap in use and free), "BREAK name before|after [resume|build]" (the record's
# next write fails once with the builtin exception `name`, before its line reaches the file or
# after; with `resume` the replay after it runs out of memory, with `build` the game made from
# the replay), "BOOTSHORT" (anywhere in the script: the power-up's resume runs out of memory
# making the game from its replay), "SPLIT n"
# (the free heap cut into pieces of n bytes at most), "NAMES" (MicroPython's qstr_info line),
# "GIVEBACK n" (last: the free heap in pieces of about n bytes, then what Ctrl-C does,
# bgapp.fault.give_back; prints the bgapp and bgcore modules left loaded; the run ends there).
# Prints the final STATE and PEAK, the most heap in use after a collection at any step (less
# the first layer's copy an RP2040 reads in flash instead: bgcore.net.heap_beyond_chip), and
# TUTORTIME: how long the completing step of each play took (ms).
# "FOUR": from then on GAME and its plays press keys as a person on a four-button board does, by
# protocol lines only (KEY LEFT/RIGHT to walk the cursor, KEY SELECT, KEY SELECT long for OK,
# KEY BACK for UNDO); FOURKEYS at the end counts the lines sent.
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
        self.lines = lines

    def ticks_ms(self):
        # a clock of its own, a millisecond a reading: the same script is the same run whatever
        # the machine's load (a ranked game's entropy mixes the clock in with the seed)
        self.t += 1
        return self.t

    def sleep_ms(self, ms):
        self.t += ms

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
    if a.startswith("CGAME"):
        # the drive's own module, compiled from its source now, while the heap is whole: the
        # compile is the drive's need, not the board's (a chouette resumed after a cut left it
        # no block for it in some folders' layouts)
        import drive_chouette  # noqa: F401

from bghal import profile as P
prof = P.load(sys.argv[2])
del sys.modules["bghal.profile"]
del P
import bghal
del bghal.profile
gc.collect()
hal = Hal(prof, sys.argv[1])
from bgapp.app import App
if "BOOTSHORT" in sys.argv[3:]:
    # the power-up's resume: the replay fits, the game made from it runs out of memory (once)
    import drive_extra
    drive_extra.short_game_once()
app = App(hal)
app.fast = True
peak = 0
think = 0
done_ms = []      # the time each play's completing step took (the tutor's evaluation included)
four = [0]        # FOUR: keys go over the link by the four buttons; [1] counts the lines
press = app.press  # a logical key (FOUR: as the four buttons give it, tests/mp/drive_four.py)


def key_play(play, p):
    """Key in a play's steps (from, to per step); the completing step is timed."""
    refused = 0
    moves = play.moves
    for i in range(len(moves)):
        for q in moves[i]:
            n = q if p == 0 else 25 - q
            last = i == len(moves) - 1 and q == moves[i][1]
            t0 = time.ticks_us()
            why = press("BAR" if q == 25 else "OFF" if q == 0 else "P%d" % n)
            if last:
                done_ms.append(time.ticks_diff(time.ticks_us(), t0) / 1000)
            if why:
                print("REFUSED", why, play)
                refused += 1
    return refused


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
        forced = 0        # rolls with one legal play seen (made by the board, or keyed: below)
        seen = None
        while app.game.m.phase not in ("game_over", "match_over"):
            mv = app.move
            if app.play is mv and mv.plays and len(mv.plays) == 1 and mv.plays[0].moves \
                    and seen != (app.game.m.pos.id(), app.game.m.turn):
                seen = (app.game.m.pos.id(), app.game.m.turn)   # (not the list: it would
                forced += 1                                      # outlive the view's turn)
                if app.journal.settings["forced"]:
                    k += 7        # the board plays it: later choices as when it was keyed in
            mv = None
            app.tick()
            g = app.game
            if app.pending or app.anim.hops or g.actor() not in people + (None,):
                continue
            m = g.m
            p = g.actor()
            if m.phase == "turn" and "double" in w and m.cube_available(p) and not doubled:
                doubled = True
                press("DOUBLE")
            elif m.phase in ("opening", "turn"):
                doubled = False
                press("OK")
            elif m.phase == "doubled":
                press("OK")
            elif m.phase == "move":
                plays = app.move.plays
                if not plays:
                    continue
                if len(plays) == 1 and plays[0].moves:
                    # a forced play the board did not make by itself: keyed in
                    print("KEYED FORCED", m.pos.id(), m.dice)
                if "bar" in w and not g.rep.steps:
                    # GAME bar: with a checker of the mover's on the bar, press a point of its
                    # own first and print what the board says
                    raw = g.board()
                    if raw[25]:
                        for q in range(1, 25):
                            if raw[q]:
                                print("BARPRESS", app.press("P%d" % (q if p == 0 else 25 - q)))
                                break
                    raw = None
                k += 7
                play = plays[k % len(plays)]
                if "best" in w and len(plays) > 1:    # GAME best: the level-6 bot's choice
                    # the best play's index, scanned without a list of every equity (a list
                    # of hundreds grown in this heap would be the driver's cost, not the app's)
                    play = plays[app.bot(6)._scan(m.pos, plays, 0)]
                play = play.detached()    # (the plays' shared buffer goes before the OK)
                plays = None
                for i in range(think):
                    app.tick()
                refused += key_play(play, p)
                why = press("OK")
                if why:
                    print("REFUSED OK", why, play, m.pos.id(), m.dice, g.rep.steps)
                    refused += 1
                    break
            gc.collect()
            peak = max(peak, gc.mem_alloc())
        seen = None
        print("GAME", app.game.m.result, "forced", forced, "refused", refused)
    elif w[0] == "FOUR":
        import drive_four
        four[0] = 1
        press = drive_four.presser(app, hal, four)
    elif w[0] == "STATE":
        sys.stdout.write("STATE ")      # (the fields piece by piece, as the link writes them)
        app.state_into(sys.stdout.write)
        print()
    elif w[0] == "NOTE":
        print("NOTE", app.note)
    elif w[0] == "THINK":
        think = int(w[1])
    elif w[0] == "SEED":
        pass
    elif w[0] == "CGAME":
        import drive_chouette
        drive_chouette.run(w, app, hal, key_play)
    elif w[0] == "SHOW":
        # (here, not in drive_extra: a chouette's board may end with too little heap left to
        # compile that module, the drive's and not the board's need)
        app.show()
        print("TEXT", "|".join(hal.lines))
    elif w[0] in ("TURN", "BLUNDER", "BEST", "MEM", "OOM", "BREAK", "SPLIT", "NAMES",
                  "GIVEBACK"):
        # the tutor's and the chouette's commands, in a module loaded when used: a plain game's
        # heap figure then holds no more of this script than it needs
        import drive_extra
        drive_extra.run(w, app, hal, key_play)
    elif w[0] == "DEMO":
        # DEMO n: a fast demo of n games; DEMOMEM g bytes: the heap in use after a collection
        # as game g starts (its predecessor's state gone)
        print("DEMO", app.start_demo(int(w[1]), True))
        g = None
        while app.demo:
            app.tick()
            if app.game and app.game.m.game != g:
                g = app.game.m.game
                gc.collect()
                print("DEMOMEM", g, gc.mem_alloc())
            gc.collect()
            peak = max(peak, gc.mem_alloc())
    elif w[0] == "KEY":
        print("KEY", w[1], app.press(w[1]))
    elif w[0] == "LINE":
        app.link.request(" ".join(w[1:]))
        for b in hal.out:
            print(b.decode().strip()[:200])
        hal.out = []
sys.stdout.write("STATE ")
app.state_into(sys.stdout.write)
print()
from bgcore import net
print("PEAK", peak - net.heap_beyond_chip())
if four[0]:
    print("FOURKEYS", four[0] - 1)
if done_ms:
    done_ms.sort()
    print("TUTORTIME %d %.2f %.2f" % (len(done_ms), done_ms[len(done_ms) // 2], done_ms[-1]))
