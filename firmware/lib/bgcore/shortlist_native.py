# The native version of bgcore.shortlist's loops, as MicroPython viper source: `estimate` sums a
# linear estimate's weights over the rows bgcore.scan_native's `changes` listed, `weights` makes
# those weights. bgcore.shortlist compiles them when it is loaded (for a roll with many plays)
# where MicroPython has a native emitter and then drops this module, so the text does not stay
# in the heap.

SOURCE = ("""
@micropython.viper
def estimate(ctx, g, q: int) -> int:
    # the sum of g's weights (offset by 2**28) over the rows changes() listed (up to q) that
    # the play adds, less those it removes
    x = ptr32(ctx)
    e = ptr32(g)
    s = 0
    j = 100
    while j < q:
        r = x[j]
        if r & 1:
            s -= e[r >> 1] - 0x10000000
        else:
            s += e[r >> 1] - 0x10000000
        j += 1
    return s
""", """
@micropython.viper
def weights(w1, big, g, h: int, n: int):
    # g[r] = (the sum over j of big[j] * (w1[r * h + j] - 128)) >> 6, offset by 2**28, for the n
    # rows (big: h numbers offset by 2**15, each within 1..2**16 - 1)
    w = ptr8(w1)
    b = ptr32(big)
    e = ptr32(g)
    r = 0
    p = 0
    while r < n:
        s = 0x8000000
        j = 0
        while j < h:
            s += (b[j] - 0x8000) * (w[p] - 128)
            p += 1
            j += 1
        e[r] = (s >> 6) + 0xFE00000
        r += 1
""")
