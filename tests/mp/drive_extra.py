# The drive's commands for the tutor (tests/mp/app_drive.py loads this module when one of them
# comes): TURN, BLUNDER, BEST, SHOW, MEM (see app_drive.py's top); the chouette's CGAME is
# drive_chouette.py's.
import gc


def run(w, app, hal, key_play):
    def settle():
        # run the loop until the board waits for a person
        for i in range(10000):
            app.tick()
            g = app.game
            if not (app.pending or app.anim.hops) and g.actor() is not None \
                    and g.who[g.actor()] is None:
                return
            if g.m.phase in ("game_over", "match_over"):
                return

    def best_play():
        m = app.game.m
        return app.bot(6).hint(m.pos, m.dice[0], m.dice[1])

    if w[0] in ("TURN", "BLUNDER"):
        from bgcore.net import S_OUT
        while True:
            settle()
            g = app.game
            m = g.m
            if m.phase in ("opening", "turn"):
                if w[0] == "TURN" and m.phase == "turn":
                    break
                app.press("OK")
                continue
            if m.phase != "move":
                break
            plays = app.move.plays
            if w[0] == "BLUNDER" and len(plays) > 1:
                eq = app.bot(6).equities(m.pos, plays)
                worst = min(range(len(eq)), key=lambda i: eq[i])
                loss = (max(eq) - eq[worst]) * 1000 // S_OUT
                if loss > app.journal.settings["tutor"]:
                    play = plays[worst].detached()
                    plays = eq = None
                    print("BLUNDER", loss, play)
                    key_play(play, m.turn)
                    break
            plays = None
            play = best_play()
            if play:
                key_play(play, m.turn)
            app.press("OK")
    elif w[0] == "BEST":
        print("BEST", best_play())
        key_play(best_play(), app.game.m.turn)
    elif w[0] == "SHOW":
        app.show()
        print("TEXT", "|".join(hal.lines))
    elif w[0] == "MEM":
        gc.collect()
        print("MEM", gc.mem_alloc(), gc.mem_free())
