# A person answering a double: OK takes, UNDO drops (the game ends), DOUBLE beavers (when the
# rules allow beavers and the cube has not been beavered). With the tutor on, a take or drop the
# cube model calls an error waits for OK (keep it), HINT or UNDO.

from bgapp.game import View


class CubeView(View):
    def key(self, key):
        app = self.app
        g = app.game
        m = g.m
        p = g.actor()
        w = g.rep.warning
        if w:
            from bgapp.tutor import answer
            return answer(app, key, self._take if w[1] == "take" else self._drop)
        if key in ("OK", "UNDO") and g.tutor():
            from bgapp import tutor
            if tutor.warn(app, p, "take" if key == "OK" else "drop",
                          tutor.answer_loss(app, m, key == "OK")):
                return None
        if key == "OK":
            self._take()
        elif key == "UNDO":
            self._drop()
        elif key == "DOUBLE" and m.rules.beavers and not m.beavered:
            g.ev("BEAVER %d %d" % (p, m.cube * 2))
        else:
            return "doubled: OK takes, UNDO drops" + (", DOUBLE beavers" if m.rules.beavers
                                                      else "")
        app.changed()
        return None

    def _take(self):
        g = self.app.game
        g.ev("TAKE %d" % g.actor())

    def _drop(self):
        g = self.app.game
        g.ev("DROP %d" % g.actor())
        g.over()
