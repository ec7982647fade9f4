# The computer opponent: levels 1-6 over two trained networks (bgcore.net: the main one, and
# one for races), and cube decisions (bgcore.cube). Level 6 plays the network's best play; lower
# levels add seeded noise to every play's equity, more the lower the level. All integer
# arithmetic: the same seed gives the same choices on MicroPython and CPython. Ranked records
# name the version of these choices their replay needs: a change to any level's choices must
# raise bgcore.ranked.BOT_PLAY.

import sys
from array import array

from bgcore import net as _netmod
from bgcore.net import Net, shot_row, S_OUT, OUT_EQUITY

# noise on each play's equity, in 1/1000 of a point, for levels 1-6 (level 4's 55 became 70 with
# the network's contact inputs: level 5 then beat it by only +0.05 +- 0.09 a game, bench bot)
NOISE = (0, 320, 180, 100, 70, 30, 0)
NAMES = ("", "beginner", "casual", "club", "strong", "expert", "master")
# the most plays of one roll the network scores in full: a roll with more (a double's hundreds) is
# first shortlisted by a cheap estimate (bgcore.shortlist) to CAP plays, then (without a level's
# noise) AGAIN more by the estimate taken around the network's best of those, so that a move's
# work is bounded
CAP = 128
AGAIN = 16
# level 6 looks one roll ahead (bgcore.lookahead) at its best plays when they are close: up to
# AHEAD_PLAYS of them within AHEAD_MARGIN (1/32768 point) of the best, each judged by the
# opponent's best reply to every roll (averaged with the network's own equity), the rolls taken
# until AHEAD_CAP plays have been scored (chosen by measurement: bgboard bench bot and bench
# chip, README; a margin of 1000 until the look ahead's work went native; three plays, then four:
# against gnubg-nn 0-ply 8.29 -> 7.98 -> 7.85 millipoints a move)
AHEAD_PLAYS = 4
AHEAD_MARGIN = 2000
AHEAD_CAP = 112
_AHEAD_CODE = ("bgcore.lookahead",)   # its code leaves the heap after each move that used it
# The networks (bgcore.net): the main one and the one for races. A decision (a play, a hint, the
# cube's chances) is judged throughout by the network for its own position: the race network
# when that is a race (then every position its look ahead meets is one too), else the main one,
# even for a reply that has become a race. The laptop, and a library run from its sources, keep
# both networks (made from their modules, which then leave the heap: each network keeps its
# first layer's bytes and has its own copies of the rest), the race network at the first race:
# compiling its module from its sources beside the main network's first layer wanted a second
# 23 KB block, and MicroPython's import of the bot from its sources needed 212k of heap, not 164k.
# A board keeps one set of tables and reads the network a decision needs into them from its
# network file when that changes (about twice a game: a few milliseconds), so the race network
# costs it no heap (an RP2040 reads the first layer in flash: bgcore.net).
_nets = []              # [main, race] (race once made); on a board [its one network]
_held = [0]             # on a board: the network its tables hold (0 main, 1 race)


def _network(k):
    # network k (0 main, 1 race), on a board read into its one network's tables if need be
    if not _netmod.FILE:
        while len(_nets) <= k:      # (the race network made at the first race)
            from bgcore import netmodules
            net = netmodules.network(Net, len(_nets), _nets[0] if _nets else None)
            if _native_for(net):
                _tables(net)
            _nets.append(net)
        return _nets[k]
    if not _nets:
        _nets.append(Net())
        if _native_for(_nets[0]):
            _tables(_nets[0])   # now, before a game's garbage breaks the heap up
    net = _nets[0]
    if _held[0] != k:
        _held[0] = -1           # (a network half read is neither)
        net.read_network(k)
        if _native_for(net):
            _tables(net)
        _held[0] = k
    return net


# A play's changes to the parent's hidden sums in native code where MicroPython has a native
# emitter (bgcore.native; the sources are bgcore.scan_native's, and scan_thumb's or scan_viper's):
# the same rows added and removed as the Python loop of Bot._scan (which CPython runs), a few calls
# per play (the rows, the sums, the network's equity from them with Net.equity's arithmetic)
# instead of Python loops over the record, the rows and the second layer (tests/test_chip_native.py
# compares the equities). `ctx` (int32): 0 the opponent's points (shots' `them`), 1 the opponent's
# bar, 2 1 to add the shot row, 3 the hidden size, 4-16 the parent's packed counts, 17-37 the 21
# rolls' hit masks, 38-58 their weights, 59-95 1 + the shot row for 0-36 hitting rolls (0: none; no
# negative numbers: a 64-bit port reads int32 unsigned), 96-98 LEVELS and the first bar and
# borne-off rows (bgcore.net's numbering), 100 1 to add the contact rows, 101 the opponent's points
# held (bit s: its point s), 102 its back checker's point, 103 the first contact row, from 104 the
# rows to add (2 * row) and remove (2 * row + 1) for the play in hand, 99 where that list ends.
_top = [0]          # the score of the best play of the last _scan (see Bot._scan)
_native = []        # [[changes, delta, viper equity or None, estimate, weights, Thumb equity
                    # or None]] once loaded; else [None]
_ctx = None         # the numbers (above): one for every bot, each scan sets its own


_eqt = None         # the Thumb equity's numbers: 0 the hidden size, 1-3 the addresses of the
                    # second layer's packed weights, its biases and the equity's weights (set
                    # by _tables), 4-23 its scratch
DELTA_CODE = "python"    # the code of the scan's delta and equity here: python, viper or thumb


def _natives():
    global _ctx, _eqt, DELTA_CODE
    if not _native:
        ctx = array("i", bytes(4 * 136))    # before the compiler's garbage
        eqt = array("i", bytes(4 * 24))
        from bgcore.native import load
        listed = load("scan_native", "changes", "estimate", "weights")
        # delta and equity: the chip's Thumb versions (bgcore.scan_thumb: a third of the viper
        # versions' time on an RP2040) where MicroPython has the inline assembler, else the
        # viper ones (bgcore.scan_viper: the chip never loads them)
        thumb = listed and load("scan_thumb", "delta", "equity")
        sums = thumb or listed and load("scan_viper", "delta", "equity")
        if not sums:
            _native.append(None)
        elif thumb:
            _native.append([listed[0], thumb[0], None, listed[1], listed[2], thumb[1]])
            _eqt = eqt
            DELTA_CODE = "thumb"
        else:
            _native.append([listed[0], sums[0], sums[1], listed[1], listed[2], None])
            DELTA_CODE = "viper"
        if sums:
            _ctx = ctx
    return _native


_natives()      # at import, while the heap is unbroken, as bgcore.net does
# the chances after a dance (bgcore.dance: a cube decision's or the look ahead's) stay loaded
# from here on: loaded at each dance the look ahead met, in a heap the game had broken up, its
# 1.6 KB of weights was the block that set the smallest heap a whole level-6 game needs
import bgcore.dance  # noqa: E402,F401


def _native_for(net):
    # the native functions (see _natives) where they serve this network (a second layer of 16
    # units, as scan_viper.equity is written for; a first layer in flash only with the Thumb
    # delta, which reads its rows' addresses), else None
    if net._add is None or net.h2 != 16 or net.w1 is None and _eqt is None:
        return None
    return _native[0]


def scan_code():
    """The code the bot's scan runs: "thumb" or "viper" (native), or "python" (CPython, a
    MicroPython without a native emitter, or a heap too broken up to compile it: bgcore.native)."""
    return DELTA_CODE if _nets and _native_for(_nets[0]) else "python"


def delta_rows(net):
    # what the scan's delta reads the first layer through: the Thumb version the rows'
    # addresses (the chip: its first layer in flash, bgcore.net), the viper one the weights
    return net.row_addresses() if _eqt else net.w1


def _tables(net):
    # the tables of scan_viper.equity and scan_thumb.equity (see there) kept with the network as
    # net.eq_tables (the second layer's biases and weights packed: on a board its own table, on
    # the laptop a copy; the equity's weights), and the numbers of _ctx that stay
    m = net.h2
    h = net.h
    t = getattr(net, "eq_tables", None)     # (refilled in place for a board's other network)
    b2, wo, packed = t or (array("i", bytes(4 * m)), array("h", bytes(2 * m)),
                           None if net.w2_packed else bytearray(32 * h))
    for k in range(m):
        b2[k] = net.b2[k] + 0x20000000
        wo[k] = net.wo[OUT_EQUITY * m + k]
    w2 = net.w2
    if net.w2_packed:               # a board's: already so (bgcore.net.PACKED)
        packed = w2
    else:                           # little-endian words, filled a byte at a time
        for j in range(h):
            for k in range(16):
                v = w2[k * h + j] + 32768
                o = 32 * j + 2 * k
                packed[o] = v & 255
                packed[o + 1] = v >> 8
    net.eq_tables = (b2, wo, packed)
    if _eqt:
        from uctypes import addressof
        _eqt[0] = h
        _eqt[1] = addressof(packed)
        _eqt[2] = addressof(b2)
        _eqt[3] = addressof(wo)
    ctx = _ctx
    if not ctx[3]:
        ctx[3] = net.h
        ctx[96] = _netmod.LEVELS
        ctx[97] = _netmod._BAR_ROW
        ctx[98] = _netmod._OFF_ROW
        ctx[100] = _netmod.CONTACT
        ctx[103] = _netmod._ESC_ROW
        rolls = _netmod._ROLLS
        for j in range(21):
            ctx[17 + j], ctx[38 + j] = rolls[j]
        for n in range(37):
            r = shot_row(n)
            ctx[59 + n] = 0 if r is None else r + 1


def _set_ctx(net, raw):
    # the numbers of the native scan (above) for the parent position `raw`
    ctx = _ctx
    if not ctx[3]:
        _tables(net)
    ctx[0] = _netmod.masks(raw)[1]
    ctx[1] = raw[51]
    ctx[2] = _netmod.SHOTS
    if _netmod.CONTACT:
        ctx[101], ctx[102] = _netmod.held(raw, 26)
    for j in range(13):
        ctx[4 + j] = raw[2 * j] | raw[2 * j + 1] << 4
    return ctx


# The first layer's sums a decision works in: the position's (acc) and a play's or a reply's
# (work), and the Python scan's packed counts (bgcore.scan_python). Every bot shares them, a
# decision being made by one bot at a time (the laptop's leaderboard replays under a lock): a
# board's bots of different levels (a game's, the tutor's, a chouette's) held a set each, 0.6 KB
# of an RP2040's heap.
_sums = []


def _shared_sums(net):
    if not _sums:
        _sums.extend((net.new_acc(), net.new_acc(), bytearray(13)))
    return _sums


class Bot:
    """A computer player. `seed` fixes the noise of levels 1-5 (None: a fixed default)."""

    def __init__(self, level, seed=None):
        if not (isinstance(level, int) and 1 <= level <= 6):
            raise ValueError("bot level is 1 to 6, not %r" % (level,))
        self.level = level
        self.name = NAMES[level]
        self._x = (seed if seed is not None else 0x2545F49) & 0x3FFFFFFF or 1
        self._k = 0                 # the network of its decision in progress (or last one),
        self.net = net = _network(0)    # see _judge
        self._acc, self._work, self._packed = _shared_sums(net)
        self.tick = None          # called every 16 plays scored (a board feeds its watchdog)

    def _judge(self, pos):
        # a decision about `pos` starts: the network for it (see _network), for all its work;
        # its parts take it as _network(self._k), which on a board reads it back into the
        # tables if another bot's decision has changed them
        self._k = k = 1 if _netmod.race(pos.raw) else 0
        self.net = net = _network(k)
        return net

    # ---- checker play --------------------------------------------------------------------------
    def equities(self, pos, plays):
        """The network's cubeless equity of each play for the side on roll, in 1/32768 point
        (a list in the order of `plays`)."""
        out = []
        self._judge(pos)
        self._scan(pos, plays, 0, out)
        return out

    def _scan(self, pos, plays, noise, out=None, pick=None):
        # Scores every play (or those `pick` marks, see bgcore.shortlist) by adding to the
        # parent's hidden sums only the rows the play changes; appends the scores to `out`, or
        # returns the index of the best (with noise; its score in _top[0]).
        acc = self._acc
        raw = pos.raw
        net = _network(self._k)
        net.load(acc, raw, False)
        if _native_for(net):
            return self._scan_native(net, plays, raw, noise, out, pick)
        from bgcore.scan_python import scan     # CPython, or MicroPython without native code
        return scan(self, net, plays, raw, noise, out, pick)

    def _scan_native(self, net, plays, raw, noise, out, pick):
        # _scan's loop with a play's rows and the network's equity in native code (_natives)
        changes, delta, equity = _native[0][:3]
        ctx = _set_ctx(net, raw)
        acc = self._acc
        work = self._work
        first = delta_rows(net)     # the first layer, as delta reads it
        b1 = net.b1
        b2, wo, w2 = net.eq_tables
        h1 = net._h1
        h = net.h
        m = net.h2
        bias = net.bo[OUT_EQUITY]
        tick = self.tick
        thumb = _native[0][5]
        eqt = _eqt
        best = 0
        best_v = None
        count = 0
        for i in range(len(plays)):
            if pick is not None and not pick[i >> 3] >> (i & 7) & 1:
                continue
            count += 1
            if tick and count & 15 == 0:
                tick()
            c, o = plays._record(i)
            changes(c, o, ctx)
            delta(work, acc, ctx, first)
            if thumb:
                v = bias + thumb(work, b1, eqt, h1)
            else:
                v = bias + equity(work, b1, w2, b2, wo, h1, h, m)
            if out is not None:
                out.append(v)
                continue
            if noise:
                v += self._gauss() * noise // 2365
            if best_v is None or v > best_v:
                best = i
                best_v = v
        _top[0] = best_v
        return best

    def choose(self, pos, d1, d2):
        """One of pos.plays(d1, d2), or None when the roll cannot be played. Level 6 looks one
        roll ahead where its best plays are close (bgcore.lookahead.closest)."""
        if self.level < 6:
            return self.hint(pos, d1, d2, NOISE[self.level] * S_OUT // 1000)
        self._judge(pos)
        plays = pos.plays(d1, d2)
        n = len(plays)
        if n < 2 or n > CAP:            # (a shortlisted roll keeps the network's choice)
            return self._best(pos, plays, 0)
        eq = []
        self._scan(pos, plays, 0, eq)
        top = max(eq)
        close = 0
        for v in eq:
            if top - v <= AHEAD_MARGIN:
                close += 1
        if close < 2:
            return plays[eq.index(top)].detached()
        # the look ahead's code leaves the heap after it
        loaded = [m for m in _AHEAD_CODE if m in sys.modules]
        from bgcore.lookahead import closest
        play = closest(self, pos, plays, eq, AHEAD_PLAYS, AHEAD_MARGIN, AHEAD_CAP)
        import bgcore
        for m in _AHEAD_CODE:
            if m not in loaded and m in sys.modules:
                del sys.modules[m]
                if hasattr(bgcore, m[7:]):
                    delattr(bgcore, m[7:])
        return play

    def hint(self, pos, d1, d2, noise=0):
        """The strongest play for the side on roll, whatever the level (None: no legal play).
        Of a roll with more than CAP plays, the network scores CAP (and without noise AGAIN
        more) shortlisted by a cheap estimate (bgcore.shortlist)."""
        self._judge(pos)
        return self._best(pos, pos.plays(d1, d2), noise)

    def _best(self, pos, plays, noise):
        # hint's choice among `plays`
        n = len(plays)
        if n < 2:
            return plays[0].detached() if plays else None
        pick = None
        if n > CAP:
            from bgcore.shortlist import shortlist      # loaded at the first such roll
            pick = shortlist(self, pos, plays, CAP)
        best = self._scan(pos, plays, noise, None, pick)
        if pick is not None and not noise:      # (a level's noise outweighs what it finds)
            from bgcore.shortlist import again
            best = again(self, pos, plays, pick, best, AGAIN)
        return plays[best].detached()

    def loss(self, pos, d1, d2, play):
        """How much worse `play` is than the best play, by the network, in millipoints."""
        plays = pos.plays(d1, d2)
        if len(plays) < 2:
            return 0
        eq = self.equities(pos, plays)
        for i in range(len(plays)):
            if plays[i] == play:
                return (max(eq) - eq[i]) * 1000 // S_OUT
        raise ValueError("%s is not a legal play for %d%d" % (play, d1, d2))

    def _gauss(self):
        # sum of four uniform numbers 0-4095, centred: roughly normal, sd 2365. A 30-bit
        # xorshift, masked before shifting so that no step leaves the chip's small ints
        s = -8190
        for _ in range(4):
            x = self._x
            x ^= (x & 0x7FFFFF) << 7
            x ^= x >> 9
            x ^= (x & 0x3FFFFF) << 8
            self._x = x
            s += x & 4095
        return s

    # ---- the cube ------------------------------------------------------------------------------
    def chances(self, pos):
        """Cubeless (win, win gammon, win bg, lose gammon, lose bg) of the side on roll in
        `pos`, before it rolls, in 1/32768. The network judges positions after a play, seen by
        the side that made it. One whose mover is still on the bar (it danced) it hardly saw
        in training and judges badly (4% for a blitz gnubg gives 78%): there the chances are
        read from the hidden layers of both views of the position by the readout in
        bgcore.dancenet, fitted to gnubg-nn 0-ply on such positions."""
        self._judge(pos)
        return self._chances(pos)

    def _chances(self, pos):
        # chances() within a decision in progress (the look ahead's): its network
        raw = pos.raw
        acc = self._acc
        net = _network(self._k)
        if raw[51]:
            from bgcore.dance import chances      # (loaded with this module)
            return chances(net, acc, raw)
        net.load(acc, raw[26:] + raw[:26])   # the opponent is the side that just moved
        w, wg, wb, lg, lb = net.probabilities(acc)
        return [32768 - w, lg, lb, wg, wb]

    def _chances_of(self, pos, plays, k, q):
        # _chances(q), q the position play k of `plays` leaves, the list of `pos` that _scan
        # scored last: the same numbers, from the first layer's sums of that play (its
        # parent's sums still in _acc, the native scan's numbers in _ctx) instead of a load
        # of q (the look ahead's replies: about half the cost of _chances saved)
        if q.raw[51]:
            return self._chances(q)         # (the dance readout)
        net = _network(self._k)
        work = self._work
        if _native_for(net):
            changes, delta = _native[0][:2]
            c, o = plays._record(k)
            changes(c, o, _ctx)
            delta(work, self._acc, _ctx, delta_rows(net))
        else:
            from bgcore.scan_python import sums
            sums(self, net, pos.raw, plays, k)
        w, wg, wb, lg, lb = net.probabilities(work)
        return [32768 - w, lg, lb, wg, wb]

    # the decisions themselves live in bgcore.cube, loaded only when a cube is in play
    def wants_double(self, match):
        """At the start of the bot's turn with the cube available: double?"""
        from bgcore.cube import wants_double
        return wants_double(self, match)

    def takes(self, match):
        """Offered the cube (the offer stands in `match`): take? (False = drop)."""
        from bgcore.cube import takes
        return takes(self, match)

    def beavers(self, match):
        """Offered the cube in money play with beavers allowed: beaver it?"""
        from bgcore.cube import beavers
        return beavers(self, match)

    def resigns(self, match, player=None):
        """None, or the resignation the bot (`player`, by default the side on roll) should offer
        in the game in progress: 1 single, 2 gammon, 3 backgammon (times the cube). Only a
        game with no chance left to win; gammon chances decide the level."""
        from bgcore.resign import resigns
        return resigns(self, match, match.turn if player is None else player)

    def accepts_resignation(self, match, kind, player=None):
        """The opponent offers to resign `kind` (1-3) times the cube: does the bot (`player`, by
        default the side not on roll) accept? Yes when that is worth what playing on is."""
        from bgcore.resign import accepts_resignation
        return accepts_resignation(self, match, 1 - match.turn if player is None else player,
                                   kind)


if sys.implementation.name == "micropython":
    _network(0)     # at import on a board, after the native compile (see _network). (CPython
                    # makes them at the first Bot, once the host package has handed bgcore.net
                    # its faster loops.)
