# The game in progress, shared by the views that play it: its record Replay (the state in memory
# is always what replaying the record gives), the players, and the events. Every event is applied,
# appended to the record on flash, and only then shown (the dispatcher chooses the view for the
# new state: App.changed); a person's single step is shown first and written right after its
# frame (Game.ev's `held`). Also View, the defaults of the views that show the game.

import gc

from bgcore.match import Rules, TURN, MOVE, DOUBLED, GAME_OVER, MATCH_OVER
from bgcore.record import Replay
from bgapp import moves, render


def level(name):
    """The bot level of a player name ("bot:6" -> 6), None for a person."""
    if name.startswith("bot:") and name[4:].isdigit():
        return int(name[4:])
    return None


class Game:
    def __init__(self, app, rep, names, demo=False):
        self.app = app
        self.ch = None            # a chouette's model (in bgapp.chouette.ChouetteGame)
        self.rep = rep
        self.names = names
        self.who = (level(names[0]), level(names[1]))   # bot level of each player, None: a person
        self.demo = demo
        self.last = None          # (player, moves) of the last play, highlighted
        self.opening = None       # the opening dice of each side, shown until the first play
        self.keyin = -1           # real dice: the computer player whose roll a person keys in
        self.ranked = None        # a ranked game's bgcore.ranked.Ranked (bgapp.rankplay)
        self.started = "-"        # its header's start=
        self.resigning = None     # a resignation offered and not yet answered: [player, 1-3,
                                  # offered] (offered False: a person still choosing the kind)
        self.held = []            # a person's steps applied and shown, not yet on flash (ev)

    @property
    def m(self):
        return self.rep.match

    def actor(self):
        """The player the board waits for now (None when nobody)."""
        m = self.rep.match
        r = self.resigning
        if r:                     # the other side answers an offer; the offerer chooses its kind
            return 1 - r[0] if r[2] else r[0]
        if m.phase == DOUBLED:
            return 1 - m.offered_by
        if m.phase in (TURN, MOVE):
            return m.turn
        return None

    def board(self):
        """The position's bytes with this turn's steps made."""
        raw = bytearray(self.rep.match.pos.raw)
        for s, t in self.rep.steps:
            moves.step(raw, s, t)
        return raw

    # ---- events ------------------------------------------------------------------------------
    def ev(self, payload, held=False):
        """Apply one record event, write it to flash, then let it be shown. `held`: a person's
        step, whose answer is lit before it is written (the write waits in `held` until the
        frame is out: App.write_held). Any other event, and any key, writes what is held first,
        and `!EV` still follows the write: a power cut before it loses that step alone."""
        if self.held and not held:
            self.write_held()
        (self.ch or self.rep).event(payload.split())
        if held:
            self.held.append(payload)
        else:
            self._write(payload)
        self.app.dirty = True

    def write_held(self):
        """Write the held events to flash, oldest first (see ev)."""
        held = self.held
        while held:
            self._write(held.pop(0))

    def _write(self, payload):
        """Append an applied event to the record. If that fails in any way, the game goes back
        to what the record says (never an event ahead of it) and the caller hears why:
        WriteFailed, or the MemoryError itself (App.fault)."""
        app = self.app
        try:
            app.journal.append(payload)
        except MemoryError:
            # not on flash, so it did not happen: back to what the record says
            self.held = []
            app.reload("out of memory: %s not recorded" % payload)
            raise
        except Exception as e:
            # the flash refused it (OSError), or anything else went wrong on the way: back to
            # what the record says first, then the message (bgapp.fault's, loaded for it: it
            # stays off the heap while writes go well)
            self.held = []
            app.reload("")
            from bgapp.journal import WriteFailed
            from bgapp.fault import write_failed
            from bgapp.app import unload
            why = app.note = write_failed(e)
            unload("fault")
            raise WriteFailed(why)

    def opened(self, d0, d1, real):
        self.ev("OPEN %d %d%s" % (d0, d1, real))
        self.opening = (d0, d1)
        if d0 == d1:
            self.app.message = "opening roll %d-%d: a tie, roll again" % (d0, d1)

    def move(self, hops, animate):
        """Player on roll plays `hops` ((from, to) steps; () for no legal play). The caller has
        dropped its list of plays: the record's check of the play builds its own."""
        m = self.rep.match
        p = m.turn
        before = m.pos.raw
        gc.collect()
        text = "MOVE %d" % p
        for s in hops:
            text += " %d/%d" % s
        self.ev(text)
        self.opening = None
        self.last = (p, hops)
        app = self.app
        if animate and hops and not app.fast:
            app.anim.start(before, p, hops)
        if m.phase in (GAME_OVER, MATCH_OVER):
            self.over()
        app.changed()

    def over(self):
        """The game has a result: END, and MATCHEND when the match is over too."""
        m = self.rep.match
        w, pts, how = m.result
        self.ev("END %d %d %s" % (w, pts, how))
        if self.ranked:           # the reveal, then the name or the end of the record
            from bgapp import rankplay
            rankplay.reveal(self.app, self)
            rankplay.drop()
            return
        if m.phase == MATCH_OVER:
            self.ev("MATCHEND %d %d %d" % (w, m.score[0], m.score[1]))
            j = self.app.journal
            if j.settings["current"] == j.name:
                j.settings["current"] = ""
                j.save_settings()

    def next_game(self):
        self.last = None
        self.begin(self.rep.match.game + 1)
        self.app.changed()

    def begin(self, n):
        """GAME n, and the tutor's TUTOR on lines when it is on."""
        self.ev("GAME %d" % n)
        self.tutor_on()

    def tutor(self):
        """The tutor's threshold in millipoints for the people playing, 0 when off."""
        return 0 if self.demo else self.app.journal.settings["tutor"]

    def tutor_on(self):
        t = self.tutor()
        if t and not self.rep.ended:
            for p in (0, 1):
                if self.who[p] is None:
                    self.ev("TUTOR %d on %d" % (p, t))

    def end_session(self):
        # a money or single-game session ends when a new one starts: its record gets MATCHEND
        m = self.rep.match
        if not self.rep.ended and m.rules.mode != "match" and self.app.journal.f:
            w = self.rep.warning
            if w:                 # a tutor's warning left open: the warned action is taken back
                self.ev("TUTOR %d undo" % w[0])
                if w[1] == "move":
                    for _ in range(len(self.rep.steps)):
                        self.ev("UNDO %d" % w[0])
            sc = m.score
            self.ev("MATCHEND %d %d %d" % (0 if sc[0] >= sc[1] else 1, sc[0], sc[1]))

    def cube_shown(self):
        """The cube on the panel: (value, owner side or -1)."""
        m = self.rep.match
        return m.cube, m.owner

    def fields(self, add):
        """STATE's fields of the game, to add(str) (bgapp.link writes them piece by piece)."""
        m = self.rep.match
        d = m.dice
        add("phase=%s pos=%s match=%s turn=%d dice=%s mode=%s length=%d score=%d-%d "
            "cube=%d owner=%d game=%d crawford=%d steps=%s players=%s,%s record=%s"
            % (m.phase, m.pos.id(), m.match_id(), m.turn,
               "%d%d" % d if d else "-", m.rules.mode, m.rules.length, m.score[0],
               m.score[1], m.cube, m.owner, m.game, 1 if m.crawford else 0,
               ",".join("%d/%d" % st for st in self.rep.steps) or "-",
               self.names[0], self.names[1], self.app.journal.name or "-"))


def new(app, demo=False):
    """A new match (a new record) from the settings, or a demo's bot-against-bot single games."""
    s = app.journal.settings
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
    if not demo and s["ranked"] and s["opponent"]:
        from bgapp import rankplay
        g = rankplay.new(app, s["opponent"])
        rankplay.drop()
        return g
    g = Game(app, Replay(rules, names, history=False), names, demo)
    app.journal.start(rules, names, app.FW, in_progress=not demo)
    return g


class View:
    """The defaults of a view (the interface is described at the top of bgapp/app.py): a view
    of the game in progress that waits for a person, draws the game and takes no key."""
    name = "play"
    playing = True
    waits = "player"
    transient = False
    module = ""

    def __init__(self, app):
        self.app = app

    def enter(self):
        pass

    def leave(self):
        pass

    def key(self, key):
        return "not now"

    def tick(self):
        pass

    def draw(self, r):
        g = self.app.game
        render.game(self.app, r, g.board(), g.m.turn)

    def lines(self):
        return render.game_lines(self.app)

    def state(self):
        return ""
