# The native version of the per-play part of bgcore.bot's scan (a play's rows added to and
# removed from the parent's hidden sums, the shot row included), as MicroPython viper source:
# bgcore.bot compiles it at import where MicroPython has a native emitter and then drops this
# module, so the text does not stay in the heap. See bgcore.bot for the layout of its numbers.

SOURCE = """
@micropython.viper
def delta(c, o: int, work, acc, rows, ctx, add, w1, tag, mask: int, miss):
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
    if x[96]:
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
                if v > 1 and j < 25:
                    made |= 1 << j
            j += 1
        qb = x[98]
        if hits:
            qb = 25
        kk = 0
        while kk < 2:
            blocks = 0
            e = 36
            if kk == 0 and qb:
                blocks = (made >> (26 - qb)) & 0xFFF
            elif kk == 1 and back:
                blocks = (x[97] >> (26 - back)) & 0xFFF
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
            x[q] = 2 * (x[99] + 10 * kk + (e >> 2))
            q += 1
            kk += 1
        n = 0
        while made:
            made &= made >> 1
            n += 1
        if n > 1:
            if n > 6:
                n = 6
            x[q] = 2 * (x[99] + 18 + n)
            q += 1
    tg = ptr16(tag)
    j = 104
    while j < q:
        r = x[j]
        rr = r >> 1
        k = rr
        if mask >= 0:               # w1 is bgcore.net's cache of the first layer's rows
            k = rr & mask
            if tg[k] != rr:
                miss(rr)            # read into its slot (bgcore.net.Net._offset)
        add(work, w1, k * h, h, 1 - 2 * (r & 1))
        j += 1
"""
