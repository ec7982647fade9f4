# A double in a chouette being answered, cube by cube: the member whose cube the box turned (or
# the box, when a member doubled it) takes with OK or drops with UNDO; bots in the seats answer
# by themselves. In single-cube play the box answers the team's double for everyone at once.

from micropython import const

from bgapp.game import View

_THINK_MS = const(500)


class ChouetteCubeView(View):
    module = "view_chouette_cube"

    def _who(self):
        g = self.app.game
        return g.answerer()

    def _bot(self, q):
        from bgapp.chouette import seat_level
        lv = seat_level(self.app.game.ch.names[q])
        return self.app.bot(lv) if lv else None

    def key(self, key):
        g = self.app.game
        p, q = self._who()
        if self._bot(q):
            return "%s answers by itself" % g.ch.names[q]
        if key not in ("OK", "UNDO"):
            return "%s: OK takes, UNDO drops (%s's cube to %d)" % (
                g.ch.names[q], g.ch.names[p], 2 * g.ch.cube[p])
        self._answer(key == "OK")
        return None

    def _answer(self, take):
        app = self.app
        g = app.game
        ch = g.ch
        p, q = self._who()
        if q == ch.box and ch.cubes == "single" and ch.match.turn == 1:
            for m in list(ch.offers):       # one cube: the box answers the team once
                g.answer(m, take)
        else:
            g.answer(p, take)
        app.changed()

    def tick(self):
        w = self._who()
        if w and self._bot(w[1]):
            self.app.later(_THINK_MS, self._act)

    def _act(self):
        w = self._who()
        if not w:
            return
        bot = self._bot(w[1])
        if bot:
            from bgcore.chouette import bot_takes
            self._answer(bot_takes(self.app.game.ch, w[0], bot))

    def enter(self):
        w = self._who()
        self.waits = "board" if w and self._bot(w[1]) else "player"

    def lines(self):
        g = self.app.game
        out = View.lines(self)
        p, q = self._who()
        from bgapp.chouette import short
        ch = g.ch
        out[0] = "%s: %s at %d?" % (short(ch.names[q]), short(ch.names[p]), 2 * ch.cube[p])
        if not out[-1]:
            out[-1] = "OK take UNDO drop"
        return out
