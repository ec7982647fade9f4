# A play shown checker by checker after it is made (the bot's, a forced one, a demo's): the
# board holds the position before it and steps a checker at a time; keys wait. Then a pause on the
# new position, and the game's next view.

from micropython import const

from bgapp.game import View
from bgapp import moves, render

_HOP_MS = const(450)       # between the checker steps of an animated play
_THINK_MS = const(500)     # the pause after the last step


class AnimView(View):
    waits = "board"

    def __init__(self, app):
        View.__init__(self, app)
        self.raw = None           # the board being animated (the mover's view)
        self.p = 0                # the mover
        self.hops = None          # steps still to show; None: no animation

    def start(self, before, p, hops):
        self.raw = bytearray(before)
        self.p = p
        self.hops = list(hops)

    def key(self, key):
        return "wait: the board is busy"

    def tick(self):
        if self.hops:
            self.app.later(_HOP_MS, self._hop)
        else:
            self.app.changed()

    def _hop(self):
        if not self.hops:
            return
        s, t = self.hops.pop(0)
        moves.step(self.raw, s, t)
        if not self.hops:
            self.hops = None
            self.raw = None
            self.app.changed()
            self.app.later(_THINK_MS, _nothing)

    def draw(self, r):
        if self.hops:
            render.game(self.app, r, self.raw, self.p)
        else:
            View.draw(self, r)


def _nothing():
    pass
