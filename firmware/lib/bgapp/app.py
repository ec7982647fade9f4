# The board's application: a state machine over actions (logical keys from the board or from the
# serial link, and the passing of time). Every game event is applied to a record Replay (so the
# state in memory is always what replaying the record gives), appended to the record on flash,
# and only then shown. Views: "menu" (settings, new game), "play", "pips" (pip counts and a check
# of the record on flash). The bot plays its turns step by step with pauses, as does DEMO.

import gc
import time

from micropython import const

from bgcore.bot import Bot      # first: the network's tables need large unbroken blocks
from bgcore.match import Rules, OPENING, TURN, MOVE, DOUBLED, GAME_OVER, MATCH_OVER
from bgcore.record import Replay, RecordError

from bgapp.journal import Journal
from bgapp.link import Link
from bgapp.input import Input
from bgapp import moves, render

THINK_MS = const(500)     # the bot's pause before acting
HOP_MS = const(450)       # between the checker steps of an animated play
PASS_MS = const(1500)     # showing "no legal play" before the turn passes
OVER_MS = const(2500)     # a demo game's result on show
FRAME_MS = const(100)     # WATCH: at most ten LED frames a second


class App:
    from bgcore import __version__ as FW     # the firmware version: bgcore's, in one place

    def __init__(self, hal):
        self.hal = hal
        self.profile = hal.profile
        self.journal = Journal(hal)
        self.link = Link(hal, self)
        self.journal.listener = self._on_event
        self.input = Input(self.profile)
        self.rend = render.Renderer(self.profile)
        # the LED map now lives in the renderer's tables: free the parsed JSON (heap is scarce)
        self.profile.pop("leds", None)
        self.profile.pop("about", None)
        self.seed = hal.seed() & 0x7FFFFFFF or 1
        self.bots = {}
        self.bot(6)               # load the network now, while the heap is in one piece
        self.view = "menu"
        self.rep = None           # Replay of the record being played (None: no game)
        self.who = (None, None)   # bot level of player 0 / 1, None for a person
        self.names = ("", "")
        self.opts = {}            # during a person's move: source -> {destination: steps}
        self.complete = None      # the Play the steps so far make, when complete
        self.plays = None
        self.sel = -1             # selected source point (mover's numbering), -1 none
        self.hint = None          # the hint's steps, shown until the next change
        self.last = None          # (player, moves) of the last play, highlighted
        self.anim = None          # [raw bytes of the board, mover, remaining steps]
        self.pending = None       # (function, due ticks)
        self.entry = []           # dice keyed in (real dice)
        self.keyin = -1           # real dice: the computer player whose roll is keyed in
        self.opening = None       # the opening dice of each side, shown until the first play
        self.message = ""
        self.flash = 0            # ticks until which a refusal is shown
        self.demo = 0             # demo games left (0: no demo)
        self.fast = False
        self.dirty = True
        self.sent = 0             # when the last frame went out on WATCH
        self.stale = False        # a newer frame is waiting to go out
        self.note = self.journal.settings_note or ""
        b = self.journal.settings["bright"]
        self.bright = b if b >= 0 else self.profile["brightness"]["default"]
        self._resume()

    # ---- start-up ----------------------------------------------------------------------------
    def _resume(self):
        name = self.journal.settings["current"]
        if not name:
            return
        try:
            rep, info, torn = self.journal.resume(name)
        except Exception as e:          # damaged or unreadable: say so, start clean
            self.note = "%s cannot be resumed: %s" % (name, e)
            self.journal.close()
            self.journal.settings["current"] = ""
            self.journal.save_settings()
            return
        if rep.ended:
            self.journal.close()
            return
        self.rep = rep
        self.names = (info.get("p0", ""), info.get("p1", ""))
        self.who = (_level(self.names[0]), _level(self.names[1]))
        self.view = "play"
        if torn:
            self.note = "resumed; " + torn
        self._after_change()

    # ---- the main loop -----------------------------------------------------------------------
    def run(self):
        hal = self.hal
        while True:
            self.link.poll()
            try:
                for k in hal.keys():
                    lk = self.input.key(k)
                    self.dirty = True
                    if lk:
                        self.press(lk)
                self.tick()
            except MemoryError:
                # nothing was written (events are checked before they go to flash): say so,
                # free what can be freed and carry on
                self.pending = None
                self.plays = None
                gc.collect()
                self.message = "out of memory"
                self.link.event("NO out of memory")
            except Exception as e:      # a fault must not stop the board: report it, go on
                self.pending = None
                self.anim = None
                self.message = "error: %r" % e
                self.link.event("ERROR %r" % e)
                hal.sleep_ms(200)
            if self.dirty:
                self.show()
            hal.feed()
            hal.sleep_ms(5)

    def tick(self):
        now = self.hal.ticks_ms()
        if self.stale and time.ticks_diff(now, self.sent) >= FRAME_MS:
            self.dirty = True
        if self.pending:
            f, due = self.pending
            if time.ticks_diff(now, due) < 0:
                return
            self.pending = None
            f()
            self.dirty = True
            return
        if self.flash and time.ticks_diff(now, self.flash) >= 0:
            self.flash = 0
            self.dirty = True
        if self.view == "play" and self.rep:
            self._auto()

    def later(self, ms, f):
        if self.fast:
            ms = 0
        self.pending = (f, time.ticks_add(self.hal.ticks_ms(), ms))

    # ---- events ------------------------------------------------------------------------------
    def ev(self, payload):
        """Apply one record event to the state, write it to flash, then let it be shown."""
        self.rep.event(payload.split())
        try:
            self.journal.append(payload)
        except (OSError, MemoryError) as e:
            # not on flash, so it did not happen: back to what the record says
            self.journal.close()
            self.rep = None
            gc.collect()
            self._resume()
            self.note = "flash write failed (%s): %s not recorded" % (e, payload)
        self.dirty = True

    def _on_event(self, payload):
        self.link.event("EV " + payload)

    @property
    def m(self):
        return self.rep.match

    def _roll(self):
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
            b = self.bots[level] = Bot(level, self.seed)
        return b

    def actor(self):
        """The player the board waits for now (None when nobody)."""
        m = self.m
        if m.phase == DOUBLED:
            return 1 - m.offered_by
        if m.phase in (TURN, MOVE):
            return m.turn
        return None

    # ---- games -------------------------------------------------------------------------------
    def new_match(self, demo=False):
        s = self.journal.settings
        self._end_session()
        if demo:
            rules = Rules("nocube")
            names = ("bot:6", "bot:6")
        else:
            if s["mode"] == "match":
                rules = Rules("match", s["length"])
            elif s["mode"] == "money":
                rules = Rules("money", 0, s["jacoby"], s["beavers"], s["auto"])
            else:
                rules = Rules("nocube")
            names = ("you", "bot:%d" % s["opponent"]) if s["opponent"] else ("player1", "player2")
        self.rep = Replay(rules, names, history=False)
        self.names = names
        self.who = (_level(names[0]), _level(names[1]))
        self.journal.start(rules, names, self.FW, in_progress=not demo)
        self.last = None
        self.view = "play"
        self.ev("GAME 1")
        self._after_change()

    def _end_session(self):
        # a money or single-game session ends when a new one starts: its record gets MATCHEND
        if self.rep and not self.rep.ended and self.m.rules.mode != "match" and self.journal.f:
            sc = self.m.score
            self.ev("MATCHEND %d %d %d" % (0 if sc[0] >= sc[1] else 1, sc[0], sc[1]))
        self.journal.close()
        self.rep = None

    def _game_over(self):
        m = self.m
        w, pts, how = m.result
        self.ev("END %d %d %s" % (w, pts, how))
        if m.phase == MATCH_OVER:
            self.ev("MATCHEND %d %d %d" % (w, m.score[0], m.score[1]))
            if self.journal.settings["current"] == self.journal.name:
                self.journal.settings["current"] = ""
                self.journal.save_settings()

    def _next_game(self):
        self.last = None
        self.ev("GAME %d" % (self.m.game + 1))
        self._after_change()

    # ---- what the board does by itself -------------------------------------------------------
    def _auto(self):
        if self.anim:
            return
        m = self.m
        if self.rep.ended:
            return
        ph = m.phase
        if ph == OPENING:
            if self.demo:
                self.later(THINK_MS, self._open)
            return
        if ph in (GAME_OVER, MATCH_OVER):
            if self.demo:
                self.later(OVER_MS, self._demo_next)
            return
        p = self.actor()
        level = self.who[p]
        if self.keyin >= 0:
            return                    # waiting for a person to key in the computer's dice
        if level is None:
            if ph == MOVE and not self.plays:
                self.message = "no legal play"
                self.later(PASS_MS, self._pass)
                return
            if ph == MOVE and self.complete and len(self.plays) == 1 and not self.rep.steps \
                    and self.journal.settings["forced"]:
                self.later(THINK_MS, self._forced)
            return
        self.later(THINK_MS, self._bot_act)

    def _pass(self):
        if self.m.phase == MOVE and not self.plays:
            self.message = ""
            self.ev("MOVE %d" % self.m.turn)
            self._after_change()

    def _forced(self):
        m = self.m
        if m.phase == MOVE and self.plays and len(self.plays) == 1 and not self.rep.steps:
            self._play(self.plays[0], animate=True)

    def _bot_act(self):
        m = self.m
        p = self.actor()
        if p is None or self.who[p] is None:
            return
        bot = self.bot(self.who[p])
        if m.phase == TURN:
            if m.cube_available(p) and bot.wants_double(m):
                self.ev("DOUBLE %d %d" % (p, m.cube * 2))
            elif self.journal.settings["real"] and not self.demo:
                self.keyin = p
                return
            else:
                d = self._roll()
                self.ev("ROLL %d %d %d" % (p, d[0], d[1]))
        elif m.phase == DOUBLED:
            if bot.takes(m):
                self.ev("TAKE %d" % p)
            else:
                self.ev("DROP %d" % p)
                self._game_over()
        elif m.phase == MOVE:
            d1, d2 = m.dice
            gc.collect()
            play = bot.choose(m.pos, d1, d2)
            if play is None:
                self.message = "%s: no legal play" % self.names[p]
            self._play(play, animate=True)
            return
        self._after_change()

    def _play(self, play, animate):
        m = self.m
        p = m.turn
        before = m.pos.raw
        hops = play.moves if play else ()
        # the plays' buffers go before the record's check of the play builds its own
        play = None
        self.plays = None
        self.complete = None
        self.opts = {}
        gc.collect()
        self.ev("MOVE %d %s" % (p, " ".join("%d/%d" % s for s in hops)))
        self.opening = None
        self.last = (p, hops)
        if animate and hops and not self.fast:
            self.anim = [bytearray(before), p, list(hops)]
            self.later(HOP_MS, self._hop)
        if m.phase in (GAME_OVER, MATCH_OVER):
            self._game_over()
        self._after_change()

    def _hop(self):
        raw, p, steps = self.anim
        s, t = steps.pop(0)
        moves.step(raw, s, t)
        if steps:
            self.later(HOP_MS, self._hop)
        else:
            self.anim = None
            self.later(THINK_MS, _nothing)

    def _open(self):
        d = self._roll()
        self._opened(d[0], d[1], "")
        self._after_change()

    def _opened(self, d0, d1, real):
        self.ev("OPEN %d %d%s" % (d0, d1, real))
        self.opening = (d0, d1)
        if d0 == d1:
            self.message = "opening roll %d-%d: a tie, roll again" % (d0, d1)

    def _demo_next(self):
        if self.m.phase == GAME_OVER and self.demo > 1:
            self.demo -= 1
            self._next_game()
            return
        self._demo_stop()

    def _demo_stop(self):
        self.demo = 0
        self.fast = self.was_fast
        self._end_session()
        self.link.event("DEMO END")
        self.view = "menu"
        self._resume()

    def start_demo(self, n, fast):
        if self.demo:
            return "a demo is running (MENU stops it)"
        self.journal.close()
        self.rep = None
        self.anim = None
        self.pending = None
        self.demo = n
        self.was_fast = self.fast
        self.fast = fast or self.fast
        self.new_match(demo=True)
        return None

    # ---- after every change: what a person may do now ----------------------------------------
    def _after_change(self):
        self.sel = -1
        self.hint = None
        self.opts = {}
        self.complete = None
        m = self.m
        if m.phase != MOVE:
            self.plays = None
            self.entry = []
            return
        if self.who[m.turn] is not None:
            self.plays = None         # the bot finds its own plays
            return
        if self.plays is None:
            gc.collect()
            self.plays = m.pos.plays(*m.dice)
        self._options()

    def _options(self):
        self.opts, self.complete = moves.options(self._board(), self.plays, self.rep.steps)

    def _board(self):
        raw = bytearray(self.m.pos.raw)
        for s, t in self.rep.steps:
            moves.step(raw, s, t)
        return raw

    # ---- keys --------------------------------------------------------------------------------
    def press(self, key):
        """A logical key, from the board or the link. Returns None when it was taken, else the
        reason it was refused (shown on the board)."""
        self.dirty = True
        if not self.pending:
            self.message = ""
        why = self._press(key)
        if why:
            self.message = why
            self.flash = time.ticks_add(self.hal.ticks_ms(), 1200)
            self.hal.beep(80)
            self.link.event("NO " + why)
        return why

    def _press(self, key):
        if self.demo:
            if key in ("MENU", "BACK"):
                self._demo_stop()
                return None
            return "a demo is running (MENU stops it)"
        if key == "MENU":
            if self.view == "menu":
                if not self.rep:
                    return "no game to go back to: OK starts one"
                self.view = "play"
            else:
                self.view = "menu"
            self.journal.save_settings()
            return None
        if key == "PIPS" or (self.view == "menu" and key == "P24"):
            if not self.rep:
                return "no game in progress"
            self.view = "pips"
            self._verify()
            return None
        if self.view == "pips":
            self.view = "play"
            return None
        if self.view == "menu":
            return self._menu_key(key)
        if self.anim or self.pending:
            return "wait: the board is busy"
        return self._play_key(key)

    def _play_key(self, key):
        m = self.m
        ph = m.phase
        if self.rep.ended:
            if key == "OK":
                self.new_match()
                return None
            return "the match is over: OK starts a new one"
        real = self.journal.settings["real"]
        if ph in (GAME_OVER, MATCH_OVER):
            if key != "OK":
                return "the game is over: OK starts the next"
            if ph == MATCH_OVER:
                self.new_match()
            else:
                self._next_game()
            return None
        if ph == OPENING:
            if real:
                return self._dice_key(key, -1)
            if key != "OK":
                return "OK rolls the opening dice"
            self._open()
            return None
        p = self.actor()
        if self.who[p] is not None:
            if self.keyin == p and ph == TURN:
                return self._dice_key(key, p)
            return "it is the computer's turn"
        if ph == TURN:
            if key == "DOUBLE":
                if not m.cube_available(p):
                    return "you cannot double now"
                self.ev("DOUBLE %d %d" % (p, m.cube * 2))
                return None
            if real:
                return self._dice_key(key, p)
            if key != "OK":
                return "OK rolls%s" % (", DOUBLE doubles" if m.cube_available(p) else "")
            d = self._roll()
            self.ev("ROLL %d %d %d" % (p, d[0], d[1]))
            self._after_change()
            return None
        if ph == DOUBLED:
            if key == "OK":
                self.ev("TAKE %d" % p)
            elif key == "UNDO":
                self.ev("DROP %d" % p)
                self._game_over()
            elif key == "DOUBLE" and m.rules.beavers and not m.beavered:
                self.ev("BEAVER %d %d" % (p, m.cube * 2))
            else:
                return "doubled: OK takes, UNDO drops" + (", DOUBLE beavers"
                                                          if m.rules.beavers else "")
            return None
        return self._move_key(key, p)

    def _dice_key(self, key, p):
        if not (key[0] == "P" and key[1:].isdigit() and 1 <= int(key[1:]) <= 6):
            return "key in the dice: P1-P6"
        self.entry.append(int(key[1:]))
        if len(self.entry) == 2:
            a, b = self.entry
            self.entry = []
            if p < 0:
                self._opened(a, b, " real")
            else:
                self.ev("ROLL %d %d %d real" % (p, a, b))
                self.keyin = -1
            self.message = ""
            self._after_change()
        return None

    def _move_key(self, key, p):
        m = self.m
        if key == "HINT":
            d1, d2 = m.dice
            play = self.bot(6).hint(m.pos, d1, d2)
            self.hint = play.moves if play else ()
            self.message = "hint: %s" % (play if play else "no legal play")
            return None
        if key == "UNDO":
            if self.sel >= 0:
                self.sel = -1
                return None
            if not self.rep.steps:
                return "nothing to undo"
            self.ev("UNDO %d" % p)
            self._after_change()
            return None
        if key == "OK":
            if not self.complete:
                return "the play is not complete"
            self._play(self.complete, animate=False)
            return None
        pt = moves.point(key, p)
        if pt < 0:
            return "not a point"
        if self.sel < 0 or (pt != self.sel and pt in self.opts and pt not in self.opts[self.sel]):
            if pt not in self.opts:
                return "no checker to move from %s" % moves.where(key)
            self.sel = pt
            return None
        if pt == self.sel:
            self.sel = -1
            return None
        steps = self.opts[self.sel].get(pt)
        if steps is None:
            return "cannot move from %s to %s" % (moves.where_pt(self.sel, p), moves.where(key))
        for s, t in steps:
            self.ev("STEP %d %d %d" % (p, s, t))
        self._after_change()
        if self.complete and self.journal.settings["confirm"]:
            self._play(self.complete, animate=False)
        return None

    # ---- menu --------------------------------------------------------------------------------
    def _menu_key(self, key):
        s = self.journal.settings
        n = int(key[1:]) if key[0] == "P" and key[1:].isdigit() else 0
        if key == "OK":
            self.journal.save_settings()
            self.new_match()
            return None
        if key == "UNDO":
            if not self.rep:
                return "no game to go back to: OK starts one"
            self.view = "play"
            self.journal.save_settings()
            return None
        if 1 <= n <= 6:
            s["opponent"] = n
        elif n == 7:
            s["opponent"] = 0
        elif 8 <= n <= 10:
            s["mode"] = ("nocube", "money", "match")[n - 8]
        elif n == 11:
            s["length"] = max(1, s["length"] - 1)
        elif n == 12:
            s["length"] = min(25, s["length"] + 1)
        elif 13 <= n <= 18:
            k = ("jacoby", "beavers", "auto", "confirm", "forced", "real")[n - 13]
            s[k] = 1 - s[k]
        elif n in (19, 20):
            cap = self.profile["brightness"]["max"]
            self.bright = max(4, min(cap, self.bright + (-8 if n == 19 else 8)))
            s["bright"] = self.bright
        else:
            return "not a menu choice (P1-P20, P24 pips, OK new game, MENU back)"
        self.journal.save_settings()    # remembered at once, across power cuts
        return None

    def _verify(self):
        # replay the record on flash and compare it with the state in memory
        from bgcore.record import replay
        m = self.m
        try:
            with open(self.journal.path(self.journal.name)) as f:
                rep, info, torn = replay(f, history=False)
            ok = (rep.match.pos == m.pos and rep.match.match_id() == m.match_id()
                  and rep.steps == self.rep.steps)
            self.message = "record %s %s" % (self.journal.name, "verified" if ok
                                              else "DIFFERS from the game")
        except (RecordError, OSError) as e:
            self.message = "record %s: %s" % (self.journal.name, e)

    # ---- showing -----------------------------------------------------------------------------
    def show(self):
        self.dirty = False
        render.draw(self)
        self.hal.brightness = self.bright
        self.hal.show(self.rend.frame)
        if self.link.watching:
            # frames go out at most every FRAME_MS (a fast demo changes the LEDs far more
            # often than a serial port carries 1.5 KB lines); the last one always follows
            now = self.hal.ticks_ms()
            if time.ticks_diff(now, self.sent) >= FRAME_MS:
                self.link.frame(self.bright, self.rend.frame)
                self.sent = now
                self.stale = False
            else:
                self.stale = True
        lines = render.lines(self)
        self.hal.text(lines)
        self.link.event("TEXT " + "|".join(lines))

    def state_text(self):
        s = self.journal.settings
        out = "view=%s" % self.view
        if self.rep:
            m = self.m
            d = m.dice
            out += (" phase=%s pos=%s match=%s turn=%d dice=%s mode=%s length=%d score=%d-%d "
                    "cube=%d owner=%d game=%d crawford=%d steps=%s players=%s,%s record=%s"
                    % (m.phase, m.pos.id(), m.match_id(), m.turn,
                       "%d%d" % d if d else "-", m.rules.mode, m.rules.length, m.score[0],
                       m.score[1], m.cube, m.owner, m.game, 1 if m.crawford else 0,
                       ",".join("%d/%d" % st for st in self.rep.steps) or "-",
                       self.names[0], self.names[1], self.journal.name or "-"))
            p = self.actor() if not self.rep.ended else None
            if self.anim or self.pending or self.demo:
                w = "board"
            elif p is not None and self.who[p] is not None and self.keyin != p:
                w = "board"
            else:
                w = "player"
            out += " wait=%s" % w
            if self.complete:
                out += " complete=1"
        out += " demo=%d settings=%s,%d,%d,%d" % (self.demo, s["mode"], s["length"],
                                                  s["opponent"], self.bright)
        return out


def _nothing():
    pass


def _level(name):
    if name.startswith("bot:") and name[4:].isdigit():
        return int(name[4:])
    return None
