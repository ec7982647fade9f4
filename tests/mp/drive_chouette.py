# The drive's chouette command (tests/mp/app_drive.py loads this module when it comes): CGAME plan
# [n] plays a chouette game by keys (see app_drive.py's top). CPEAK, its live peak, leaves out
# the link's emergency reserve (2 KB kept free in one piece for the answers) and, as PEAK does,
# the first layer's copy an RP2040 reads in flash instead.
import gc


def run(w, app, hal, key_play):
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
        # (the link's emergency reserve, 2 KB and its object's 32 bytes, is room kept free in
        # one piece for the answers, not the chouette's: bgapp.link)
        peak = max(peak, gc.mem_alloc() - (2080 if app.link.reserve else 0))
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
    from bgcore import net
    print("CPEAK", peak - net.heap_beyond_chip())   # (as app_drive's PEAK)
