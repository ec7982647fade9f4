# The chances of the side on roll one roll ahead, for the bot's cube decisions near a cube window
# (bgcore.cube): the network's chances of a position before the roll are its weakest figure, and
# averaging over the 21 rolls the chances after the bot's best play for each brings them closer
# to GNU Backgammon's (bgboard bench bot measures the decisions). Integer arithmetic: the same
# chances on MicroPython and CPython. Loaded only when a decision is close.

P = 32768


def ahead(bot, pos):
    """The chances of the side on roll in `pos` one roll ahead: for each of the 21 rolls, the
    bot's best play (by the network, as bot.hint plays it), and the chances after it (exact at
    the end of the game), averaged with the rolls' weights. Integer arithmetic; the board's
    watchdog is fed through bot.tick (every 16 plays scored and after each roll)."""
    s0 = s1 = s2 = s3 = s4 = 0
    tick = bot.tick
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            k = 1 if d1 == d2 else 2
            q = pos.apply(bot.hint(pos, d1, d2))
            if q.is_over():
                kind = q.result()[1]
                s0 += k * P
                if kind > 1:
                    s1 += k * P
                if kind > 2:
                    s2 += k * P
            else:
                w, wg, wb, lg, lb = bot.chances(q)        # of the opponent, now on roll
                s0 += k * (P - w)
                s1 += k * lg
                s2 += k * lb
                s3 += k * wg
                s4 += k * wb
            if tick:
                tick()
    return [s0 // 36, s1 // 36, s2 // 36, s3 // 36, s4 // 36]
