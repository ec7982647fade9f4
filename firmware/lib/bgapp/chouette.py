# A chouette on the board: the game in progress when three to eight players share it (the rules
# are bgcore.chouette's). Side 0 is the box, side 1 the team's captain, who moves for the team;
# the chouette's cube lines (CDOUBLE, CTAKE, CDROP), its SCORE after each game and its rotation go
# to the same record. Loaded only when a chouette is set up or resumed.

from bgcore import chouette as model
from bgcore.match import Rules, MONEY, GAME_OVER
from bgcore.record import quote
from bgapp.game import Game


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

    def ev(self, payload):
        Game.ev(self, payload)
        self._sides()

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

    # ---- the cube ----------------------------------------------------------------------------
    def person_offers(self):
        """The cubes the person on roll offers with DOUBLE: the box, every member's it may turn;
        the captain, the team's one cube (single) or their own (multiple)."""
        ch = self.ch
        if ch.match.turn == 0 or ch.cubes == model.SINGLE:
            c = ch.captain
            if ch.cubes == model.SINGLE:
                return list(ch.playing) if ch.can_double(c) else []
            return [p for p in ch.playing if ch.can_double(p)]
        return [ch.captain] if ch.can_double(ch.captain) else []

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
            "%s %+d" % (ch.names[p][:3], after[p] - before[p]) for p in range(len(after))
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
        """Every member of this game: name:cube:owner:status (in, out) for STATE."""
        ch = self.ch
        out = []
        if ch.games:
            for p in ch.games[-1][2]:
                o = ch.owner.get(p, -1)
                out.append("%s:%d:%s:%s" % (ch.names[p], ch.cube.get(p, 1),
                                            ("centre", "box", "member")[o + 1],
                                            "in" if p in ch.playing else "out"))
        return out

    def fields(self):
        ch = self.ch
        return Game.fields(self) + (" chouette=%s line=%s members=%s scores=%s" % (
            ch.cubes, ",".join(ch.names[p] for p in ch.line), ",".join(self.members()) or "-",
            ",".join("%s:%d" % (ch.names[p], ch.scores[p]) for p in range(len(ch.names)))))

    def text(self):
        """Two display lines: box and captain; every member's cube (* out, offered ?)."""
        ch = self.ch
        top = "box %s capt %s" % self.names
        cubes = []
        for p in (ch.games[-1][2] if ch.games else ()):
            cubes.append("%s %d%s" % (ch.names[p][:3], ch.cube.get(p, 1),
                                      "?" if p in ch.offers else "" if p in ch.playing else "x"))
        return top, " ".join(cubes)


def new(app):
    """A chouette from the set-up in the settings: the players sit down, roll for the order, and
    the first game starts."""
    s = app.journal.settings
    people = s["names"].split()
    names = []
    for k in range(s["ch_n"]):
        if s["ch_bots"] >> k & 1:
            names.append("bot:%d-%d" % (s["opponent"] or 6, k + 1))
        else:
            names.append(people[k] if k < len(people) else "P%d" % (k + 1))
    app.journal.start(Rules(MONEY), ("box", "team"), app.FW)
    ch = model.Chouette(names, s["ch_cubes"], False)
    g = ChouetteGame(app, ch)
    app.journal.append("CHOUETTE %s %s" % (ch.cubes, " ".join(quote(n) for n in names)))
    while ch.to_order():
        g.ev("ORDER " + " ".join("%d:%d" % (p, app.roll_dice()[0]) for p in ch.to_order()))
    return g
