# The chances of the side on roll one roll ahead, for the bot's cube decisions near a cube window
# (bgcore.cube) and level 6's close checker plays (bgcore.bot): the network's chances of a
# position before the roll are its weakest figure, and averaging over the 21 rolls the chances
# after the bot's best play for each brings them closer to GNU Backgammon's (bgboard bench bot
# measures the decisions). Integer arithmetic: the same chances on MicroPython and CPython.
# Loaded only when a decision is close, and dropped after it.
#
# Its cost is bounded by what it does, never by a clock: a double can have hundreds of plays
# (and a thousand orders of steps to find them), so a double's play is found in two halves:
# the two-step halves of the first pair of dice scored by the network, then, after each of the
# BEAM best, every second half; the best whole play among those. Every play of a double is a
# first half and a second half, so this finds the bot's own play unless its first half is not
# among the BEAM best. A roll whose halves cannot use all four dice (a blocked or bearing-off
# side, with few plays) is played through the whole list as bot.hint does.

from bgcore.position import Position, Plays, _Found, _search, _ZOBRIST

P = 32768
BEAM = 2                # first halves of a double followed up
CAP = 224               # plays scored before the rolls left are estimated (a bound on the cost)
# the rolls in an order that mixes high and low numbers and doubles, so that the rolls looked at
# before CAP stand for all of them
ORDER = (21, 65, 33, 41, 62, 55, 31, 54, 11, 63, 42, 66, 51, 43, 22, 61, 52, 44, 32, 64, 53)


def _halves(raw, d):
    # the plays of two steps of d (fewer where two cannot be played), as a Plays: the same
    # search as Position.plays for doubles, over two dice instead of four
    b = bytearray(raw)
    found = _Found(raw)
    h = 0
    for i in range(26):
        h += b[i] * _ZOBRIST[i]
    _search(b, (d, d), True, bytearray(8), found, h)
    if found.used <= 0:
        found.n = 0
    return Plays(found)


def _double_after(bot, pos, d, work):
    # (the position after the bot's play of d-d, the opponent on roll; the chances after it as
    # bot._chances gives them, or None), or None when the halves do not use all four dice
    # (then the whole list decides)
    first = _halves(pos.raw, d)
    if first._f.used < 2:
        return None
    n = len(first)
    order = []
    if n > 1:
        eq = []
        work[0] += n
        bot._scan(pos, first, 0, eq)
        # the BEAM best first halves, the earliest of equal ones first
        for _ in range(BEAM if BEAM < n else n):
            k = -1
            for i in range(n):
                if i not in order and (k < 0 or eq[i] > eq[k]):
                    k = i
            order.append(k)
    else:
        order.append(0)
    best = best_v = ch = None
    for i in order:
        mid = Position(first[i].after)
        if mid.is_over():
            return mid.swapped(), None      # the last checkers borne off in the first half
        second = _halves(mid.raw, d)
        if second._f.used < 2:
            return None
        eq = []
        work[0] += len(second)
        bot._scan(mid, second, 0, eq)
        k = 0
        for j in range(1, len(eq)):
            if eq[j] > eq[k]:
                k = j
        if best_v is None or eq[k] > best_v:
            best_v = eq[k]
            best = mid.apply(second[k])
            ch = None if best.is_over() else bot._chances_of(mid, second, k, best)
    return best, ch


def _after(bot, pos, d1, d2, work):
    # after_roll's position and the chances after it as bot._chances gives them (read from
    # the scan's sums: see Bot._chances_of), or None where no scan chose the play
    if d1 == d2:
        found = _double_after(bot, pos, d1, work)
        if found is not None:
            return found
    plays = pos.plays(d1, d2)
    n = len(plays)
    work[0] += n
    if n < 2:
        return pos.apply(plays[0] if n else None), None
    k = bot._scan(pos, plays, 0)
    q = pos.apply(plays[k])
    return q, None if q.is_over() else bot._chances_of(pos, plays, k, q)


def after_roll(bot, pos, d1, d2, work=None):
    """The position after the bot's best play of d1-d2 in `pos` (the opponent on roll), a
    double's found in halves (above). `work[0]` counts the plays scored."""
    return _after(bot, pos, d1, d2, [0] if work is None else work)[0]


def ahead(bot, pos, cap=None):
    """The chances of the side on roll in `pos` one roll ahead: for each of the 21 rolls, the
    bot's best play (by the network, as bot.hint plays it; a double's found in halves), and the
    chances after it (exact at the end of the game), averaged with the rolls' weights. The rolls
    are taken in ORDER until CAP plays have been scored; the rolls left then count as the mean
    of those looked at (only a position with many plays for most rolls reaches it). Integer
    arithmetic; the board's watchdog is fed through bot.tick (every 16 plays scored and after
    each roll)."""
    s0 = s1 = s2 = s3 = s4 = 0
    tick = bot.tick
    cap = CAP if cap is None else cap
    work = [0]
    weight = 0
    same = same_ch = None       # the position after a roll the opponent cannot play, and its
                                # chances: every such roll leaves the same one (a dance's chances
                                # cost a board ~9 ms: a blitz's look ahead met them ten times)
    for r in ORDER:
        if weight and work[0] >= cap:
            break
        d1 = r // 10
        d2 = r % 10
        k = 1 if d1 == d2 else 2
        weight += k
        q, ch = _after(bot, pos, d1, d2, work)
        if q.is_over():
            kind = q.result()[1]
            s0 += k * P
            if kind > 1:
                s1 += k * P
            if kind > 2:
                s2 += k * P
        else:
            if ch is None:
                if same is not None and q.raw == same:
                    ch = same_ch
                else:
                    ch = bot._chances(q)
                    same, same_ch = q.raw, ch
            w, wg, wb, lg, lb = ch                  # of the opponent, now on roll
            s0 += k * (P - w)
            s1 += k * lg
            s2 += k * lb
            s3 += k * wg
            s4 += k * wb
        if tick:
            tick()
    return [s0 // weight, s1 // weight, s2 // weight, s3 // weight, s4 // weight]


def closest(bot, pos, plays, eq, most, margin, cap):
    """Of `plays` (the network's equities `eq`), the `most` best within `margin` of the best
    (of equal ones the earlier), the one whose equity one roll ahead (the opponent's chances
    by `ahead` with `cap`), averaged with the network's own, is best (of equal ones the better
    by the network). The average, not the look ahead alone: over bgboard bench bot's 13,971
    rolls level 6 (two plays) then misses gnubg-nn 0-ply's best play by 8.29 millipoints a
    move, by 8.48 with the look ahead alone (the network alone 10.65)."""
    n = len(plays)
    picked = []
    for _ in range(most):
        k = -1
        for i in range(n):
            if i not in picked and (k < 0 or eq[i] > eq[k]):
                k = i
        if k < 0 or (picked and eq[picked[0]] - eq[k] > margin):
            break
        picked.append(k)
    own = [eq[i] for i in picked]            # the network's equities of the picked
    picked = [plays[i].detached() for i in picked]
    best = best_v = None
    for play, e in zip(picked, own):
        after = pos.apply(play)
        if after.is_over():
            return play
        w, wg, wb, lg, lb = ahead(bot, after, cap)      # the opponent's, on roll
        v = (P - 2 * w - wg - wb + lg + lb + e) >> 1    # the mover's, 1/32768 point
        if best_v is None or v > best_v:
            best = play
            best_v = v
    return best
