# A person answering a double: OK takes, UNDO drops (the game ends), DOUBLE beavers (when the
# rules allow beavers and the cube has not been beavered).

from bgapp.game import View


class CubeView(View):
    def key(self, key):
        app = self.app
        g = app.game
        m = g.m
        p = g.actor()
        if key == "OK":
            g.ev("TAKE %d" % p)
        elif key == "UNDO":
            g.ev("DROP %d" % p)
            g.over()
        elif key == "DOUBLE" and m.rules.beavers and not m.beavered:
            g.ev("BEAVER %d %d" % (p, m.cube * 2))
        else:
            return "doubled: OK takes, UNDO drops" + (", DOUBLE beavers" if m.rules.beavers
                                                      else "")
        app.changed()
        return None
