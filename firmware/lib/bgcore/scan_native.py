# The native version of the per-play part of bgcore.bot's scan, as MicroPython viper source:
# `changes` lists the input rows a play changes (the shot and contact rows included) and notes
# where the list ends (ctx[99]); `estimate` sums a linear estimate's weights over the rows
# `changes` listed and `weights` makes those weights (bgcore.shortlist). Adding a play's rows to
# the parent's sums and the equity from them are bgcore.scan_thumb's on the chip, else
# bgcore.scan_viper's.
# bgcore.bot loads them at import (one at a time: a small heap has room for that) where
# MicroPython has a native emitter and then drops this module, so the text does not stay in
# the heap. See bgcore.bot for the layout of their numbers.

SOURCE = ("""
@micropython.viper
def changes(c, o: int, ctx) -> int:
    # into ctx from 104: 2 * row for each row the play adds, 2 * row + 1 for each it removes
    # (rows as bgcore.net.row numbers them: LEVELS, the bar's and borne-off rows at 96-98);
    # returns where the list ends
    src = ptr8(c)
    x = ptr32(ctx)
    lv = x[96]
    q = 104
    j = 0
    while j < 26:
        v = src[o + (j >> 1)]
        pv = x[4 + (j >> 1)]
        if j & 1:
            v >>= 4
            pv >>= 4
        else:
            v &= 15
            pv &= 15
        if v != pv:
            if pv:
                if j == 0:
                    r = x[98] + pv - 1
                elif j == 25:
                    r = x[97] + (pv if pv < 4 else 4) - 1
                else:
                    r = (j - 1) * lv + (pv if pv < lv else lv) - 1
                x[q] = 2 * r + 1
                q += 1
            if v:
                if j == 0:
                    r = x[98] + v - 1
                elif j == 25:
                    r = x[97] + (v if v < 4 else 4) - 1
                else:
                    r = (j - 1) * lv + (v if v < lv else lv) - 1
                x[q] = 2 * r
                q += 1
        j += 1
    hits = src[o + 13] | src[o + 14] << 8 | src[o + 15] << 16
    them = x[0]
    if hits:
        k = 0
        p = 0
        while p < 24:
            if (hits >> p) & 1:
                x[q] = 2 * (47 - p) * lv + 1
                q += 1
                them &= ~(1 << (24 - p))
                k += 1
            p += 1
        bar = x[1]
        if bar:
            x[q] = 2 * (x[97] + 3 + (bar if bar < 4 else 4)) + 1
            q += 1
        n = bar + k
        x[q] = 2 * (x[97] + 3 + (n if n < 4 else 4))
        q += 1
        them |= 1 << 25
    # the mover's blots and points held (bits 1-24) and its back checker's place, after the play
    blots = 0
    made = 0
    back = 0
    j = 1
    while j < 26:
        v = src[o + (j >> 1)]
        if j & 1:
            v >>= 4
        v &= 15
        if v:
            back = j
            if j < 25:
                if v == 1:
                    blots |= 1 << j
                else:
                    made |= 1 << j
        j += 1
    if x[2]:
        if blots:
            d = 0
            p = 1
            while p < 25:
                if (blots >> p) & 1:
                    d |= them >> (25 - p)
                p += 1
            n = 0
            j = 0
            while j < 21:
                if d & x[17 + j]:
                    n += x[38 + j]
                j += 1
            r = x[59 + n]
            if r:
                x[q] = 2 * (r - 1)
                q += 1
    if x[100]:
        # the contact rows (bgcore.net.contact_rows): the side on roll's back checker's escapes
        # past the mover's points, the mover's past the side on roll's, the mover's prime
        kk = 0
        while kk < 2:
            blocks = 0
            if kk == 0:
                p = x[102]
                if hits:
                    p = 25
                if p:
                    blocks = (made >> (26 - p)) & 0xFFF
            elif back:
                blocks = (x[101] >> (26 - back)) & 0xFFF
            e = 36
            if blocks:
                e = 0
                a = 1
                while a < 7:
                    b = 1
                    while b <= a:
                        if not ((blocks >> (a + b - 1)) & 1):
                            if not (((blocks >> (a - 1)) & 1) and ((blocks >> (b - 1)) & 1)):
                                if a == b:
                                    e += 1
                                else:
                                    e += 2
                        b += 1
                    a += 1
            x[q] = 2 * (x[103] + 10 * kk + (e >> 2))
            q += 1
            kk += 1
        n = 0
        while made:
            made &= made >> 1
            n += 1
        if n > 1:
            if n > 6:
                n = 6
            x[q] = 2 * (x[103] + 18 + n)
            q += 1
    x[99] = q
    return q
""", """
@micropython.viper
def estimate(ctx, g, q: int) -> int:
    # the sum of g's weights (offset by 2**28) over the rows changes() listed (up to q) that
    # the play adds, less those it removes (g holds the rows a play can change: see weights)
    x = ptr32(ctx)
    e = ptr32(g)
    a = 24 * x[96]
    s = 0
    j = 104
    while j < q:
        r = x[j]
        k = r >> 1
        if k >= a:
            if k < a + a:
                k = a + (k - a) // x[96]
            else:
                k = k - a + 24
        if r & 1:
            s -= e[k] - 0x10000000
        else:
            s += e[k] - 0x10000000
        j += 1
    return s
""", """
@micropython.viper
def weights(w1, big, g, h: int, n: int, lv: int, rows, by_rows: int):
    # g[k] = (the sum over j of big[j] * (w1[r * h + j] - 128)) >> 6, offset by 2**28, for the
    # rows r a play can change (big: h numbers offset by 2**15, each within 1..2**16 - 1): the
    # mover's points' rows (k = r), the opponent's points' rows of one checker (a blot hit:
    # then k = 24 * lv + its point's index) and every row from the bars on (k = r - 24 * lv +
    # 24), n rows in all; with by_rows, row r is read at rows[r] (its address; w1 0)
    w = ptr8(w1)
    b = ptr32(big)
    e = ptr32(g)
    t = ptr32(rows)
    a = 24 * lv
    k = 0
    while k < n:
        r = k
        if k >= a:
            if k < a + 24:
                r = a + (k - a) * lv
            else:
                r = k + a - 24
        p = r * h
        if by_rows:
            p = t[r]
        s = 0x8000000
        j = 0
        while j < h:
            s += (b[j] - 0x8000) * (w[p] - 128)
            p += 1
            j += 1
        e[k] = (s >> 6) + 0xFE00000
        k += 1
""")
