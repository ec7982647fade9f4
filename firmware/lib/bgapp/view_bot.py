# The computer's turn: after a pause it offers to resign a lost game (with the setting on:
# view_resign), doubles or rolls (with real dice on, a person keys its roll in: view_roll), takes,
# beavers (money play with beavers on) or drops a double, and plays (shown step by step:
# view_anim). Keys are refused while it acts.

import gc

from micropython import const

from bgcore.match import TURN, MOVE, DOUBLED
from bgapp.game import View

_THINK_MS = const(500)     # the bot's pause before acting


class BotView(View):
    waits = "board"

    def key(self, key):
        return "it is the computer's turn"

    def tick(self):
        self.app.later(_THINK_MS, self.act)

    def act(self):
        app = self.app
        g = app.game
        m = g.m
        p = g.actor()
        if p is None or g.who[p] is None:
            return
        bot = app.bot(g.who[p])
        if m.phase == TURN and g.ch:
            from bgcore.chouette import bot_offers
            offers = bot_offers(g.ch, g.bots())
            if offers:
                g.offer(offers)             # a chouette: answered in view_chouette_cube
                app.changed()
                return
        if m.phase == TURN and app.journal.settings["resign"] and not (g.ranked or g.demo):
            k = bot.resigns(m, p)
            if k and k > g.declined[p]:
                g.resigning = [p, k, True]  # the person answers (view_resign)
                app.changed()
                return
        if m.phase == TURN:
            if m.cube_available(p) and bot.wants_double(m):
                g.ev("DOUBLE %d %d" % (p, m.cube * 2))
            elif app.journal.settings["real"] and not g.demo:
                g.keyin = p
            else:
                d = app.roll_dice()
                g.ev("ROLL %d %d %d" % (p, d[0], d[1]))
        elif m.phase == DOUBLED:
            if bot.beavers(m):
                g.ev("BEAVER %d %d" % (p, m.cube * 2))
            elif bot.takes(m):
                g.ev("TAKE %d" % p)
            else:
                g.ev("DROP %d" % p)
                g.over()
        elif m.phase == MOVE:
            d1, d2 = m.dice
            gc.collect()
            if g.ranked:          # the play `bgboard verify --ranked` re-derives
                play = g.ranked.bot_play(g.rep, bot)
            else:
                play = bot.choose(m.pos, d1, d2)
            if play is None:
                app.message = "%s: no legal play" % g.names[p]
                hops = ()
            else:
                hops = play.moves
            play = None
            g.move(hops, True)
            return
        app.changed()
