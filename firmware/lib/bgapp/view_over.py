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
                return app.new_match()
            return "the match is over: OK starts a new one"
        if key != "OK":
            return "the game is over: OK starts the next"
        if g.m.phase == MATCH_OVER:
            return app.new_match()
        why = app.room("no_room")
        if why:
            return why
        g.next_game()
        return None
