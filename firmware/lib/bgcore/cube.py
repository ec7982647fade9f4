# Cube decisions from cubeless win/gammon chances, in integer arithmetic (the same answer on the
# chip and the laptop). Both kinds of play blend a dead cube with a live one, as Janowski does for
# money: the live cube is worth what owning it is (cashing at the cash point, taking down to the
# take point), and the cube efficiency X says how much of that a player really gets (0.68 in
# contact; in a race it grows with the pip count, 0.6 to 0.7, as GNU Backgammon has it).
# Money play: Janowski's cubeful equity. Match play: the same blend over match winning chances
# from the Kazaross-XG2 table (bgcore.met), the take and cash points of every cube level worked
# out from the top (a cube that can no longer matter) down, with the Crawford and post-Crawford
# scores. Chances are five cumulative probabilities in 1/32768 (win, win gammon, win bg, lose
# gammon, lose bg) for the side deciding.

import sys

from bgcore import met
from bgcore.match import MAX_CUBE

P = 32768               # probability scale
F = 10000               # equity scale: 1 point (or a whole match) = F
X = 6800                # cube efficiency in contact, in 1/F


def efficiency(pos):
    """Cube efficiency (1/F) of a position seen from the side on roll: X while the sides can
    still hit each other, else 0.55 + 0.00125 a pip of the side on roll, within 0.6 - 0.7."""
    raw = pos.raw
    mine = theirs = 0
    for p in range(25, 0, -1):
        if raw[p]:
            mine = p
            break
    for p in range(25, 0, -1):
        if raw[26 + p]:
            theirs = p
            break
    if mine + theirs > 25:
        return X
    pips = 0
    for p in range(1, 26):
        pips += p * raw[p]
    x = 5500 + pips * 25 // 2
    return 6000 if x < 6000 else (7000 if x > 7000 else x)


def _wl(pr, gammons=True):
    # average value of a win and of a loss, in 1/F
    w = pr[0]
    if not gammons:
        return F, F
    W = F + (pr[1] + pr[2]) * F // w if w > 0 else F
    L = F + (pr[3] + pr[4]) * F // (P - w) if w < P else F
    return W, L


def _money(pr, owner, gammons=True, x=X):
    # cubeful equity for a cube of value 1; owner: 0 centred, 1 mine, -1 the opponent's
    W, L = _wl(pr, gammons)
    p = pr[0] * F // P
    dead = p * (W + L) // F - L
    tp = F * (L - F // 2) // (W + L + F // 2)        # my take point
    cp = F * (L + F) // (W + L + F // 2)             # my cash point
    if owner > 0:
        live = F if p >= cp else -L + (F + L) * p // cp
    elif owner < 0:
        live = -F if p <= tp else -F + (W + F) * (p - tp) // (F - tp)
    else:
        if p <= tp:
            live = -F
        elif p >= cp:
            live = F
        else:
            live = -F + 2 * F * (p - tp) // (cp - tp)
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
    """Cubeful match winning chances at one score, for one set of chances: the side deciding is
    `a` points away, its opponent `b`; the cube stands at `cube` or will be doubled from it.
    The shares of gammons and backgammons among wins and losses are taken as the position's
    at every cube level (as Janowski does); only the chance of winning varies."""

    def __init__(self, pr, a, b, cube, post_crawford=False, x=X):
        self.a, self.b, self.post, self.x = a, b, post_crawford, x
        w = pr[0]
        lose = P - w
        self.ws = ((w - pr[1]) * F // w, (pr[1] - pr[2]) * F // w, pr[2] * F // w) if w \
            else (F, 0, 0)
        self.ls = ((lose - pr[3]) * F // lose, (pr[3] - pr[4]) * F // lose, pr[4] * F // lose) \
            if lose else (F, 0, 0)
        self.p = w * F // P
        self._ends = {}
        self.points = {}        # cube -> (my take point, my cash point), in 1/F
        top = cube
        while top < a or top < b:
            top *= 2
        c = top // 2
        while c >= cube:        # from the highest cube that still matters down
            self.points[c] = (self._solve(c * 2, MINE, mwc(a, b - c, self.post)),
                              self._solve(c * 2, THEIRS, mwc(a - c, b, self.post)))
            c //= 2

    def _end(self, c):
        # (average chance after a loss, after a win) with the cube at c, dead
        e = self._ends.get(c)
        if e is None:
            a, b, post = self.a, self.b, self.post
            lose = win = 0
            for k in range(3):
                lose += self.ls[k] * mwc(a, b - (k + 1) * c, post)
                win += self.ws[k] * mwc(a - (k + 1) * c, b, post)
            e = self._ends[c] = (lose // F, win // F)
        return e

    def value(self, p, c, owner):
        """Match winning chance (1/F) of the side deciding at win chance p (1/F), with the cube
        at c owned by `owner` (CENTRED, MINE or THEIRS)."""
        lo_v, hi_v = self._end(c)
        dead = lo_v + (hi_v - lo_v) * p // F
        pts = self.points.get(c)
        lo_p, hi_p = 0, F
        if pts is not None:
            # they double me out at my take point, I cash at my cash point: unless the side
            # with the market is too good to cash and plays on for the gammon (the dead cube's
            # value there is better for it than the cash)
            if owner != MINE and self.b > c:
                lo_p = pts[0]
                lo_v = min(mwc(self.a, self.b - c, self.post), lo_v + (hi_v - lo_v) * lo_p // F)
            if owner != THEIRS and self.a > c:
                hi_p = pts[1]
                e0, e1 = self._end(c)
                hi_v = max(mwc(self.a - c, self.b, self.post), e0 + (e1 - e0) * hi_p // F)
        if hi_p <= lo_p:
            live = dead
        elif p <= lo_p:
            live = lo_v if lo_v < dead else dead
        elif p >= hi_p:
            live = hi_v if hi_v > dead else dead
        else:
            live = lo_v + (hi_v - lo_v) * (p - lo_p) // (hi_p - lo_p)
        return dead + self.x * (live - dead) // F

    def _solve(self, c, owner, target):
        # the win chance at which value(p, c, owner) reaches target (it grows with p)
        if self.value(0, c, owner) >= target:
            return 0
        if self.value(F, c, owner) < target:
            return F
        lo, hi = 0, F
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.value(mid, c, owner) >= target:
                hi = mid
            else:
                lo = mid
        return hi


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
