# DEMO: the board plays bot-against-bot single games (level 6) by itself, animated as for a person
# watching, into a record of its own; MENU (or BACK) stops it and the game in progress is resumed;
# other keys are refused while it runs.

from micropython import const

from bgcore.match import OPENING, GAME_OVER, MATCH_OVER
from bgapp.game import View
from bgapp.app import unload

_THINK_MS = const(500)     # before the opening roll
_OVER_MS = const(2500)     # a game's result on show


class DemoView(View):
    waits = "board"
    module = "view_demo"

    def __init__(self, app):
        View.__init__(self, app)
        self.left = 0             # demo games left, the one on the board included (0: no demo)
        self.total = 0
        self.was_fast = False

    def start(self, n, fast):
        app = self.app
        app.journal.close()
        app.game = None
        app.anim.hops = None
        app.pending = None
        self.left = self.total = n
        self.was_fast = app.fast
        app.fast = fast or app.fast
        app.new_match(demo=True)

    def stop(self):
        app = self.app
        self.left = 0
        app.fast = self.was_fast
        app.pending = None
        app.anim.hops = None
        app.end_session()
        app.link.event("DEMO END")
        app.demo = None
        app.message = ""          # the last game's words do not outlive it
        app.to_menu()
        app.resume()
        unload(self.module)

    def key(self, key):
        if key in ("MENU", "BACK"):
            self.stop()
            return None
        return "a demo is running (MENU stops it)"

    def tick(self):
        app = self.app
        g = app.game
        if g.rep.ended:
            return
        ph = g.m.phase
        if ph == OPENING:
            app.later(_THINK_MS, self._open)
        elif ph in (GAME_OVER, MATCH_OVER):
            app.later(_OVER_MS, self._next)
        else:
            app.bot_turn.tick()

    def _open(self):
        self.app.roll.open()

    def _next(self):
        g = self.app.game
        if g.m.phase == GAME_OVER and self.left > 1:
            self.left -= 1
            g.next_game()
            return
        self.stop()
