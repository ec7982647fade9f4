# A person moving checkers: a point picks up a checker (its destinations light up), a second
# point puts it down (one die, or the same checker on with the next dice), UNDO takes back a step,
# HINT shows the bot's best play, OK confirms a complete play. A roll with no legal play passes
# by itself after a pause; a forced play is made by itself when the setting says so. With the tutor
# on, a play that loses too much is not confirmed at once: the moved checkers blink and the
# warning waits for OK (keep it), HINT (the better play) or UNDO (take the steps back).

import gc

from micropython import const

from bgapp.game import View
from bgapp import moves, render

_THINK_MS = const(500)     # before a forced play is made
_PASS_MS = const(1500)     # showing "no legal play" before the turn passes
_NO_MEMORY = "out of memory: the key was not taken, press it again"


class MoveView(View):
    def __init__(self, app):
        View.__init__(self, app)
        self.plays = None         # the legal plays of the roll
        self.live = []            # their steps (moves.pack: small buffers), then after each step
                                  # of the turn the plays left (moves.narrow): a list a step
        self.walked = []          # the steps live[1:] were narrowed by
        self.opts = {}            # source -> {destination: steps}, None until it is picked up
                                  # (dests: worked out for the source picked up only)
        self.raw = None           # the position with the turn's steps made
        self.complete = None      # the Play the steps so far make, when complete
        self.index = -1           # its index in plays
        self.sel = -1             # selected source point (mover's numbering), -1 none
        self.hint = None          # the hint's steps, shown until the next change
        self.blink = 0            # the tutor's warning: the moved checkers' blink phase
        self.scorer = None        # the tutor: the plays' equities, worked out while one thinks
        self.groups = []          # the steps each keyed move made this turn (UNDO takes a move)
        self.ready = False        # all of the above worked out for the turn's steps (enter)
        moves.natives()           # (at power-up: after the first frame, before the network)

    def enter(self):
        self.sel = -1
        self.hint = None
        # (if the heap cannot hold the work, the event that led here still stands: the work is
        # done again at the next key, refused while the heap cannot; the turn never passes)
        self._work_again()

    def _work(self):
        # the roll's plays and their packed steps, the plays left after the turn's steps, the
        # points that may be picked up; self.ready once all of it is there
        self.ready = False
        g = self.app.game
        m = g.m
        if self.plays is None:
            gc.collect()
            self.plays = m.pos.plays(*m.dice)
            self.live = [moves.pack(self.plays)]
            self.walked = []
            if g.tutor() and len(self.plays) > 1:
                from bgapp.tutor import scorer
                self.scorer = scorer(self.app, m, self.plays)
        self._walk(g.rep.steps)
        self.raw = g.board()
        self.opts, self.index = moves.sources(self.raw, self.live[-1])
        self.complete = self.plays[self.index] if self.index >= 0 else None
        self.ready = True

    def _work_again(self):
        try:
            self._work()
        except MemoryError:
            self.drop()
            gc.collect()

    def _walk(self, steps):
        # the plays left after `steps`: the lists of the steps kept (a step back drops the
        # last), one more narrowed for each step made; as before if the heap cannot hold one
        live = self.live
        walked = self.walked
        k = 0
        while k < len(walked) and k < len(steps) and walked[k] == steps[k]:
            k += 1
        del live[k + 1:]
        del walked[k:]
        try:
            while k < len(steps):
                s, t = steps[k]
                live.append(moves.narrow(live[k], s, t))
                walked.append((s, t))
                k += 1
        except MemoryError:
            del live[len(walked) + 1:]
            raise

    def drop(self):
        """The roll's plays and buffers off the heap (after a MemoryError): worked out again at
        the next key, which is refused while the heap cannot hold them; meanwhile the turn
        neither passes nor is played by itself."""
        self.ready = False
        self.plays = None
        self.live = []
        self.walked = []
        self.scorer = None
        self.opts = {}
        self.complete = None

    def dests(self, s):
        """{destination: steps} of source s (one of opts), worked out when first asked."""
        d = self.opts[s]
        if d is None:
            d = self.opts[s] = moves.dests(self.raw, self.live[-1], s)
        return d

    def leave(self):
        self.drop()
        self.groups = []
        self.raw = None
        self.hint = None

    def tick(self):
        app = self.app
        if app.game.rep.warning:
            ph = (app.hal.ticks_ms() // 300) & 1
            if ph != self.blink:
                self.blink = ph
                app.dirty = True
        elif self.scorer and not self.scorer.done():
            self.scorer.step()
        elif not self.ready:
            return
        elif not self.plays:
            app.message = "no legal play"
            app.later(_PASS_MS, self._pass)
        elif len(self.plays) == 1 and not app.game.rep.steps and app.journal.settings["forced"]:
            # the one legal play: made before any step is keyed (complete only comes with steps)
            app.later(_THINK_MS, self._forced)

    def _pass(self):
        if self.app.play is self and self.ready and not self.plays:
            self.app.message = ""
            self.app.game.move((), False)

    def _forced(self):
        if self.app.play is self and self.plays and len(self.plays) == 1 \
                and not self.app.game.rep.steps:
            self._confirm(self.plays[0], True)

    def _confirm(self, play, animate):
        hops = play.moves
        # the plays' buffers go before the record's check of the play builds its own
        play = None
        self.leave()
        self.app.game.move(hops, animate)

    def key(self, key):
        app = self.app
        g = app.game
        m = g.m
        p = m.turn
        if g.rep.warning:
            from bgapp.tutor import move_answer
            why = move_answer(self, key)
            if why != "HINT":
                return why
        if not self.ready:            # (the heap could not hold the roll's work at enter)
            gc.collect()
            self._work_again()
            if not self.ready:
                return _NO_MEMORY
        if key == "HINT":
            if g.ranked:
                from bgapp import rankplay
                if not rankplay.confirmed(app, key):
                    return "a hint makes this game unranked: HINT again to confirm"
                rankplay.unrank(app, g, "hint")
                rankplay.drop()
            d1, d2 = m.dice
            play = app.bot(6).hint(m.pos, d1, d2)
            self.hint = play.moves if play else ()
            app.message = "hint: %s" % (play if play else "no legal play")
            return None
        if key == "UNDO":
            if self.sel >= 0:
                self.sel = -1
                return None
            if not g.rep.steps:
                return "nothing to undo"
            grp = self.groups
            n = 1
            if grp and sum(grp) == len(g.rep.steps):    # (after a power cut: step by step)
                n = grp.pop()
            else:
                self.groups = []
            for i in range(n):          # a move keyed as one (24/13 with 6-5) goes back as one
                g.ev("UNDO %d" % p, True)     # (written once the answer is lit)
            app.changed()
            return None
        if key == "OK":
            if not self.complete:
                return "the play is not complete"
            self._confirm(self.complete, False)
            return None
        pt = moves.point(key, p)
        if pt < 0:
            if key == "DOUBLE":
                return "the dice are rolled: double before you roll"
            return "not a point"
        try:
            # what a point key needs is worked out before any event: a key the heap cannot
            # answer is refused whole (and the board goes on), never half made
            opts = self.opts
            if self.sel < 0 or (pt != self.sel and pt in opts and pt not in self.dests(self.sel)):
                if pt not in opts:
                    return self._no_source(key, pt)
                self.dests(pt)          # (its destinations, lit by draw)
                self.sel = pt
                return None
            if pt == self.sel:
                self.sel = -1
                return None
            steps = self.dests(self.sel).get(pt)
            if steps is None:
                return "cannot move from %s to %s" % (moves.where_pt(self.sel, p),
                                                      moves.where(key))
            self._walk(g.rep.steps + list(steps))   # the plays left after it, for enter
        except MemoryError:
            gc.collect()
            return _NO_MEMORY
        for s, t in steps:
            g.ev("STEP %d %d %d" % (p, s, t), True)   # (written once the answer is lit)
        self.groups.append(len(steps))
        app.changed()
        if self.complete and self.scorer:
            from bgapp.tutor import warn
            if warn(app, p, "move", self.scorer.loss(self.index)):
                return None
        if self.complete and app.journal.settings["confirm"]:
            self._confirm(self.complete, False)
        return None

    def _no_source(self, key, pt):
        """Why the checkers at pt (the mover's numbering) cannot be picked up."""
        if self.complete and not self.opts:
            return "the play is complete: OK confirms, UNDO takes back"
        raw = self.app.game.board()
        if 0 < pt < 25 and raw[pt]:
            if raw[25]:
                return "enter from the bar first"
            return "the checkers on %s cannot move" % moves.where(key)
        if pt == 25 and raw[25]:
            return "the checker on the bar cannot enter"
        return "no checker to move from %s" % moves.where(key)

    def draw(self, r):
        g = self.app.game
        raw = g.board()
        mover = g.m.turn
        render.game(self.app, r, raw, mover, self.hint)
        # sources glow, the selected one shows its destinations
        col = r.col
        sel = self.sel
        for s in self.opts:
            if sel < 0 or s == sel:
                r.put(r.top(render.element(mover, s), raw[s]), col["source"])
        if sel >= 0:
            for t in self.dests(sel):
                if t == 0:
                    n = r.free("off%d" % mover, raw[0])
                elif raw[51 - t] == 1:
                    n = r.top(render.element(1 - mover, 25 - t), 1)
                else:
                    n = r.free(render.element(mover, t), raw[t])
                r.put(n, col["dest"])
        if g.rep.warning and self.blink:
            for s, t in g.rep.steps:        # the tutor's warning: the moved checkers blink
                if t:
                    r.put(r.top(render.element(mover, t), raw[t]), b"\0\0\0")

    def state(self):
        return " complete=1" if self.complete else ""
