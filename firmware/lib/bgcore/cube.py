# Cube decisions from cubeless win/gammon chances, in integer arithmetic (the same answer on the
# chip and the laptop), by GNU Backgammon's own 0-ply cube model: the cubeless equity (or match
# winning chance) blended with a live cube's by the cube efficiency (0.68 in contact, 0.6 in a
# bear-off, 0.6-0.7 by the pip count in a race). Money play: Janowski's cubeful equity, the live
# cube linear in the win chance between the game's ends, the take point and the cash point.
# Match play: the same over match winning chances from the Kazaross-XG2 table (bgcore.met), each
# side's cash point worked out from the highest cube level that still matters down (dead and
# automatically redoubled cubes included), with the Crawford and post-Crawford scores. Given
# gnubg's chances it gives gnubg's cubeful equities (tests/test_bot_cube.py). Chances are five
# cumulative probabilities in 1/32768 (win, win gammon, win bg, lose gammon, lose bg) for the
# side deciding.

import sys

from bgcore import met
from bgcore.match import MAX_CUBE
from bgcore.position import rearmost

P = 32768               # probability scale
F = 10000               # equity scale: 1 point (or a whole match) = F
X = 6800                # cube efficiency in contact, in 1/F


def efficiency(pos):
    """Cube efficiency (1/F) of a position seen from the side on roll, as GNU Backgammon's 0-ply
    has it: X while the sides can still hit each other; 0.6 in a bear-off (both sides home);
    else 0.55 + 0.00125 a pip of the side on roll, within 0.6 - 0.7."""
    raw = pos.raw
    mine, theirs = rearmost(raw)
    if mine + theirs > 25:
        return X
    if mine <= 6 and theirs <= 6:
        return 6000
    pips = 0
    for p in range(1, 26):
        pips += p * raw[p]
    x = 5500 + pips * 25 // 2
    return 6000 if x < 6000 else (7000 if x > 7000 else x)


def _wl(pr):
    # average value of a win and of a loss, in 1/F
    w = pr[0]
    W = F + (pr[1] + pr[2]) * F // w if w > 0 else F
    L = F + (pr[3] + pr[4]) * F // (P - w) if w < P else F
    return W, L


def _line(p, p0, v0, p1, v1):
    # the value at p on the line through (p0, v0) and (p1, v1)
    return v0 + (v1 - v0) * (p - p0) // (p1 - p0) if p1 != p0 else v1


def _money(pr, owner, gammons=True, x=X):
    """Cubeful equity (1/F) for a cube of value 1, as GNU Backgammon's 0-ply has it (Janowski):
    the cubeless equity blended by the efficiency x with the live cube's, which is linear in the
    win chance between (0, -L), the take point, the cash point and (1, W); owner: 0 centred, 1
    mine, -1 the opponent's; `gammons` false: the Jacoby rule with a centred cube (gammons count
    neither in the cubeless equity nor at the ends of the window)."""
    W, L = _wl(pr)
    p = pr[0] * F // P
    if gammons:
        dead = p * (W + L) // F - L
    else:
        dead = 2 * p - F
    tp = F * (L - F // 2) // (W + L + F // 2)        # my take point
    cp = F * (L + F) // (W + L + F // 2)             # my cash point
    if owner > 0:
        live = _line(p, 0, -L, cp, F) if p < cp else _line(p, cp, F, F, W)
    elif owner < 0:
        live = _line(p, 0, -L, tp, -F) if p < tp else _line(p, tp, -F, F, W)
    elif p < tp:
        live = -F if not gammons else _line(p, 0, -L, tp, -F)
    elif p < cp:
        live = _line(p, tp, -F, cp, F)
    else:
        live = F if not gammons else _line(p, cp, F, F, W)
    return ((F - x) * dead + x * live) // F


def money_double(pr, centred, jacoby=False, x=X):
    """Should the side on roll (chances `pr`) double? `centred`: else it owns the cube."""
    nd = _money(pr, 0 if centred else 1, not (jacoby and centred), x)
    dt = 2 * _money(pr, -1, True, x)
    return min(dt, F) > nd


def money_take(pr, x=X):
    """Should the side offered the cube (chances `pr`, seen from it) take?"""
    return 2 * _money(pr, 1, True, x) >= -F


BEAVER = 2500          # a beaver wants at least this cubeful equity (1/F) owning the cube


def money_beaver(pr, x=X):
    """Should the side offered the cube beaver (redouble at once, keeping the cube)? Only when
    clearly favourable: the favourite, worth a quarter point or more owning the cube (Janowski
    gives the cube's owner some equity even in a level position)."""
    return pr[0] > P // 2 and _money(pr, 1, True, x) >= BEAVER


def mwc(away_me, away_them, post_crawford=False):
    """Chance, in 1/F, that a player `away_me` points away wins the match against one
    `away_them` away."""
    if away_me <= 0:
        return F
    if away_them <= 0:
        return 0
    n = met.SIZE
    if post_crawford and (away_me == 1 or away_them == 1):
        if away_me == 1 and away_them == 1:
            return F // 2
        j = min(away_me if away_them == 1 else away_them, n) - 1
        v = met.POST[2 * j] | met.POST[2 * j + 1] << 8
        return v if away_them == 1 else F - v
    i = min(away_me, n) - 1
    j = min(away_them, n) - 1
    k = 2 * (i * n + j)
    return met.PRE[k] | met.PRE[k + 1] << 8


CENTRED = 0
MINE = 1
THEIRS = -1


class MatchCube:
    """Cubeful match winning chances at one score, for one set of chances, as GNU Backgammon's
    0-ply has them: the side deciding is `a` points away, its opponent `b`; `cube` the cube in
    play. The cubeless chance of winning the match (each result's chance from the table) is
    blended by the efficiency x with the live cube's, which is linear in the win chance between
    losing as the position says (p = 0), the opponent cashing the cube (at its cash point), my
    cashing it (at mine) and winning as the position says (p = 1). The cash points of each side
    come from the highest cube that can still matter down (a doubled cube that can no longer be
    redoubled usefully is dead; a side that wins the match with the doubled cube gets it
    redoubled at once by an opponent with nothing to lose). The shares of gammons and
    backgammons among wins and losses are the position's at every cube level."""

    def __init__(self, pr, a, b, cube, post_crawford=False, x=X):
        self.a, self.b, self.post, self.x = a, b, post_crawford, x
        w = pr[0]
        lose = P - w
        # (single, gammon, backgammon) shares of my wins and of my losses, in 1/F
        self.ws = ((w - pr[1]) * F // w, (pr[1] - pr[2]) * F // w, pr[2] * F // w) if w \
            else (F, 0, 0)
        self.ls = ((lose - pr[3]) * F // lose, (pr[3] - pr[4]) * F // lose, pr[4] * F // lose) \
            if lose else (F, 0, 0)
        self.p = w * F // P
        self._cps = {}

    def _m(self, k, n):
        # match winning chance of side k (0 me, 1 the opponent) after k wins n points (n < 0:
        # after k loses -n points)
        a, b, post = self.a, self.b, self.post
        if k:
            n = -n
        v = mwc(a - n, b, post) if n > 0 else mwc(a, b + n, post)
        return v if not k else F - v

    def _results(self, k, c, win):
        # side k's average match winning chance after it wins (or loses) a game at cube c, with
        # the position's gammon shares of that side's wins (or losses)
        mine = (k == 0) == win
        sh = self.ws if mine else self.ls
        s = 1 if win else -1
        return (sh[0] * self._m(k, s * c) + sh[1] * self._m(k, 2 * s * c)
                + sh[2] * self._m(k, 3 * s * c)) // F

    def _points(self, v):
        # (my cash point, the opponent's) with the cube at v, in 1/F of my or its win chance
        e = self._cps.get(v)
        if e is not None:
            return e
        i, j = self.a - 1, self.b - 1
        top = v
        while i >= 2 * top and j >= 2 * top:
            top *= 2
        cps = {}
        c = top
        while c >= v:
            res = [F, F]
            for k in (0, 1):
                ik, jk = (i, j) if k == 0 else (j, i)
                dp = self._m(k, c)
                if i < 2 * c or j < 2 * c:
                    # the doubled cube is dead (an opponent with nothing to lose redoubles)
                    pc = 2 * c if ik < 2 * c <= jk else c
                    dtl = self._results(k, 2 * pc, False)
                    dtw = self._results(k, 2 * pc, True)
                    if dtl != dtw:
                        res[k] = F * (dtl - dp) // (dtl - dtw)
                else:
                    rdp = self._m(k, -2 * c)
                    dtw = self._results(k, 2 * c, True)
                    if rdp != dtw:
                        res[k] = F - cps[2 * c][1 - k] * (dp - dtw) // (rdp - dtw)
            cps[c] = res
            c //= 2
        e = self._cps[v] = cps[v]
        return e

    def value(self, p, c, owner):
        """Match winning chance (1/F) of the side deciding at win chance p (1/F), with the cube
        at c owned by `owner` (CENTRED, MINE or THEIRS)."""
        a, b = self.a, self.b
        win = self._results(0, c, True)
        lose = self._results(0, c, False)
        dead = lose + (win - lose) * p // F
        if (a <= c and b <= c) or (a == 2 and b == 2):
            return dead         # a dead cube (GNU Backgammon holds 2-away 2-away so too)
        cash = self._m(0, c)
        ocash = self._m(0, -c)
        cp, ocp = self._points(c)
        tg = cp                 # above it I cash
        otg = F - ocp           # below it the opponent cashes
        if owner == MINE:
            live = _line(p, 0, lose, tg, cash) if p <= tg else _line(p, tg, cash, F, win)
        elif owner == THEIRS:
            live = _line(p, 0, lose, otg, ocash) if p <= otg else _line(p, otg, ocash, F, win)
        elif p <= otg:
            live = _line(p, 0, lose, otg, ocash)
        elif p < tg:
            live = _line(p, otg, ocash, tg, cash)
        else:
            live = _line(p, tg, cash, F, win)
        return ((F - self.x) * dead + self.x * live) // F


def match_double(pr, a, b, cube, post_crawford=False, centred=True, x=X):
    """Double at a match score where the side on roll is `a` away, its opponent `b` away?"""
    if a <= cube:
        return False        # already enough to win: a bigger cube only risks more
    m = MatchCube(pr, a, b, cube, post_crawford, x)
    nd = m.value(m.p, cube, CENTRED if centred else MINE)
    dt = m.value(m.p, 2 * cube, THEIRS)
    dp = mwc(a - cube, b, post_crawford)
    return min(dt, dp) > nd


def match_take(pr, a, b, cube, post_crawford=False, x=X):
    """Take a double to 2 * `cube`? The deciding side is `a` away, the doubler `b` away."""
    m = MatchCube(pr, a, b, 2 * cube, post_crawford, x)
    return m.value(m.p, 2 * cube, MINE) >= mwc(a, b - cube, post_crawford)


# ---- decisions for a bot in a bgcore.match.Match -------------------------------------------------
BOT_CUBE = 64           # the bot never puts the cube past this (by a double or a beaver) unless
                        # a person already has
NEAR = 1600           # 1/32768: chances this close to a decision's edge are looked at 1-ply


def _shifted(pr, d):
    # the same chances with d more (or less) to win, the gammon shares of wins and losses kept
    w = pr[0]
    v = min(P, max(0, w + d))
    return [v, pr[1] * v // w, pr[2] * v // w, pr[3] * (P - v) // (P - w),
            pr[4] * (P - v) // (P - w)] if 0 < w < P else pr


def _decided(decide, pos, pr, bot, turn):
    # the decision from the bot's chances (`turn`: seen by the side not on roll): from the
    # network's, or one roll ahead where a little change in them would change the decision
    if turn:
        pr = [P - pr[0], pr[3], pr[4], pr[1], pr[2]]
    d = decide(pr)
    if decide(_shifted(pr, -NEAR)) == d == decide(_shifted(pr, NEAR)):
        return d
    # the look ahead's code is loaded for such a decision only, and leaves the heap after it
    import bgcore
    from bgcore import lookahead
    pr = lookahead.ahead(bot, pos)
    del sys.modules["bgcore.lookahead"]
    delattr(bgcore, "lookahead")
    if turn:
        pr = [P - pr[0], pr[3], pr[4], pr[1], pr[2]]
    return decide(pr)


def wants_double(bot, match):
    c = match.cube
    if not match.cube_available(match.turn) or c <= BOT_CUBE < 2 * c:
        return False            # (the cube's largest, MAX_CUBE: cube_available says)
    pos = match.pos
    x = efficiency(pos)
    centred = match.owner == -1
    if match.rules.mode == "match":
        a, b = _aways(match, match.turn)
        cube, post = match.cube, match.crawford_done
        if a <= cube:
            return False

        def decide(pr):
            return match_double(pr, a, b, cube, post, centred, x)
    else:
        jacoby = match.rules.jacoby

        def decide(pr):
            return money_double(pr, centred, jacoby, x)
    return _decided(decide, pos, bot.chances(pos), bot, False)


def takes(bot, match):
    pos = match.pos
    x = efficiency(pos)
    if match.rules.mode == "match":
        a, b = _aways(match, 1 - match.offered_by)
        cube, post = match.cube, match.crawford_done

        def decide(pr):
            return match_take(pr, a, b, cube, post, x)
    else:
        def decide(pr):
            return money_take(pr, x)
    # the doubler on roll: its chances turned round are the taker's
    return _decided(decide, pos, bot.chances(pos), bot, match.turn == match.offered_by)


def beavers(bot, match):
    if match.rules.mode != "money" or not match.rules.beavers or match.beavered:
        return False
    c = match.cube
    if 4 * c > MAX_CUBE or c <= BOT_CUBE < 4 * c:
        return False
    pr, x = _seen_by_taker(bot, match)
    return money_beaver(pr, x)


def _seen_by_taker(bot, match):
    # the taker's chances, and the cube efficiency as the doubler (on roll) sees the position
    w, wg, wb, lg, lb = bot.chances(match.pos)
    x = efficiency(match.pos)
    if match.turn == match.offered_by:      # the doubler is on roll: turn its view round
        return [P - w, lg, lb, wg, wb], x
    return [w, wg, wb, lg, lb], x


def _aways(match, player):
    n = match.rules.length
    return n - match.score[player], n - match.score[1 - player]
