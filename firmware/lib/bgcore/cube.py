# Cube decisions from cubeless win/gammon chances, in integer arithmetic (the same answer on the
# chip and the laptop). Money play: Janowski's cubeful equity with a cube efficiency of 0.68.
# Match play: match winning chances from the Kazaross-XG2 table (bgcore.met), the cube treated as
# dead after the decision (a conservative doubler and taker). Chances are five cumulative
# probabilities in 1/32768 (win, win gammon, win bg, lose gammon, lose bg) for the side deciding.

from bgcore import met

P = 32768               # probability scale
F = 10000               # equity scale: 1 point (or a whole match) = F
X = 6800                # cube efficiency, in 1/F


def _wl(pr, gammons=True):
    # average value of a win and of a loss, in 1/F
    w = pr[0]
    if not gammons:
        return F, F
    W = F + (pr[1] + pr[2]) * F // w if w > 0 else F
    L = F + (pr[3] + pr[4]) * F // (P - w) if w < P else F
    return W, L


def _money(pr, owner, gammons=True):
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
    return ((F - X) * dead + X * live) // F


def money_double(pr, centred, jacoby=False):
    """Should the side on roll (chances `pr`) double? `centred`: else it owns the cube."""
    nd = _money(pr, 0 if centred else 1, not (jacoby and centred))
    dt = 2 * _money(pr, -1)
    return min(dt, F) > nd


def money_take(pr):
    """Should the side offered the cube (chances `pr`, seen from it) take?"""
    return 2 * _money(pr, 1) >= -F


def money_beaver(pr):
    """Should the side offered the cube beaver (redouble at once, keeping the cube)?"""
    return _money(pr, 1) > 0


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


def _match_value(pr, a, b, cube, post):
    # dead-cube match winning chance with the cube at `cube`
    w, wg, wb, lg, lb = pr
    win = ((w - wg) * mwc(a - cube, b, post) + (wg - wb) * mwc(a - 2 * cube, b, post)
           + wb * mwc(a - 3 * cube, b, post))
    lose = ((P - w - lg) * mwc(a, b - cube, post) + (lg - lb) * mwc(a, b - 2 * cube, post)
            + lb * mwc(a, b - 3 * cube, post))
    return (win + lose) // P


def match_double(pr, a, b, cube, post_crawford=False):
    """Double at a match score where the side on roll is `a` away, its opponent `b` away?"""
    if a <= cube:
        return False        # already enough to win: a bigger cube only risks more
    nd = _match_value(pr, a, b, cube, post_crawford)
    dt = _match_value(pr, a, b, 2 * cube, post_crawford)
    dp = mwc(a - cube, b, post_crawford)
    return min(dt, dp) > nd


def match_take(pr, a, b, cube, post_crawford=False):
    """Take a double to 2 * `cube`? The deciding side is `a` away, the doubler `b` away."""
    drop = mwc(a, b - cube, post_crawford)
    return _match_value(pr, a, b, 2 * cube, post_crawford) >= drop


# ---- decisions for a bot in a bgcore.match.Match -------------------------------------------------
def wants_double(bot, match):
    if not match.cube_available(match.turn):
        return False
    pr = bot.chances(match.pos)
    if match.rules.mode == "match":
        a, b = _aways(match, match.turn)
        return match_double(pr, a, b, match.cube, match.crawford_done)
    return money_double(pr, match.owner == -1, match.rules.jacoby)


def takes(bot, match):
    pr = _seen_by_taker(bot, match)
    if match.rules.mode == "match":
        a, b = _aways(match, 1 - match.offered_by)
        return match_take(pr, a, b, match.cube, match.crawford_done)
    return money_take(pr)


def beavers(bot, match):
    if match.rules.mode != "money" or not match.rules.beavers or match.beavered:
        return False
    return money_beaver(_seen_by_taker(bot, match))


def _seen_by_taker(bot, match):
    w, wg, wb, lg, lb = bot.chances(match.pos)
    if match.turn == match.offered_by:      # the doubler is on roll: turn its view round
        return [P - w, lg, lb, wg, wb]
    return [w, wg, wb, lg, lb]


def _aways(match, player):
    n = match.rules.length
    return n - match.score[player], n - match.score[1 - player]
