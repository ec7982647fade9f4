# Game over or match over: the result on the panel and display; OK starts the next game (or a
# new match once the match is over).

from bgcore.match import MATCH_OVER
from bgapp.game import View


class OverView(View):
    def key(self, key):
        app = self.app
        g = app.game
        if g.rep.ended:
            if key == "OK":
                app.new_match()
                return None
            return "the match is over: OK starts a new one"
        if key != "OK":
            return "the game is over: OK starts the next"
        if g.m.phase == MATCH_OVER:
            app.new_match()
        else:
            g.next_game()
        return None
