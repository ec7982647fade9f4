# The drive's commands for the tutor and the chouette (tests/mp/app_drive.py loads this module
# when one of them comes): TURN, BLUNDER, BEST, SHOW, CGAME, MEM (see app_drive.py's top).
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
    elif w[0] == "CGAME":
        plan = w[1]
        presses = int(w[2]) if len(w) > 2 else -1     # stop after this many (a power cut)
        k = 0
        doubled = None            # the turn (game, slot) a person last doubled in
        turned = 0                # "multi": the doubles people offered this game
        answers = 0               # "multi": the answers people gave this game
        peak = 0
        for i in range(20000):
            app.tick()
            if app.pending or app.anim.hops:
                continue
            g = app.game
            ch = g.ch
            v = app.view
            mod = getattr(v, "module", "")
            m = g.m
            if m.phase == "game_over":
                break
            gc.collect()
            peak = max(peak, gc.mem_alloc())
            if presses == 0:
                break
            presses -= 1
            turn = (m.game, g.rep.slot)
            if mod == "view_chouette_cube":
                p, q = g.answerer()
                if v.waits == "board":
                    continue
                if plan == "multi":         # people drop one answer in three, the first of all
                    drop = answers % 3 == 0
                    answers += 1
                else:
                    drop = plan in ("boxwin", "teamwin") or (plan == "captaindrop"
                                                              and p == ch.captain)
                print("ANSWER", ch.names[q], ch.names[p], "drop" if drop else "take")
                app.press("UNDO" if drop else "OK")
                app.show()                  # what the board shows after each answer
                print("CMEMBERS", ",".join(g.members()))
                print("CTEXT", "|".join(hal.lines))
            elif mod == "view_chouette_double":
                # one cube at a time: the last player in the line the person may double (on the
                # team's turn a member other than the captain, when there is one), then OK
                # (a bot captain's team: the people are asked first; nothing picked, the bot rolls)
                if g.picking or plan != "multi" or doubled != turn and turned >= 4:
                    app.press("OK")
                else:
                    if doubled != turn:
                        doubled = turn
                        turned += 1
                    p = g.pickable()[-1]
                    print("PICK", ch.names[p], app.press("P%d" % (ch.line.index(p) + 1)))
            elif v is app.roll:
                if ch.cubes == "single":
                    can = ch.can_double(ch.captain)
                    want = {"captaindrop": 0, "boxwin": 0, "teamwin": 1}.get(plan, -1)
                    go = m.turn == want and doubled is None
                else:
                    go = plan == "multi" and doubled != turn and turned < 4
                    can = go and m.phase == "turn" and bool(g.pickable())
                if m.phase == "turn" and can and go:
                    doubled = turn
                    turned += 1
                    app.press("DOUBLE")
                else:
                    app.press("OK")
            elif v is app.move:
                plays = app.move.plays
                if not plays:
                    continue
                k += 7
                play = plays[k % len(plays)]
                plays = None
                key_play(play, m.turn)
                app.press("OK")
        ch = app.game.ch
        print("CH", ",".join(ch.names[p] for p in ch.line),
              " ".join(str(x) for x in ch.scores), app.game.result)
        print("CPEAK", peak)
    elif w[0] == "MEM":
        gc.collect()
        print("MEM", gc.mem_alloc(), gc.mem_free())
