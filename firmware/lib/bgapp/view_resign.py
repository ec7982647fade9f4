# A resignation offered and not yet answered (Game.resigning). A person offers one with RESIGN on
# their turn: RESIGN again makes it a gammon, a backgammon, a single again; OK offers it, UNDO
# plays on. A computer opponent answers at once (bgcore.bot's accepts_resignation); a person
# answers OK (accept: the game ends, RESIGN in the record) or UNDO (refuse: play on). The computer
# offers one itself at the start of its turn when the setting is on and the game is lost
# (view_bot); the person answers it the same way. A refused offer leaves nothing in the record.

from bgapp.game import View

_KINDS = ("", "a single", "a gammon", "a backgammon")


class ResignView(View):
    transient = True
    module = "view_resign"

    def key(self, key):
        app = self.app
        g = app.game
        r = g.resigning
        p, kind, offered = r
        if not offered:
            if key == "RESIGN":
                r[1] = kind % 3 + 1
                return None
            if key == "UNDO":
                g.resigning = None
                app.changed()
                return None
            if key != "OK":
                return "OK offers %s, RESIGN changes it, UNDO plays on" % _KINDS[kind]
            level = g.who[1 - p]
            if level is None:
                r[2] = True                 # the other person answers
                return None
            if app.bot(level).accepts_resignation(g.m, kind, 1 - p):
                g.resigns(p, kind)
                return None
            self._refused("%s refuses %s: play on" % (g.names[1 - p], _KINDS[kind]))
            return None
        if key == "OK":
            g.resigns(p, kind)
        elif key == "UNDO":
            self._refused("resignation refused: play on")
        else:
            return "%s offers %s: OK accepts, UNDO plays on" % (g.names[p], _KINDS[kind])
        return None

    def _refused(self, why):
        app = self.app
        g = app.game
        p, kind = g.resigning[0], g.resigning[1]
        g.declined[p] = max(g.declined[p], kind)
        g.resigning = None
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
        ask = "OK accepts, UNDO plays on" if offered else "OK offers, RESIGN more, UNDO no"
        return [head, ask] + View.lines(self)[1:3] + [app.message or ""]

    def state(self):
        p, kind, offered = self.app.game.resigning
        return " resign=%d,%d,%s" % (p, kind, "offered" if offered else "choosing")
