# The bot's scan in Python: what CPython runs, and MicroPython where it has no native emitter
# (bgcore.bot's native scan, bgcore.scan_native, does the same integer for integer). Loaded by
# bgcore.bot only there, so a board keeps only the native version's code in its heap.

from bgcore import bot as _bot
from bgcore import net as _netmod
from bgcore.net import row, shots, shot_row, contact_rows, held


def scan(bot, net, plays, raw, noise, out, pick):
    """bgcore.bot's Bot._scan once the parent's sums are in bot._acc: every play (or those
    `pick` marks) scored; the scores appended to `out`, or the index of the best returned
    (its score in bgcore.bot._top[0])."""
    acc = bot._acc
    work = bot._work
    par = parent(raw, bot._packed)
    rows = []
    best = 0
    best_v = None
    tick = bot.tick
    count = 0
    for i in range(len(plays)):
        if pick is not None and not pick[i >> 3] >> (i & 7) & 1:
            continue
        count += 1
        if tick and count & 15 == 0:
            tick()
        c, o = plays._record(i)
        work[:] = acc               # (the same length and type: copied in place)
        changes(c, o, par, rows)
        for r in rows:
            if r & 1:
                net.sub(work, r >> 1)
            else:
                net.add(work, r >> 1)
        v = net.equity(work)
        if out is not None:
            out.append(v)
            continue
        if noise:
            v += bot._gauss() * noise // 2365
        if best_v is None or v > best_v:
            best = i
            best_v = v
    _bot._top[0] = best_v
    return best


def sums(bot, net, raw, plays, k):
    """The first layer's sums for play k of `plays` (of the position `raw`, whose sums are in
    bot._acc), in bot._work: what Bot._chances_of reads there, without native code."""
    work = bot._work
    work[:] = bot._acc
    c, o = plays._record(k)
    rows = []
    changes(c, o, parent(raw), rows)
    for r in rows:
        if r & 1:
            net.sub(work, r >> 1)
        else:
            net.add(work, r >> 1)


_mine = bytearray(26)       # changes()'s scratch: the mover's counts after the play


def parent(raw, packed=None):
    """What changes() needs of the position before the plays (52 bytes, the side on roll in
    the first half): its counts two to a byte (into `packed`, 13 bytes, when given), the
    opponent's points (shots' `them`), its bar, and its points held and back checker (the
    contact rows')."""
    if packed is None:
        packed = bytearray(13)
    for j in range(13):
        packed[j] = raw[2 * j] | raw[2 * j + 1] << 4
    made, back = held(raw, 26) if _netmod.CONTACT else (0, 0)
    return packed, _netmod.masks(raw)[1], raw[51], made, back


def changes(c, o, par, out):
    # The input rows the play whose record is at c[o:] changes (see bgcore.position._Found: the
    # mover's counts two to a byte, then the mask of the points where a blot was hit), into
    # `out` as the native code lists them: 2 * row to add, 2 * row + 1 to remove. `par`: the
    # parent's figures (parent()).
    packed, them0, opp_bar, made_them, back_them = par
    del out[:]
    for j in range(13):
        v = c[o + j]
        pv = packed[j]
        if v != pv:
            place = 2 * j
            a = pv & 15
            b = v & 15
            if a != b:
                if a:
                    out.append(2 * row(0, place, a) + 1)
                if b:
                    out.append(2 * row(0, place, b))
            a = pv >> 4
            b = v >> 4
            if a != b:
                if a:
                    out.append(2 * row(0, place + 1, a) + 1)
                if b:
                    out.append(2 * row(0, place + 1, b))
    hits = c[o + 13] | c[o + 14] << 8 | c[o + 15] << 16
    them = them0
    if hits:
        k = 0
        for p in range(24):
            if hits >> p & 1:
                out.append(2 * row(1, 24 - p, 1) + 1)       # mover's point p + 1
                them &= ~(1 << (24 - p))
                k += 1
        if opp_bar:
            out.append(2 * row(1, 25, opp_bar) + 1)
        out.append(2 * row(1, 25, opp_bar + k))
        them |= 1 << 25
    if _netmod.SHOTS:
        blots = 0
        for j in range(13):
            v = c[o + j]
            if v & 15 == 1:
                blots |= 1 << 2 * j
            if v >> 4 == 1:
                blots |= 2 << 2 * j
        r = shot_row(shots(blots & 0x1FFFFFE, them))
        if r is not None:
            out.append(2 * r)
    if _netmod.CONTACT:
        mine = _mine
        for j in range(13):
            v = c[o + j]
            mine[2 * j] = v & 15
            mine[2 * j + 1] = v >> 4
        n = len(out)
        contact_rows(mine, made_them, 25 if hits else back_them, out)
        for k in range(n, len(out)):
            out[k] *= 2

