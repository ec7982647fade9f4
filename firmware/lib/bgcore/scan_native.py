# The native version of the per-play part of bgcore.bot's scan (a play's rows added to and
# removed from the parent's hidden sums, the shot row included), as MicroPython viper source:
# bgcore.bot compiles it at import where MicroPython has a native emitter and then drops this
# module, so the text does not stay in the heap. See bgcore.bot for the layout of its numbers.

SOURCE = """
@micropython.viper
def delta(c, o: int, work, acc, rows, ctx, add, w1):
    src = ptr8(c)
    x = ptr32(ctx)
    t = ptr16(rows)
    wk = ptr32(work)
    ac = ptr32(acc)
    h = x[3]
    j = 0
    while j <= h:
        wk[j] = ac[j]
        j += 1
    q = 96
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
                x[q] = 2 * t[16 * j + pv] + 1
                q += 1
            if v:
                x[q] = 2 * t[16 * j + v]
                q += 1
        j += 1
    hits = src[o + 13] | src[o + 14] << 8 | src[o + 15] << 16
    them = x[0]
    if hits:
        k = 0
        p = 0
        while p < 24:
            if (hits >> p) & 1:
                x[q] = 2 * t[440 - p] + 1
                q += 1
                them &= ~(1 << (24 - p))
                k += 1
            p += 1
        bar = x[1]
        if bar:
            x[q] = 2 * t[442 + bar] + 1
            q += 1
        x[q] = 2 * t[442 + bar + k]
        q += 1
        them |= 1 << 25
    if x[2]:
        blots = 0
        j = 1
        while j < 25:
            v = src[o + (j >> 1)]
            if j & 1:
                v >>= 4
            if v & 15 == 1:
                blots |= 1 << j
            j += 1
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
    j = 96
    while j < q:
        r = x[j]
        add(work, w1, (r >> 1) * h, h, 1 - 2 * (r & 1))
        j += 1
"""
