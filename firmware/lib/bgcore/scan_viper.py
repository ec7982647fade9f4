# bgcore.bot's scan's `delta` and `equity` as MicroPython viper source, for a board without the
# chip's inline Thumb (bgcore.scan_thumb has the same integers in the RP2040's instructions, and
# the chip does not load these: their 4.8 KB of machine code would sit unused in its heap).
# `delta` adds to and removes from the parent's hidden sums the rows scan_native's `changes`
# listed, `equity` works out the network's equity from those sums as bgcore.net's Net.equity
# does. Loaded by bgcore.bot at import, then dropped as bgcore.scan_native is; see bgcore.bot
# for the layout of their numbers.

SOURCE = ("""
@micropython.viper
def delta(work, acc, ctx, w1):
    # work = acc with the rows changes() listed (up to its end, ctx[99]) added and removed
    # (bgcore.scan_thumb's is the same in Thumb code, where the chip has the assembler)
    x = ptr32(ctx)
    wk = ptr32(work)
    ac = ptr32(acc)
    w = ptr8(w1)
    h = x[3]
    q = x[99]
    j = 0
    while j <= h:
        wk[j] = ac[j]
        j += 1
    j = 104
    while j < q:
        r = x[j]
        p = (r >> 1) * h
        e = p + h
        if r & 1:
            i = 0
            while p < e:
                wk[i] -= w[p]
                p += 1
                i += 1
            wk[h] -= 1
        else:
            i = 0
            while p < e:
                wk[i] += w[p]
                p += 1
                i += 1
            wk[h] += 1
        j += 1
""", """
@micropython.viper
def equity(acc, b1, w2, b2, wo, h1, h: int, m: int) -> int:
    # Net.equity without its output bias, for a second layer of 16 units: the first hidden layer
    # (clipped to 0..128) into h1, then the second layer's units (clipped) times the equity
    # output's weights (wo: 16 int16). w2: per first-layer unit j, 8 words holding the 16 units'
    # weights from j, each + 32768, two to a word (unit 2i low); b2: 16 int32 offset by 2**29.
    # Read alike on 32- and 64-bit ports (a word's high half masked after the shift). A
    # weight per word and a branch for its sign cost the chip 2.6 times as much. (m: unused.)
    a = ptr32(acc)
    pb = ptr16(b1)
    p2 = ptr32(w2)
    q2 = ptr32(b2)
    po = ptr16(wo)
    t = ptr32(h1)
    off = 128 * a[h]
    u0 = 0
    u1 = 0
    u2 = 0
    u3 = 0
    u4 = 0
    u5 = 0
    u6 = 0
    u7 = 0
    u8 = 0
    u9 = 0
    u10 = 0
    u11 = 0
    u12 = 0
    u13 = 0
    u14 = 0
    u15 = 0
    sx = 0
    j = 0
    q = 0
    while j < h:
        v = pb[j]
        if v & 0x8000:
            v -= 0x10000
        x = a[j] - off + v
        if x > 0:
            if x > 128:
                x = 128
            t[j] = x
            sx += x
            v = p2[q + 0]
            u0 += (v & 0xFFFF) * x
            u1 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 1]
            u2 += (v & 0xFFFF) * x
            u3 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 2]
            u4 += (v & 0xFFFF) * x
            u5 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 3]
            u6 += (v & 0xFFFF) * x
            u7 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 4]
            u8 += (v & 0xFFFF) * x
            u9 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 5]
            u10 += (v & 0xFFFF) * x
            u11 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 6]
            u12 += (v & 0xFFFF) * x
            u13 += ((v >> 16) & 0xFFFF) * x
            v = p2[q + 7]
            u14 += (v & 0xFFFF) * x
            u15 += ((v >> 16) & 0xFFFF) * x
        else:
            t[j] = 0
        q += 8
        j += 1
    sx = (sx << 15) + 0x20000000
    s = 0
    u = u0 + q2[0] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[0]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u1 + q2[1] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[1]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u2 + q2[2] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[2]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u3 + q2[3] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[3]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u4 + q2[4] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[4]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u5 + q2[5] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[5]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u6 + q2[6] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[6]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u7 + q2[7] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[7]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u8 + q2[8] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[8]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u9 + q2[9] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[9]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u10 + q2[10] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[10]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u11 + q2[11] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[11]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u12 + q2[12] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[12]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u13 + q2[13] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[13]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u14 + q2[14] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[14]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    u = u15 + q2[15] - sx
    if u > 0:
        u >>= 8
        if u > 128:
            u = 128
        b = po[15]
        if b & 0x8000:
            b -= 0x10000
        s += b * u
    return s
""")
