# The tutor's figures: how much a play or a cube action loses against the best one, by the bot's
# network (bgcore.bot) and cube model (bgcore.cube), in millipoints. Money play: points of equity
# for the cube in play. Match play: match winning chance, doubled so that it reads on the same
# scale (a whole match swung = 2 points). The board warns when a person's action loses more than
# its threshold (0.16, 0.08 or 0.04 points). Also the replay of its TUTOR record lines (loaded
# by bgcore.record only for records that have them).

from bgcore.match import TURN, MOVE, DOUBLED
from bgcore.net import S_OUT

THRESHOLDS = (0, 160, 80, 40)     # the settings: off, then millipoints


class Scorer:
    """The network's equities of the legal plays of a roll, worked out a few plays at a time
    (the board does it between key presses while the person thinks), then how much any one of
    them loses: Bot.loss's figure, from the plays already generated for the person's move. The
    equities are kept _PART plays to a list: a roll of hundreds of plays needs no block of its
    size (the soak's board, 27 KB free in pieces, had no 2.7 KB in a row for a 340-play list)."""

    def __init__(self, bot, pos, plays):
        self.bot = bot
        self.pos = pos
        self.plays = plays
        self.n = 0              # the plays scored so far
        self.best = 0           # the best equity among them
        self.parts = []         # their equities, _PART plays a list

    def done(self):
        return self.n == len(self.plays)

    def step(self, n=8):
        """Score the next `n` plays."""
        a = self.n
        b = min(a + n, len(self.plays))
        while a < b:
            c = min(b, a - a % _PART + _PART)       # (within one part)
            eq = self.bot.equities(self.pos, _Slice(self.plays, a, c))
            top = max(eq)
            if a == 0 or top > self.best:
                self.best = top
            if a % _PART:
                self.parts[-1].extend(eq)
            else:
                self.parts.append(eq)
            a = self.n = c

    def loss(self, i):
        """Millipoints plays[i] loses against the best play (the rest is scored first)."""
        while not self.done():
            self.step(_PART)
        if self.n < 2:
            return 0
        return (self.best - self.parts[i // _PART][i % _PART]) * 1000 // S_OUT


_PART = 64


class _Slice:
    # plays a..b-1 of a roll's plays, as the bot's scan reads them (length and records)
    def __init__(self, plays, a, b):
        self.plays = plays
        self.a = a
        self.n = b - a

    def __len__(self):
        return self.n

    def _record(self, i):
        return self.plays._record(self.a + i)


def play_loss(bot, pos, plays, i):
    """Millipoints plays[i] loses against the best of `plays` (all the legal plays of a roll)."""
    return Scorer(bot, pos, plays).loss(i)


def double_loss(bot, match):
    """Millipoints the side on roll loses by doubling now (0 when doubling is right)."""
    from bgcore import cube as _cube      # (the cube model only in games with a cube)
    pr = bot.chances(match.pos)
    x = _cube.efficiency(match.pos)
    centred = match.owner == -1
    c = match.cube
    if match.rules.mode == "match":
        a, b = _cube._aways(match, match.turn)
        post = match.crawford_done
        m = _cube.MatchCube(pr, a, b, c, post, x)
        nd = m.value(m.p, c, _cube.CENTRED if centred else _cube.MINE)
        dt = m.value(m.p, 2 * c, _cube.THEIRS)
        dp = _cube.mwc(a - c, b, post)
        return _mwc_mp(nd - min(dt, dp), _cube.F)
    nd = _cube._money(pr, 0 if centred else 1, not (match.rules.jacoby and centred), x)
    dt = 2 * _cube._money(pr, -1, True, x)
    return _money_mp(nd - min(dt, _cube.F), c, _cube.F)


def answer_loss(bot, match, take):
    """Millipoints the side offered the cube loses by taking (`take`) or dropping."""
    from bgcore import cube as _cube
    pr, x = _cube._seen_by_taker(bot, match)
    c = match.cube
    if match.rules.mode == "match":
        a, b = _cube._aways(match, 1 - match.offered_by)
        post = match.crawford_done
        m = _cube.MatchCube(pr, a, b, 2 * c, post, x)
        t = m.value(m.p, 2 * c, _cube.MINE)
        d = _cube.mwc(a, b - c, post)
        return _mwc_mp(d - t if take else t - d, _cube.F)
    t = 2 * _cube._money(pr, 1, True, x)
    d = -_cube.F
    return _money_mp(d - t if take else t - d, c, _cube.F)


def _money_mp(v, cube, f):
    # an equity difference in 1/f for a cube of 1, as millipoints at the cube in play
    return max(0, v) * cube * 1000 // f


def _mwc_mp(v, f):
    return max(0, v) * 2000 // f


def replay_event(rep, p, words):
    """A TUTOR line replayed into bgcore.record's Replay `rep` (player p): TUTOR p on T, a
    warning TUTOR p move|double|take|drop L, or its answer TUTOR p keep|hint|undo."""
    m = rep.match
    what = words[2] if len(words) > 2 else ""
    rep.tutored = True
    if what in ("keep", "hint", "undo"):
        if len(words) != 3:
            raise ValueError("TUTOR %s takes no number" % what)
        if not rep.warning or rep.warning[0] != p:
            raise ValueError("no tutor warning to player %d to answer" % p)
        if what != "hint":
            rep.warning = None
        return
    if len(words) != 4 or not words[3].isdigit():
        raise ValueError("TUTOR %s takes one number" % what)
    n = int(words[3])
    if what == "on":
        return
    if rep.warning:
        raise ValueError("a tutor warning is already open")
    if what == "move" or what == "double":
        ok = m.phase == (MOVE if what == "move" else TURN) and p == m.turn
    elif what in ("take", "drop"):
        ok = m.phase == DOUBLED and p == 1 - m.offered_by
    else:
        raise ValueError("TUTOR takes on, move, double, take, drop, keep, hint or undo, "
                         "not %r" % what)
    if not ok:
        raise ValueError("a tutor warning about a %s is not possible now" % what)
    rep.warning = (p, what, n)
