# The native versions of the loops a point key's answer runs, as MicroPython viper source:
# bgapp.moves' two loops over the packed plays of a roll (narrow: the plays left after a step;
# steps: the distinct steps still to make) and the renderer's checkers (paint: one side's stacks).
# bgapp.moves.natives compiles it once where MicroPython has a native emitter and then drops this
# module, so that the text does not stay in the heap. A doubles roll has up to hundreds of plays:
# the Python loops took 5-30 ms of a point key's answer on the RP2040, the checkers 1.8 ms. Same
# results, byte for byte, as the Python loops they replace.

SOURCE = """
@micropython.viper
def narrow(buf, end: int, s: int, t: int, out, write: int) -> int:
    b = ptr8(buf)
    w = ptr8(out)
    o = 0
    n = 0
    while o < end:
        k = b[o + 2]
        st = o + 3
        e = st + 2 * k
        j = st
        while j < e:
            if b[j] == s and b[j + 1] == t:
                break
            j += 2
        if j < e:
            if write:
                w[n] = b[o]
                w[n + 1] = b[o + 1]
                w[n + 2] = k - 1
            n += 3
            x = st
            while x < e:
                if x != j:
                    if write:
                        w[n] = b[x]
                        w[n + 1] = b[x + 1]
                    n += 2
                x += 2
        o = e
    return n


@micropython.viper
def steps(buf, end: int, seen, out, cap: int, n: int) -> int:
    b = ptr8(buf)
    f = ptr8(seen)
    w = ptr8(out)
    o = 0
    while o < end:
        k = b[o + 2]
        if k == 0:
            f[85] = b[o]
            f[86] = b[o + 1]
        o += 3
        e = o + 2 * k
        while o < e:
            i = b[o] * 26 + b[o + 1]
            m = 1 << (i & 7)
            if not (f[i >> 3] & m):
                if n >= cap:
                    return -1
                f[i >> 3] = f[i >> 3] | m
                w[n] = b[o]
                w[n + 1] = b[o + 1]
                n += 2
            o += 2
    return n


@micropython.viper
def paint(frame, raw, base: int, where, at, rgb) -> int:
    f = ptr8(frame)
    p = ptr8(raw)
    w = ptr8(where)
    a = ptr16(at)
    c = ptr8(rgb)
    k = 0
    while k < 26:
        q = k + 1
        if k == 25:
            q = 0
        cnt = p[base + q]
        if cnt:
            s = a[q]
            n = a[q + 1] - s
            deep = cnt - n
            if deep > 0:
                m = deep
                if deep > n:
                    m = n
                i = 0
                while i < m:
                    o = 3 * w[s + i]
                    f[o] = c[3]
                    f[o + 1] = c[4]
                    f[o + 2] = c[5]
                    i += 1
            else:
                deep = 0
            if deep < n and cnt > deep:
                m = cnt
                if cnt > n:
                    m = n
                i = deep
                while i < m:
                    o = 3 * w[s + i]
                    f[o] = c[0]
                    f[o + 1] = c[1]
                    f[o + 2] = c[2]
                    i += 1
        k += 1
    return 0
"""
