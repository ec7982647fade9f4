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
BOT_CUBE = 64           # the bot never takes the cube past this unless a person already has
NEAR = 1600           # 1/32768: chances this close to a decision's edge are looked at 1-ply


def _may_raise(cube, to):
    # may the bot put the cube at `to` from `cube` (by a double or a beaver)?
    return to <= MAX_CUBE and (to <= BOT_CUBE or cube > BOT_CUBE)


def _shifted(pr, d):
    # the same chances with d more to win (1/32768), gammon shares of wins and losses kept
    w = pr[0]
    v = w + d
    v = 0 if v < 0 else (P if v > P else v)
    lose, lv = P - w, P - v
    return [v, pr[1] * v // w if w else 0, pr[2] * v // w if w else 0,
            pr[3] * lv // lose if lose else 0, pr[4] * lv // lose if lose else 0]


def _near(decide, pr):
    # would the decision change if the chances were a little off?
    d = decide(pr)
    return decide(_shifted(pr, -NEAR)) != d or decide(_shifted(pr, NEAR)) != d


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


def _chances(bot, pos, decide):
    # the bot's chances for a cube decision: 0-ply, or 1-ply where 0-ply is near the edge
    pr = bot.chances(pos)
    if _near(decide, pr):
        return ahead(bot, pos)
    return pr


def _turned(pr):
    w, wg, wb, lg, lb = pr
    return [P - w, lg, lb, wg, wb]


def wants_double(bot, match):
    if not match.cube_available(match.turn) or not _may_raise(match.cube, 2 * match.cube):
        return False
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
    return decide(_chances(bot, pos, decide))


def takes(bot, match):
    x = efficiency(match.pos)
    turn = match.turn == match.offered_by     # the doubler is on roll: turn its view round
    if match.rules.mode == "match":
        a, b = _aways(match, 1 - match.offered_by)
        cube, post = match.cube, match.crawford_done

        def decide(pr):
            return match_take(_turned(pr) if turn else pr, a, b, cube, post, x)
    else:
        def decide(pr):
            return money_take(_turned(pr) if turn else pr, x)
    return decide(_chances(bot, match.pos, decide))


def beavers(bot, match):
    if match.rules.mode != "money" or not match.rules.beavers or match.beavered:
        return False
    if not _may_raise(match.cube, 4 * match.cube):
        return False
    pr, x = _seen_by_taker(bot, match)
    return money_beaver(pr, x)


# Resigning: only in a race (no more hitting), when the network gives less than 0.6% to win;
# the level is clear when the gammon (backgammon) chance is under 1% or over 90%.
LOST = 200              # in 1/32768
NONE = 328
SURE = 29491


def _gammons_count(match, winner):
    # do gammons change the result of this game for `winner`?
    if match.rules.mode == "match":
        return _aways(match, winner)[0] > match.cube   # else any win ends the match
    return not (match.rules.jacoby and match.owner == -1)


def _seen_by(bot, match, player):
    pr = bot.chances(match.pos)           # of the side on roll
    if match.turn != player:
        w, wg, wb, lg, lb = pr
        return [P - w, lg, lb, wg, wb]
    return pr


def resigns(bot, match, player):
    """None, or the resignation `player` should offer now: 1 (single), 2 (gammon) or 3
    (backgammon) times the cube. Only a race with no chance left to win is given up, and only
    at the level its gammon and backgammon chances leave no doubt about."""
    if efficiency(match.pos) == X:
        return None                         # the sides can still hit: it is not over
    w, wg, wb, lg, lb = _seen_by(bot, match, player)
    if w > LOST:
        return None
    if lg <= NONE or not _gammons_count(match, 1 - player):
        return 1
    if lg >= SURE:
        if lb <= NONE:
            return 2
        if lb >= SURE:
            return 3
    return None


def accepts_resignation(bot, match, player, kind):
    """Does `player` accept the opponent's resignation of `kind` (1-3) times the cube? Yes when
    it is worth at least what playing on is expected to give (cubeless, gammons counted as the
    rules count them)."""
    w, wg, wb, lg, lb = _seen_by(bot, match, player)
    if match.rules.mode == "match":
        a, b = _aways(match, player)
        c = match.cube
        if a <= kind * c:
            return True                     # it wins the match
        post = match.crawford_done
        on = ((w - wg) * mwc(a - c, b, post) + (wg - wb) * mwc(a - 2 * c, b, post)
              + wb * mwc(a - 3 * c, b, post) + (P - w - lg) * mwc(a, b - c, post)
              + (lg - lb) * mwc(a, b - 2 * c, post) + lb * mwc(a, b - 3 * c, post)) // P
        return mwc(a - kind * c, b, post) >= on
    if _gammons_count(match, player):
        on = (2 * w - P + wg + wb - lg - lb) * F // P
    else:
        on = (2 * w - P) * F // P
    return kind * F >= on


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
