# A roll's plays worth the network's time when there are more than bgcore.bot.CAP of them (a
# double's hundreds in contact): each play gets a cheap linear estimate of its equity — the
# network's first-order expansion around the position before the roll, one weight per input row,
# summed over the rows the play changes — and the CAP best by it are the shortlist the network
# then scores. Without a level's noise (level 6, a hint) a second, shorter round expands around
# the network's best of the first (bgcore.bot.AGAIN plays not yet scored): the expansion is good
# near where it is taken, and the best plays of a double lie nearer that play than the position
# before the roll. So the network scores at
# most CAP + AGAIN plays of any roll: the bot's time per move is bounded by work, the same on
# every interpreter (integer arithmetic, ties broken by the plays' order). Loaded by bgcore.bot
# at the first such roll (its native code, in bgcore.scan_native, is compiled with the bot's at
# import), and kept: a module loaded again and again leaves a little heap behind each time.

from array import array

from bgcore import bot as _bot
from bgcore import net as _netmod
from bgcore.net import OUT_EQUITY, S1

_OFF = 0x10000000   # a weight's offset in the table (read unsigned by the native code)
_SHIFT = 4          # the equity's slopes in the hidden sums (G below), scaled to fit 16 bits
# The estimate has a weight for each input row a play can change, in this order: the mover's
# points' rows (k = r), the opponent's points' rows of one checker (a blot hit: k = 24 * LEVELS
# + the point's index) and every row from the bars on (k = r - 24 * LEVELS + 24); N of them.
# The native code's are made with the module and kept with it: a heap in pieces may not have
# the block at a later big roll.
_A = 24 * _netmod.LEVELS
_N = _netmod.ROWS - _A + 24
_G = bytearray(4 * _N) if _bot._native[0] else None


def _row(k):
    # the input row of the estimate's weight k (see above)
    if k < _A:
        return k
    return _A + (k - _A) * _netmod.LEVELS if k < _A + 24 else k + _A - 24


def _weights(net, acc):
    # For the position whose hidden sums are `acc`: the estimate's weights (above), for input
    # row r (sum over the first layer's units j of G[j] * (w1[r, j] - 128)) >> 6, offset by
    # _OFF, where G[j] is the equity's slope in unit j's sum (0 where the unit is clipped): the
    # output weights through the unclipped units of the second layer.
    h = net.h
    m = net.h2
    top = net._top(acc)             # the second layer's activations; net._h1 the first's
    h1 = net._h1
    wo = net.wo
    o5 = OUT_EQUITY * (m or h)
    big = array("i", bytes(4 * h))
    if m:
        w2 = net.w2
        for k in range(m):
            if 0 < top[k] < S1:
                a = wo[o5 + k]
                if net.w2_packed:       # (a board's order: bgcore.net.PACKED)
                    for j in range(h):
                        big[j] += a * (w2[m * j + k] - 32768)
                    continue
                o = k * h
                for j in range(h):
                    big[j] += a * w2[o + j]
    else:
        for j in range(h):
            big[j] = wo[o5 + j] << 8
    for j in range(h):
        v = big[j] >> _SHIFT if 0 < h1[j] < S1 else 0
        big[j] = (32767 if v > 32767 else (-32767 if v < -32767 else v)) + 0x8000
    native = _bot._native_for(net)
    if native:                      # (int32s to the native code, in one block)
        w1 = net.w1
        if w1 is None:                  # (in flash: read through the rows' addresses)
            native[4](0, big, _G, h, _N, _netmod.LEVELS, net.rows, 1)
        else:
            native[4](w1, big, _G, h, _N, _netmod.LEVELS, big, 0)
        return _G
    est = array("i", bytes(4 * _N))
    w1 = net.w1
    if w1 is None:                  # (in flash, a board whose native code did not compile:
        from uctypes import bytearray_at    # each row read where it lies)
    for k in range(_N):
        if w1 is None:
            w, p = bytearray_at(net.rows[_row(k)], h), 0
        else:
            w, p = w1, _row(k) * h
        s = 0
        for j in range(h):
            s += (big[j] - 0x8000) * (w[p + j] - 128)
        est[k] = (s >> 6) + _OFF
    return est


def shortlist(bot, pos, plays, cap, anchor=None, skip=None):
    """The `cap` plays of `plays` with the highest estimates (of equal ones the earliest), as
    a bit mask: bit i & 7 of byte i >> 3 set for plays[i]. The expansion is taken around the
    position before the roll, or with `anchor` (an index into `plays`) around the position
    after that play; plays that the mask `skip` marks are left out."""
    acc = bot._acc
    raw = pos.raw
    net = _bot._network(bot._k)
    net.load(acc, raw, False)
    tick = bot.tick
    native = _bot._native_for(net)
    if native:
        changes = native[0]
        estimate = native[3]
        ctx = _bot._set_ctx(net, raw)
        if anchor is not None:                  # the anchor's sums, in the bot's spare ones
            c, o = plays._record(anchor)
            changes(c, o, ctx)
            native[1](bot._work, acc, ctx, _bot.delta_rows(net))
    else:
        from bgcore.scan_python import changes, parent
        par = parent(raw)
        rows = []
        if anchor is not None:
            work = bot._work
            work[:] = acc
            c, o = plays._record(anchor)
            changes(c, o, par, rows)
            for r in rows:
                if r & 1:
                    net.sub(work, r >> 1)
                else:
                    net.add(work, r >> 1)
    g = _weights(net, acc if anchor is None else bot._work)
    top = _Top(cap)
    for i in range(len(plays)):
        if tick and i & 63 == 63:
            tick()
        if skip is not None and skip[i >> 3] >> (i & 7) & 1:
            continue
        c, o = plays._record(i)
        if native:
            top.offer(estimate(ctx, g, changes(c, o, ctx)), i)
            continue
        changes(c, o, par, rows)
        s = 0
        for r in rows:
            k = r >> 1
            if k >= _A:
                k = _A + (k - _A) // _netmod.LEVELS if k < _A + _A else k - _A + 24
            s += (g[k] - _OFF) * (1 - 2 * (r & 1))
        top.offer(s, i)
    pick = bytearray((len(plays) + 7) >> 3)
    index = top.index
    for j in range(top.size):
        i = index[j]
        pick[i >> 3] |= 1 << (i & 7)
    return pick


def again(bot, pos, plays, pick, best, cap):
    """The second round: the network's best of the first (`best`, of the plays `pick` marks) or
    of the `cap` more plays the estimate taken around it shortlists, whichever scores higher (of
    equal ones the earlier)."""
    top = _bot._top
    v = top[0]
    other = bot._scan(pos, plays, 0, None, shortlist(bot, pos, plays, cap, best, pick))
    if top[0] > v or (top[0] == v and other < best):
        return other
    return best


class _Top:
    # The k best (value, index) pairs offered so far, a higher value first and of equal values
    # the earlier index, in a heap whose root is the worst of them: k numbers each, however
    # many are offered (no block the size of a double's plays beside its list).
    def __init__(self, k):
        self.k = k
        self.size = 0
        self.value = array("i", bytes(4 * k))
        self.index = array("H", bytes(2 * k))

    def _worse(self, a, b):
        # is entry a worse than entry b?
        va = self.value[a]
        vb = self.value[b]
        return va < vb or (va == vb and self.index[a] > self.index[b])

    def offer(self, v, i):
        value = self.value
        index = self.index
        k = self.k
        if self.size < k:
            j = self.size               # a new leaf, sifted up (a later index is worse)
            self.size += 1
            while j:
                up = (j - 1) >> 1
                if value[up] < v:       # the parent is worse: in place
                    break
                value[j] = value[up]
                index[j] = index[up]
                j = up
            value[j] = v
            index[j] = i
            return
        if v <= value[0]:               # no better than the worst kept (ties: earlier wins)
            return
        j = 0                           # the worst replaced, the new entry sifted down
        while True:
            c = 2 * j + 1
            if c >= k:
                break
            if c + 1 < k and self._worse(c + 1, c):
                c += 1
            if value[c] >= v:           # the child is better (equal: it came earlier)
                break
            value[j] = value[c]
            index[j] = index[c]
            j = c
        value[j] = v
        index[j] = i
