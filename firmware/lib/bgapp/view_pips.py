# The pips view: the pip counts on the bars and a check of the record on flash (its chain, and
# its last game replayed with the rules and compared with the game in memory; the watchdog fed
# inside). Any key but MENU goes back to the game.

from bgcore.record import RecordError
from bgapp.game import View


class PipsView(View):
    name = "pips"
    playing = False
    transient = True
    module = "view_pips"

    def key(self, key):
        self.app.go(self.app.play)
        return None

    def check(self):
        # replay the record on flash and compare it with the state in memory
        from bgcore.resume import replay_last_game
        from bgapp.journal import Fed
        app = self.app
        j = app.journal
        g = app.game
        m = g.m
        try:
            with open(j.path(j.name), "rb") as raw:
                if g.ch:
                    from bgcore.chouette import replay as replay_chouette
                    f = Fed(raw, app.hal.feed)      # a long record: the watchdog fed inside
                    rep, info, torn = replay_chouette(f, False)
                    rep = rep.rep
                else:
                    rep, info, torn = replay_last_game(raw, app.hal.feed)
            ok = (rep.match.pos == m.pos and rep.match.match_id() == m.match_id()
                  and rep.steps == g.rep.steps)
            app.message = "record %s %s" % (j.name, "verified" if ok else "DIFFERS from the game")
        except (RecordError, OSError) as e:
            app.message = "record %s: %s" % (j.name, e)

    def draw(self, r):
        app = self.app
        anim = app.anim
        if anim.hops:
            raw, mover = anim.raw, anim.p
        else:
            raw, mover = app.game.board(), app.game.m.turn
        r.board(raw, mover)
        me, them = _pips(raw)
        pips = (me, them) if mover == 0 else (them, me)
        for side in (0, 1):
            r.light("bar%d" % side, (pips[side] + 24) // 25, r.col["dice"], 2)

    def lines(self):
        return self.app.play.lines()


def _pips(raw):
    """Pip counts (mover, opponent) of a position's bytes."""
    me = them = 0
    for q in range(1, 26):
        me += q * raw[q]
        them += q * raw[26 + q]
    return me, them
