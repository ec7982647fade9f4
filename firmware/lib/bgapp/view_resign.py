# A resignation offered and not yet answered (Game.resigning). A person offers one with RESIGN (or
# the menu's OFF) on their turn: DOUBLE (or RESIGN) again makes it a gammon, a backgammon, a
# single again; OK offers it, UNDO plays on. A computer opponent answers at once (bgcore.bot's accepts_resignation); a person
# answers OK (accept: the game ends, RESIGN in the record) or UNDO (refuse: play on). The computer
# offers one itself at the start of its turn when the setting is on and the game is lost
# (view_bot); the person answers it the same way. A refused offer leaves nothing in the record.

from bgcore.match import TURN, MOVE, DOUBLED
from bgapp.game import View

_KINDS = ("", "a single", "a gammon", "a backgammon")


def offer(app):
    """RESIGN pressed by the person whose turn it is: a single to offer (each further RESIGN
    makes it a gammon, a backgammon, a single again). None, or why not."""
    g = app.game
    m = g.m
    p = g.actor()
    why = None
    if p is None or m.phase not in (TURN, MOVE, DOUBLED):
        why = "no game in progress to resign"
    elif g.who[p] is not None:
        why = "it is the computer's turn"
    elif g.ch or g.demo:
        why = "no resigning in a chouette"
    elif g.rep.steps:
        why = "take your steps back (UNDO) before resigning"
    elif g.rep.warning:
        why = "answer the tutor first: OK, HINT or UNDO"
    if why:
        _drop(g)
        return why
    g.resigning = [p, 1, False]
    app.changed()
    return None


def bot_offers(app, bot, p):
    """At the start of the bot's turn (the setting on): does it offer to resign (bot.resigns)?
    Not in a ranked game, a demo or a chouette, nor again at a level the person refused."""
    g = app.game
    k = 0 if g.ranked or g.demo or g.ch else bot.resigns(g.m, p) or 0
    if k <= _declined(g, p):
        _drop(g)
        return False
    g.resigning = [p, k, True]          # the person answers (ResignView)
    app.changed()
    return True


def _declined(g, p):
    # the highest resignation of p's refused in this game (0: none)
    d = getattr(g, "declined", None)
    return d[2] if d and d[0] == g.m.game and d[1] == p else 0


def _drop(g):
    # no offer stands: this module leaves the heap
    from bgapp.app import unload
    unload("view_resign")


class ResignView(View):
    transient = True
    module = "view_resign"

    def key(self, key):
        app = self.app
        g = app.game
        r = g.resigning
        p, kind, offered = r
        if not offered:
            if key in ("RESIGN", "DOUBLE"):
                r[1] = kind % 3 + 1
                return None
            if key == "UNDO":
                g.resigning = None
                _drop(g)
                app.changed()
                return None
            if key != "OK":
                return "OK offers %s, DOUBLE changes it, UNDO plays on" % _KINDS[kind]
            level = g.who[1 - p]
            if level is None:
                r[2] = True                 # the other person answers
                return None
            if app.bot(level).accepts_resignation(g.m, kind, 1 - p):
                self._accepted()
                return None
            self._refused("%s refuses %s: play on" % (g.names[1 - p], _KINDS[kind]))
            return None
        if key == "OK":
            self._accepted()
        elif key == "UNDO":
            self._refused("resignation refused: play on")
        else:
            return "%s offers %s: OK accepts, UNDO plays on" % (g.names[p], _KINDS[kind])
        return None

    def _accepted(self):
        # the offer stands accepted: RESIGN, then the game's END
        app = self.app
        g = app.game
        p, kind = g.resigning[0], g.resigning[1]
        g.resigning = None
        _drop(g)
        g.ev("RESIGN %d %d" % (p, kind))
        g.over()
        app.changed()

    def _refused(self, why):
        app = self.app
        g = app.game
        p, kind = g.resigning[0], g.resigning[1]
        if kind > _declined(g, p):
            g.declined = (g.m.game, p, kind)     # not offered again at that level this game
        g.resigning = None
        _drop(g)
        app.message = why
        app.changed()

    def lines(self):
        app = self.app
        g = app.game
        p, kind, offered = g.resigning
        pts = kind * g.m.cube
        who = g.names[p]
        head = "%s %s %s (%d pt%s)" % (who, "resign" if who == "you" else "resigns", _KINDS[kind],
                                       pts, "s" if pts > 1 else "")
        ask = "OK accepts, UNDO plays on" if offered else "OK offers, DOUBLE more, UNDO no"
        return [head, ask] + View.lines(self)[1:3] + [app.message or ""]

    def state(self):
        p, kind, offered = self.app.game.resigning
        return " resign=%d,%d,%s" % (p, kind, "offered" if offered else "choosing")
