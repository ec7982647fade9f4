# A chouette on the board: the game in progress when three to eight players share it (the rules
# are bgcore.chouette's). Side 0 is the box, side 1 the team's captain, who moves for the team;
# the chouette's cube lines (CDOUBLE, CTAKE, CDROP), its SCORE after each game, its rotation and
# the players joining and leaving between games (JOIN, LEAVE) go to the same record. It chooses
# its own screens (view()): a double being answered (view_chouette_cube), the cubes a person picks
# to turn in multiple-cube play (view_chouette_double), the line between games
# (view_chouette_line). Loaded only when a chouette is set up (view_chouette.start) or resumed.

from bgcore import chouette as model
from bgcore.match import TURN, GAME_OVER
from bgapp.game import Game


def short(name):
    """A player's name on the display: three letters, a bot as bot and its seat ("bot:6-4" ->
    "bot4")."""
    if name.startswith("bot:"):
        return "bot" + name.rsplit("-", 1)[-1]
    return name[:3]


def seat_level(name):
    """The bot level of a seat's name ("bot:6-2": level 6 in seat 2), None for a person."""
    if name.startswith("bot:"):
        k = name[4:].split("-")[0]
        if k.isdigit():
            return int(k)
    return None


class ChouetteGame(Game):
    def __init__(self, app, ch):
        Game.__init__(self, app, ch.rep, ("box", "team"))
        self.ch = ch
        self.result = ""          # the last game's settlement, for the display
        self.start = None         # the scores when this game began
        self.picking = None       # multiple cubes: the members picked so far (view_chouette_double)
        self.asked = None         # the turn whose bots in seats were asked to double
        self.waived = None        # the turn whose people passed the chance to double a bot captain's
        self.screen = None        # the chouette's own view in use (view())
        self._sides()

    def _sides(self):
        # the two sides' names (the box, the captain) and bot levels, after every event
        ch = self.ch
        if ch.line:
            c = ch.captain if ch.captain >= 0 else ch.line[1]
            self.names = (ch.names[ch.box], ch.names[c])
        else:
            self.names = ("box", "team")
        self.who = (seat_level(self.names[0]), seat_level(self.names[1]))

    def ev(self, payload, held=False):
        Game.ev(self, payload, held)
        self._sides()
        if payload[:4] in ("ROLL", "OPEN"):
            # the cube model is needed at the start of a turn (bots in seats: double, take?),
            # not while a play is chosen among the roll's plays: its code leaves the heap
            _forget("cube")
            _forget("met")

    def begin(self, n):
        self.start = list(self.ch.scores)
        Game.begin(self, n)

    def tutor(self):
        return 0

    def bots(self):
        ch = self.ch
        out = {}
        for p in ch.line:
            lv = seat_level(ch.names[p])
            if lv:
                out[p] = self.app.bot(lv)
        return out

    # ---- the screens -------------------------------------------------------------------------
    def view(self):
        """The chouette's own view for its state now, or None (then the dispatcher's)."""
        ch = self.ch
        if ch.offers:
            return self._screen("view_chouette_cube", "ChouetteCubeView")
        if self.picking is None and self.members_first():
            self.picking = []
        if self.picking is not None and ch.match.phase == TURN:
            return self._screen("view_chouette_double", "ChouetteDoubleView")
        self.picking = None
        if ch.line and not ch.ended and not ch.in_game():
            if self.screen is None or self.screen.module != "view_chouette_line":
                self.app.message = ""       # the last game's words do not outlive it
            return self._screen("view_chouette_line", "ChouetteLineView")
        self._screen(None, None)
        return None

    def _screen(self, module, cls):
        # one of the chouette's screens in RAM at a time, none while the game's own views play
        from bgapp.app import load, unload
        v = self.screen
        if v is not None and v.module != module:
            unload(v.module)
            v = self.screen = None
        if v is None and module:
            v = self.screen = load(module, cls)(self.app)
        return v

    # ---- the cube ----------------------------------------------------------------------------
    def double_key(self):
        """DOUBLE from the person on roll: single cube, the box doubles every member or the
        captain the box; multiple cubes, the cubes to turn are picked first (one or more)."""
        ch = self.ch
        if ch.cubes == model.SINGLE:
            c = ch.captain
            offers = list(ch.playing) if ch.can_double(c) else []
        else:
            offers = self.pickable()
        if not offers:
            return "no cube you can turn now"
        if ch.cubes == model.SINGLE:
            self.offer(offers)
        else:
            self.picking = []
        self.app.changed()
        return None

    def pickable(self):
        """Multiple cubes: the members whose cube a person on roll may turn now (the box: every
        member's it may turn; the team: the people's own, each member doubling the box)."""
        ch = self.ch
        out = [p for p in ch.playing if ch.can_double(p)]
        if ch.match.turn == 1:
            out = [p for p in out if seat_level(ch.names[p]) is None]
        return out

    def members_first(self):
        """Multiple cubes, the team on roll with a bot as captain: the people in the team who may
        double the box get the chance first (the pick), once a turn."""
        ch = self.ch
        m = ch.match
        return (ch.cubes == model.MULTIPLE and m.phase == TURN and m.turn == 1
                and self.who[1] is not None and self.waived != (m.game, self.rep.slot)
                and self.pickable())

    def bot_doubles(self):
        """At the start of a person's turn, the bots in seats on that side turn their own cubes
        (multiple cubes: members doubling the box), once a turn. True when they offered."""
        ch = self.ch
        m = ch.match
        if ch.cubes != model.MULTIPLE or m.phase != TURN or ch.offers:
            return False
        turn = (m.game, self.rep.slot)
        if self.asked == turn:
            return False
        self.asked = turn
        offers = model.bot_offers(ch, self.bots())
        if offers:
            self.offer(offers)
            return True
        return False

    def offer(self, members):
        for p in members:
            self.ev("CDOUBLE %d %d" % (p, 2 * self.ch.cube[p]))

    def answer(self, p, take):
        self.ev("%s %d" % ("CTAKE" if take else "CDROP", p))
        if self.ch.match.phase == GAME_OVER:
            self.over()                 # nobody is left against the box

    def answerer(self):
        """(member whose cube is offered, the player who answers), or None."""
        ch = self.ch
        if not ch.offers:
            return None
        p = ch.offers[0]
        return p, (p if ch.match.turn == 0 else ch.box)

    # ---- the end of a game -------------------------------------------------------------------
    def over(self):
        ch = self.ch
        m = ch.match
        if ch.playing and m.result:
            w, pts, how = m.result
            self.ev("END %d %d %s" % (w, pts, how))
        before = self.start or [0] * len(ch.scores)
        after = ch.settled()
        self.result = "game %d: %s" % (m.game, " ".join(
            "%s %+d" % (short(ch.names[p]), after[p] - before[p]) for p in range(len(after))
            if after[p] != before[p]))
        self.ev("SCORE " + " ".join(str(x) for x in after))

    def end_session(self):
        ch = self.ch
        if not ch.ended and not ch.in_game() and self.app.journal.f:
            self.ev("CHOUETTEEND")

    # ---- showing -----------------------------------------------------------------------------
    def cube_shown(self):
        ch = self.ch
        c = ch.captain
        if c in ch.cube:
            o = ch.owner[c]
            return ch.cube[c], o
        return 1, -1

    def members(self):
        """Every member of this game: name:cube:owner:status (in, offered, out) for STATE."""
        ch = self.ch
        out = []
        if ch.games:
            for p in ch.games[-1][2]:
                o = ch.owner.get(p, -1)
                out.append("%s:%d:%s:%s" % (ch.names[p], ch.cube.get(p, 1),
                                            ("centre", "box", "member")[o + 1],
                                            "offered" if p in ch.offers else
                                            "in" if p in ch.playing else "out"))
        return out

    def fields(self, add):
        ch = self.ch
        Game.fields(self, add)
        add(" chouette=%s line=%s members=%s scores=%s" % (
            ch.cubes, ",".join(ch.names[p] for p in ch.line), ",".join(self.members()) or "-",
            ",".join("%s:%d" % (ch.names[p], ch.scores[p]) for p in range(len(ch.names)))))

    def text(self):
        """The display's lines between the status and the message (an OLED line holds 16
        characters): the box and the captain, then every member's cube two to a line: its
        value, b (the box holds it) or m (the member does), ? offered, x out of the game."""
        ch = self.ch
        out = ["box %s cpt %s" % (short(self.names[0]), short(self.names[1]))]
        line = ""
        for p in (ch.games[-1][2] if ch.games else ()):
            o = ch.owner.get(p, -1)
            cube = "%s:%d%s%s" % (short(ch.names[p]), ch.cube.get(p, 1),
                                  "" if o < 0 else "bm"[o],
                                  "?" if p in ch.offers else "" if p in ch.playing else "x")
            if line:
                out.append(line + " " + cube)
                line = ""
            else:
                line = cube
        if line:
            out.append(line)
        return out


def _forget(name):
    # bgcore.<name> out of RAM (imported again when needed)
    import sys
    sys.modules.pop("bgcore." + name, None)
    pkg = sys.modules.get("bgcore")
    if pkg and hasattr(pkg, name):
        delattr(pkg, name)
