# Rolling: the opening roll (OK, both sides' dice), a person's turn before the move (OK rolls,
# DOUBLE doubles) and, with real dice on, the two dice keyed in as P1-P6 (for the opening: player
# 0's die, then player 1's; also the computer's roll, which a person keys in for it). With the
# tutor on, a double the cube model calls an error waits for OK (double anyway), HINT or UNDO.

from bgcore.match import OPENING
from bgapp.game import View


class RollView(View):
    def __init__(self, app):
        View.__init__(self, app)
        self.entry = []           # dice keyed in so far

    def enter(self):
        self.entry = []

    def key(self, key):
        app = self.app
        g = app.game
        m = g.m
        real = app.journal.settings["real"]
        if m.phase == OPENING:
            if real:
                return self._dice(key, -1)
            if key != "OK":
                return "OK rolls the opening dice"
            self.open()
            return None
        p = g.actor()
        if g.who[p] is not None:
            return self._dice(key, p)       # the computer's roll, keyed in
        if g.rep.warning:
            from bgapp.tutor import answer
            return answer(app, key, self._double)
        if g.ch:                            # a chouette: its bots in seats double first
            if g.bot_doubles():
                app.changed()
                return None
            if key == "DOUBLE":
                return g.double_key()
        if key == "DOUBLE":
            if not m.cube_available(p):
                return no_double(g, m, p)
            if g.tutor():
                from bgapp import tutor
                if tutor.warn(app, p, "double", tutor.double_loss(app, m)):
                    return None
            self._double()
            app.changed()
            return None
        if real:
            return self._dice(key, p)
        if key != "OK":
            return "OK rolls%s" % (", DOUBLE doubles" if m.cube_available(p) else "")
        d = app.roll_dice()
        g.ev("ROLL %d %d %d" % (p, d[0], d[1]))
        app.changed()
        return None

    def tick(self):
        g = self.app.game
        if g.ch and g.bot_doubles():
            self.app.changed()

    def _double(self):
        g = self.app.game
        m = g.m
        g.ev("DOUBLE %d %d" % (m.turn, m.cube * 2))

    def open(self):
        d = self.app.roll_dice()
        self.app.game.opened(d[0], d[1], "")
        self.app.changed()

    def _dice(self, key, p):
        if key == "UNDO" and self.entry:
            self.entry.pop()                # a die keyed in by mistake: take it back
            return None
        if not (key[0] == "P" and key[1:].isdigit() and 1 <= int(key[1:]) <= 6):
            if self.entry:
                return "key in the second die: P1-P6 (UNDO takes %d back)" % self.entry[0]
            return "key in the dice: P1-P6"
        self.entry.append(int(key[1:]))
        if len(self.entry) == 2:
            a, b = self.entry
            self.entry = []
            g = self.app.game
            self.app.message = ""           # before the roll: a tie leaves its own message
            if p < 0:
                g.opened(a, b, " real")
            else:
                g.ev("ROLL %d %d %d real" % (p, a, b))
                g.keyin = -1
            self.app.changed()
        return None

    def state(self):
        return " keyed=%d" % self.entry[0] if self.entry else ""

def no_double(g, m, p):
    """Why player p may not double now, in the person's words."""
    if m.rules.mode == "nocube":
        return "no cube in a single game (P9 money, P10 match)"
    if m.crawford:
        return "no doubling in the Crawford game"
    if m.owner not in (-1, p):
        return "%s owns the cube" % g.names[m.owner]
    if m.phase == "doubled":
        return "already doubled: take (OK) or drop (UNDO)"
    return "you cannot double now"
