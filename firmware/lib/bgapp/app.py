# The board's application: one dispatcher over small views. The dispatcher runs the loop, turns
# the board's keys into logical keys, routes each key and the passing of time to the active view,
# and owns what the views share: the journal (records and settings on flash), the link (serial
# protocol), the renderer, the dice, the bots, one timer, the message line. The game in progress
# (bgapp.game.Game: its record Replay, players, events) is `app.game`.
#
# Where a key is handled, by screen (file = view):
#   view_menu.py   the menu: settings, OK new game     view_pips.py   pips and the record check
#   view_roll.py   opening roll, roll or double, dice keyed in (real dice)
#   view_move.py   a person moving checkers: points, UNDO, HINT, OK
#   view_cube.py   a person answering a double: take, drop, beaver
#   view_bot.py    the computer's turn (it acts by itself)   view_anim.py  a play shown step by step
#   view_over.py   game or match over: OK for the next       view_demo.py  DEMO games
#   view_resign.py a resignation offered (RESIGN, or the bot's): accept or refuse
#   view_chouette.py   the chouette set-up (menu DOUBLE)   view_chouette_cube.py  a chouette's double
#                  answered cube by cube   view_chouette_double.py  multiple cubes: the cubes to turn
#   view_chouette_line.py  between a chouette's games: next game, join, leave (the chouette game
#                  itself, which picks these screens: bgapp/chouette.py)
#   view_name.py   a name and country after a ranked win     view_best.py  the best ranked wins
# MENU and PIPS are the dispatcher's own (they work on every screen); while a demo runs every key
# goes to the demo. The menu, pips, demo and chouette views are loaded when shown (the menu and
# pips views are dropped from RAM when left: load, unload): a game runs without their code, and
# the core modules it loads only now and then are dropped after each event (shed).
#
# The view interface (a class per view, one instance each, made here):
#   name             STATE's view= ("menu", "play", "pips", "name" or "best")
#   playing          True for a view of the game in progress (keys wait while the timer runs)
#   waits            "player" or "board": whom the board waits for (STATE's wait=)
#   enter()          became the game's view after a change (App.changed): set up its own state
#   leave()          stopped being the game's view: drop what it holds
#   key(key)         a logical key: None when taken, else the reason it was refused (nothing
#                    changed; the dispatcher shows it, beeps and sends !NO)
#   tick()           time passes and the timer is idle: act by itself (app.later schedules)
#   draw(r)          paint the frame on the cleared renderer r
#   lines()          the text display's lines
#   state()          extra STATE fields (" complete=1"), or ""
#   transient        True: loaded when shown, dropped when another view becomes active
# bgapp.game.View gives the defaults.

import gc
import sys
import time

from micropython import const

from bgcore.match import OPENING, MOVE, DOUBLED, GAME_OVER, MATCH_OVER

from bgapp.journal import Journal, WriteFailed
from bgapp.link import Link
from bgapp.input import Input
from bgapp import game, moves, render

_FRAME_MS = const(100)     # WATCH: at most ten LED frames a second
# a setting changed on the board's keys is written once they have been quiet this long: a
# person stepping through the menu is not held up by (nor taps into) the flash writes, which
# stop the key scan for 5-8 ms, 63 ms with a sector erase (emulated RP2040). A power cut in
# that time loses that setting (the file on flash is the whole old one or the whole new one)
_QUIET_MS = const(1500)
# the note when the heap was too short to replay the record in progress (App.resume): the record
# stays the game in progress
RESUME_LATER = "out of memory replaying the game: it resumes at power-up"


class App:
    from bgcore import __version__ as FW     # the firmware version: bgcore's, in one place
    # (bgapp.fault; on the instance only once a fault came: a long chouette's heap is tight)
    last_fault = None         # (view, repr) of the last fault said, until a key
    halted = None             # the view whose tick failed the same way again: not ticked until
                              # a key

    def __init__(self, hal, lit_first=False):
        """`lit_first` (the board at power-up, before run): the first frame before the bot and
        the game's views load (unless a game is resumed: the bot's network, then its views);
        else the bot's network first, while the heap is in one piece."""
        self.hal = hal
        self.did = getattr(hal, "did", None)    # (the virtual board names each feed gap's job)
        self.profile = hal.profile
        self.journal = Journal(hal)
        self.link = Link(hal, self)
        self.journal.listener = self._on_event
        self.input = Input(self.profile)
        self.rend = render.Renderer(self.profile)
        # the LED map and colours now live in the renderer's tables and the key map in the HAL's
        # and the input's: free the parsed JSON (heap is scarce)
        for k in ("leds", "colours", "input", "about"):
            self.profile.pop(k, None)
        self.seed = hal.seed() & 0x7FFFFFFF or 1
        self.bots = {}
        if lit_first and self.journal.settings["current"]:
            from bgapp.glance import lit    # the game's position lit while its record is
            lit(self)                       # checked (its code off the heap after)
            unload("glance")
            gc.collect()
        if not lit_first or self.journal.settings["current"]:
            intern_names()
            # the move view's native loops, then the network, now, while the heap is in one
            # piece: a resumed record's replay leaves it in pieces (a 26-game chouette's: 200 KB
            # free, none of them 11 KB in a row)
            moves.natives()
            self.bot(6)
        self.game = None          # the game in progress (bgapp.game.Game), None: none
        self.over = None          # the game's views (game_views): roll, move, cube, bot_turn,
                                  # anim, over
        self.demo = None          # the DEMO view while a demo runs
        self.view = None          # type: game.View  # the active view
        self.play = None          # type: game.View  # the game's view (unless menu or pips is active)
        self.pending = None       # the timer: (function, due ticks)
        self.naming = None        # the name entry after a ranked win (view_name), while due
        self.confirm = ""         # a key pressed once to unrank a ranked game, to press again
        self.unsettled = False    # a pass faulted: the game's view is chosen again (settle)
        self.message = ""
        self.flash = 0            # ticks until which a refusal is shown
        self.fast = False
        self.dirty = True
        self.unsaved = False      # a menu key changed the settings: written after the frame,
        self.quiet_at = None      # once the board's keys are quiet (ticks; None: at once)
        self.sent = 0             # when the last frame went out on WATCH
        self.stale = False        # a newer frame is waiting to go out
        self.note = self.journal.settings_note or ""
        b = self.journal.settings["bright"]
        self.bright = b if b >= 0 else self.profile["brightness"]["default"]
        if self.journal.settings["current"] or not lit_first:
            self.game_views()
            self.resume()
        if not self.game:
            self.to_menu()          # (the game's views load once it is lit: run)

    def game_views(self):
        """Load the views that play a game (at power-up the menu is lit before they load)."""
        if self.over:
            return
        from bgapp.view_roll import RollView
        from bgapp.view_move import MoveView
        from bgapp.view_cube import CubeView
        from bgapp.view_bot import BotView
        from bgapp.view_anim import AnimView
        from bgapp.view_over import OverView
        self.roll = RollView(self)
        self.move = MoveView(self)
        self.cube = CubeView(self)
        self.bot_turn = BotView(self)
        self.anim = AnimView(self)
        self.over = OverView(self)
        if self.play is None:
            self.play = self.over

    # ---- the game in progress ----------------------------------------------------------------
    def resume(self):
        """At power-up (and after a failed write): replay the record in progress."""
        j = self.journal
        name = j.settings["current"]
        if not name:
            return
        try:
            rep, info, torn = j.resume(name)
        except MemoryError:
            return self._resume_later()
        except Exception as e:          # damaged or unreadable: say so, start clean
            self.note = "%s cannot be resumed: %s" % (name, e)
            j.close()
            j.settings["current"] = ""
            j.save_settings()
            return
        if rep.ended:                   # finished: never to be resumed again
            j.finished()
            j.close()
            return
        try:
            if hasattr(rep, "line"):
                from bgapp.chouette import ChouetteGame
                self.game = ChouetteGame(self, rep)
            else:
                self.game = game.Game(self, rep, (info.get("p0", ""), info.get("p1", "")))
        except MemoryError:         # the replay fitted, the game made from it did not
            return self._resume_later()
        if info.get("ranked") == "1":
            from bgapp import rankplay
            rankplay.resume(self, self.game, info)
            rankplay.drop()
        if torn:
            self.note = "resumed; " + torn
        self.play.leave()         # what the old game's view held (a move's plays) goes with it
        self.play = self.over
        self.go(self.over)
        self.changed()

    def _resume_later(self):
        # a resume short of heap, not a damaged record: it stays the game in progress, and a
        # power-up (a heap in one piece) resumes it; the words are made already (no room to
        # format them)
        self.journal.close()
        self.note = RESUME_LATER

    def reload(self, note):
        """An event did not reach flash: forget the state in memory, replay the record."""
        self.journal.close()
        self.game = None
        self.anim.hops = None
        self.pending = None
        self.note = ""
        gc.collect()
        self.resume()
        if not self.game:
            self.to_menu()
        if self.note is not RESUME_LATER:     # (that one says what to do)
            self.note = note

    def new_match(self, demo=False):
        """A new match from the settings; returns why not (the flash is nearly full) or None."""
        self.game_views()
        why = None if demo else self.room("no_room")
        if not why and not demo and self.journal.settings["ranked"]:
            from bgapp import rankplay      # (the menu's OK and the game-over screen's alike)
            why = rankplay.can_start(self.journal.settings)
            rankplay.drop()
        if why:
            return why
        self.end_session()
        self.play.leave()         # what the old game's view held (a move's plays) goes with it
        self.play = self.over
        self.go(self.over)            # the menu's code leaves the heap before the game comes
        self.game = game.new(self, demo)
        self.game.begin(1)
        self.changed()
        return None

    def new_chouette(self):
        self.game_views()
        why = self.room("no_room")
        if why:
            return why
        self.end_session()
        self.play.leave()         # what the old game's view held (a move's plays) goes with it
        self.play = self.over
        self.go(self.over)
        gc.collect()                  # the chouette's code wants room in one piece
        from bgapp.view_chouette import start
        self.game = start(self)
        unload("view_chouette")       # the set-up's code leaves with the set-up
        self.game.begin(1)
        self.changed()
        return None

    def room(self, what, *args):
        """bgapp.room's `what` (no_room or discard), its code on the heap only meanwhile."""
        from bgapp import room
        out = getattr(room, what)(self.journal, *args)
        unload("room")
        return out

    def end_session(self):
        g = self.game
        if g:
            j = self.journal
            if j.f and not j.played and not getattr(g, "ranked", None):
                self.room("discard")    # a game with no move leaves no record behind
            else:
                g.end_session()
        self.journal.close()
        self.game = None

    def changed(self):
        """After events: the view for the game's state becomes the game's view (and the active
        one, unless the menu or the pips view is showing)."""
        shed()
        v = self.game_view()
        if v is not self.play:
            self.play.leave()
        if self.view is self.play:
            self.view = v
        self.play = v
        v.enter()
        self.dirty = True

    def game_view(self):
        g = self.game
        if self.anim.hops:
            return self.anim
        if g.demo:
            return self.demo
        m = g.m
        ph = m.phase
        if g.ch:
            v = g.view()              # a chouette's own screens (bgapp.chouette)
            if v:
                return v
        if ph in (GAME_OVER, MATCH_OVER) and "SEED" in g.rep.ranked:
            from bgcore.ranked import due
            if due(g.rep):            # a ranked win: the name and country to enter
                if not self.naming:
                    self.naming = load("view_name", "NameView")(self)
                return self.naming
        if self.naming:
            self.naming = None
            unload("view_name")
        if g.rep.ended or g.ch and g.ch.ended or ph in (GAME_OVER, MATCH_OVER):
            return self.over
        if ph == OPENING:
            return self.roll
        if g.resigning:
            return load("view_resign", "ResignView")(self)
        p = g.actor()
        if g.who[p] is not None and g.keyin != p:
            return self.bot_turn
        if ph == DOUBLED:
            return self.cube
        if ph == MOVE:
            return self.move
        return self.roll

    def go(self, view):
        """Make `view` the active view."""
        old = self.view
        self.view = view
        self.dirty = True
        if old is not None and old.transient and old.module != view.module:
            unload(old.module)
            gc.collect()

    def to_menu(self):
        self.go(load("view_menu", "MenuView")(self))

    def show_pips(self):
        if not self.game:
            return "no game in progress"
        v = load("view_pips", "PipsView")(self)
        self.go(v)
        v.check()
        return None

    def show_best(self, level, entry=None):
        """The best-wins view for `level` (`entry`: a win just named, to put on the table)."""
        v = load("view_best", "BestView")(self)
        v.show(level, entry)
        self.go(v)
        return None

    def roll_dice(self):
        g = self.game
        if g and g.ranked:        # a ranked game's dice come from its committed seed
            return g.ranked.roll(g.rep)
        # xorshift32 seeded from the hardware: two dice
        x = self.seed
        out = []
        while len(out) < 2:
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            v = x & 7
            if v < 6:
                out.append(v + 1)
        self.seed = x
        return out

    def bot(self, level):
        b = self.bots.get(level)
        if b is None:
            from bgcore.bot import Bot
            b = self.bots[level] = Bot(level, self.seed)
            b.tick = self.hal.feed            # the watchdog fed inside a long move's scoring
        return b

    def start_demo(self, n, fast):
        if self.demo:
            return "a demo is running (MENU stops it)"
        self.game_views()
        why = self.room("no_room", n)
        if why:
            return why
        self.demo = load("view_demo", "DemoView")(self)
        self.demo.start(n, fast)
        return None

    def _on_event(self, payload):
        self.link.event("EV " + payload)

    # ---- the main loop -----------------------------------------------------------------------
    def run(self):
        try:
            if 6 not in self.bots:  # (lit_first) the first frame, then what a game needs
                feed = self.hal.feed    # (each step a few hundred ms on the chip: fed between;
                self.show()             # the network before the views, its 11 KB block while
                feed()                  # the heap is in one piece)
                intern_names()
                feed()
                self.bot(6)
                feed()
                self.game_views()
            self._loop()
        except KeyboardInterrupt:
            from bgapp.fault import give_back
            give_back(self)
            raise

    def _loop(self):
        hal = self.hal
        pause = getattr(hal, "pause", hal.sleep_ms)     # (rp2: over when a key comes)
        while True:
            waiting = False
            link = self.link
            try:
                waiting = self.pass_once()
                link.retake()           # (a pass that did not run out: the reserve back)
            except Exception as e:
                # nothing in a pass may stop the board (found by the soak: a fault after a key's
                # work, in its frame or a flash write, left the board at MicroPython's prompt)
                try:
                    self.fault(e)
                except Exception:           # (out of memory even for the message)
                    self.pending = None
                    gc.collect()
            hal.feed()
            if not waiting:
                pause(5)

    def pass_once(self):
        """One pass of the main loop: the link's requests, the keys, the timer, then the frame
        and the writes a step or a setting left. True when requests are still waiting."""
        hal = self.hal
        keyed = False
        waiting = self.link.poll()   # requests waiting: read on without a pause
        for k in hal.keys():
            keyed = True
            lk = self.input.key(k)
            self.dirty = True
            if lk:
                self.link.let_go()      # (a key on the board, as a request: the link's
                                        # emergency reserve's room)
                self.press(lk, True)
        if keyed:
            self.quiet_at = time.ticks_add(hal.ticks_ms(), _QUIET_MS)
        self.tick()
        hal.feed()                  # (the work of a key or a request, then its frame)
        if self.dirty:
            self.show()
        if self.game and self.game.held:    # the step's answer is lit: now the flash write
            self.write_held()
        if self.unsaved and (self.quiet_at is None or time.ticks_diff(
                hal.ticks_ms(), self.quiet_at) >= 0):   # lit, and the keys quiet: the write
            self.save_settings()
        if keyed:                   # the garbage of a key's answer collected now, not in
            gc.collect()            # the middle of the next one's
            self.link.owed = False  # (the reserve let go for the key is free again: the loop
                                    # takes it back without collecting twice)
            if self.did:
                self.did("gc")
        return waiting

    def fault(self, e):
        """What a pass of the loop could not finish: the board says why and goes on (the heap's
        faults here, the others in bgapp.fault, loaded when one comes). The game's view is
        chosen again at the next key or tick (settle)."""
        self.pending = None
        self.dirty = True
        self.unsettled = True
        if isinstance(e, MemoryError):
            # nothing was written (events are checked before they go to flash)
            if self.link.reserve is not None:
                # the emergency reserve's room for the next pass, which does the same work
                # again (the bot's turn, the timer's step), quietly (a key on the board or
                # a request had the reserve's room already: they come here without it)
                self.link.let_go()
                gc.collect()
                return
            # no reserve left: say so, free what can be freed and carry on (the view tries
            # again once there is room; the reserve too, after a collection)
            self.link.let_go()
            self.move.drop()
            gc.collect()
            self.message = "out of memory"
            self.link.event("NO out of memory")
        else:
            from bgapp.fault import said
            said(self, e)
            unload("fault")

    def settle(self):
        """After a fault: the view for the game's state becomes the game's view if it is not
        (an event recorded, then the heap ran out before its view was set: the chouette's bot
        offered a cube and its old view went on rolling, refused again and again)."""
        self.unsettled = False
        if self.game and self.game_view() is not self.play:
            self.changed()

    def tick(self):
        if self.unsettled:
            self.settle()
        now = self.hal.ticks_ms()
        if self.stale and time.ticks_diff(now, self.sent) >= _FRAME_MS:
            self.dirty = True
        if self.pending:
            f, due = self.pending
            if time.ticks_diff(now, due) < 0:
                return
            self.pending = None
            if self.did:
                self.did(f.__name__)
            f()
            self.dirty = True
            return
        if self.flash and time.ticks_diff(now, self.flash) >= 0:
            self.flash = 0
            self.dirty = True
        if self.view.playing and self.game and self.view is not self.halted:
            if self.did:
                self.did(type(self.view).__name__)
            self.view.tick()

    def later(self, ms, f):
        """Call f after ms (at once with FAST on); one timer: it replaces what was due."""
        if self.fast:
            ms = 0
        self.pending = (f, time.ticks_add(self.hal.ticks_ms(), ms))

    # ---- keys --------------------------------------------------------------------------------
    def press(self, key, lit_first=False):
        """A logical key, from the board or the link. Returns None when it was taken, else the
        reason it was refused (shown on the board). A step it makes is on flash when it returns,
        unless `lit_first` (a key on the board itself): then its answer is lit first and the
        step written right after the frame (the loop; bgapp.game.Game.ev's `held`)."""
        self.dirty = True
        if self.last_fault:       # a fault may be said again, the view that failed ticked
            self.last_fault = self.halted = None
        if self.unsettled:
            self.settle()
        if self.unsaved and not lit_first:  # (a key from the link: the last one's settings;
            self.save_settings()            # the board's own wait for the quiet, App._loop)
        if not self.pending:
            self.message = ""
        if key != self.confirm:
            self.confirm = ""
        try:
            if self.game and self.game.held:    # (a key handled outside the loop: the last
                self.game.write_held()          # one's step)
            why = self._route(key)
            if not lit_first and self.game and self.game.held:
                self.game.write_held()
        except WriteFailed as e:        # the game is back where its record is: refused
            why = str(e)
        if why:
            self.refused(why)
        return why

    def refused(self, why):
        """Show why a key was refused (or its step not recorded), beep and send !NO."""
        self.message = why
        self.flash = time.ticks_add(self.hal.ticks_ms(), 1200)
        self.hal.beep(80)
        self.link.event("NO " + why)

    def write_held(self):
        """A person's step, shown, goes to flash (bgapp.game.Game.ev's `held`); if it cannot,
        the game is back where its record is and the board says why."""
        if self.did:
            self.did("step")
        try:
            self.game.write_held()
        except WriteFailed as e:
            self.refused(str(e))
            self.dirty = True
        except MemoryError:
            gc.collect()
            self.refused("out of memory")
            self.dirty = True

    def save_settings(self):
        if self.did:
            self.did("settings")
        self.unsaved = False
        self.quiet_at = None
        try:
            self.journal.save_settings()
        except OSError as e:
            # the flash refused the write (full): the settings stay in use until the next save
            self.message = ("settings not saved: flash full; pull the records (bgboard logs "
                            "pull --delete)" if e.args and e.args[0] == 28 else
                            "settings not saved (%s)" % e)
            self.link.event("NO " + self.message)
            self.dirty = True

    def _route(self, key):
        v = self.view
        if self.demo:
            return self.demo.key(key)
        if key == "MENU":
            if v.name == "menu":
                return v.key("UNDO")
            self.save_settings()
            self.to_menu()
            return None
        if key == "PIPS":
            return self.show_pips()
        if v.playing and self.pending:
            return "wait: the board is busy"
        if key == "RESIGN" and v.playing and not self.game.resigning:
            return load("view_resign", "offer")(self)
        return v.key(key)

    # ---- showing -----------------------------------------------------------------------------
    def show(self):
        self.dirty = False
        r = self.rend
        r.clear()
        v = self.view
        v.draw(r)
        if v.playing and self.input.cursor >= 0:
            render.cursor(self, r)
        self.hal.brightness = self.bright
        self.hal.show(r.frame)
        if self.link.watching:
            # frames go out at most every _FRAME_MS (a fast demo changes the LEDs far more
            # often than a serial port carries 1.5 KB lines); the last one always follows
            now = self.hal.ticks_ms()
            if time.ticks_diff(now, self.sent) >= _FRAME_MS:
                # (out of memory, nothing goes out: the frame follows at the next pass)
                self.stale = not self.link.frame(self.bright, r.frame)
                self.sent = now
            else:
                self.stale = True
        lines = v.lines()
        self.hal.text(lines)
        self.link.event("TEXT " + "|".join(lines))

    def state_into(self, add):
        """STATE's fields, piece by piece to add(str): no string of the whole line is made (a
        chouette's is ~600 bytes, more than a long session's heap may hold in one piece)."""
        s = self.journal.settings
        add("view=%s" % self.view.name)
        g = self.game
        if g:
            p = self.play
            add(" ")
            g.fields(add)
            add(" wait=%s%s" % ("board" if self.pending else p.waits, p.state()))
            w = g.rep.warning
            if w:
                add(" warning=%s:%d" % (w[1], w[2]))
        add(" demo=%d settings=%s,%d,%d,%d tutor=%d" % (
            self.demo.left if self.demo else 0, "ranked" if s["ranked"] else s["mode"],
            s["length"], s["opponent"], self.bright, s["tutor"]))
        free = self.journal.free()
        if free is not None:
            add(" free=%d" % (free // 1024))
        if self.did:
            self.did("gc")
        gc.collect()
        add(" heap=%d" % gc.mem_free())
        bot = sys.modules.get("bgcore.bot")
        if bot:
            add(" bot=" + bot.scan_code())
        gap = getattr(self.hal, "feed_gap", None)
        if gap is not None:           # the virtual board: the longest gap between feeds (µs)
            add(" feedgap=%d gapwhat=%s" % (gap, self.hal.gap_job))


# bgcore modules a game loads now and then and does not keep: the record's check of a play
# (notation: ~8 KB on the unix port; readplay, which notation holds: ~4 KB) and the bot's cube
# decisions (cube, met: ~7 KB). They are taken off the heap after each event (App.changed),
# before the next roll's plays are made, and imported again when needed. (Not while
# bgcore.tutor, which holds bgcore.cube, is loaded: a second copy would cost more than the first.)
_SHED = ("bgcore.notation", "bgcore.readplay", "bgcore.cube", "bgcore.met", "bgcore.resume")
_KEPT_BY_TUTOR = ("bgcore.cube", "bgcore.met", "bgcore.resume")


def shed():
    mods = sys.modules
    for name in _SHED:
        if name in _KEPT_BY_TUTOR and "bgcore.tutor" in mods:
            continue
        if name in mods:
            drop(name)


def drop(name):
    """Take module `name` (dotted) off the heap: out of sys.modules and its package."""
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    pkg = sys.modules.get(pkg)
    if pkg and hasattr(pkg, attr):
        delattr(pkg, attr)


def intern_names():
    """Every name of the firmware interned at power-up, once the first frame is lit, while the
    heap is in one piece: importing bgnames (made by bgboard.build.names_module) does it, and
    MicroPython's table for names past the 1,260th (14 KB in one block) comes now, not when a
    long session first meets a new name in a heap in pieces. Nothing when the firmware runs
    from its .py sources."""
    try:
        import bgnames      # type: ignore[import-not-found]  # (made by the build)
    except ImportError:
        return
    except MemoryError:     # (no room even now: the names come one by one, as they are met)
        pass
    drop("bgnames")


def load(module, cls):
    """A view class from bgapp.<module>, imported now (see unload)."""
    return getattr(__import__("bgapp." + module, None, None, (cls,)), cls)


def unload(module):
    """Drop bgapp.<module> so that its code leaves the heap (it is imported again when needed)."""
    drop("bgapp." + module)
