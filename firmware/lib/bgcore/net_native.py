# bgcore.net's inner loops as MicroPython viper source: `add` adds a weight row to a hidden sum,
# `hidden` clips the first layer's units, `dots` makes sums of products (the second layer, the
# outputs), `dots16` the second layer's sums from a board's packed weights, `load` makes the
# sums of a whole position. bgcore.net loads them at import where MicroPython has a native
# emitter (a board's build compiles them to its machine code; from the sources they are compiled
# one at a time) and then drops this module (bgcore.native), so the text does not stay in the heap.

SOURCE = ("""
@micropython.viper
def add(acc, w, o: int, h: int, sign: int):
    a = ptr32(acc)
    p = ptr8(w)
    j = 0
    while j < h:
        a[j] += sign * p[o + j]
        j += 1
    a[h] += sign
""", """
@micropython.viper
def load(acc, raw, w, dims, rows):
    # acc = the sums of the 52-byte position raw's rows (rows() without the shot row); dims:
    # int32 hidden size, LEVELS, the first bar and borne-off rows (bgcore.net's numbering), 1
    # where a row r is read at rows[r] (its address; w 0) instead of at r * h in w
    a = ptr32(acc)
    b = ptr8(raw)
    p = ptr8(w)
    d = ptr32(dims)
    t = ptr32(rows)
    h = d[0]
    lv = d[1]
    by_rows = d[4]
    j = 0
    while j <= h:
        a[j] = 0
        j += 1
    i = 0
    while i < 52:
        n = b[i]
        if n:
            side = 0
            place = i
            if i >= 26:
                side = 1
                place = i - 26
            if place == 0:
                if n > 15:
                    n = 15
                r = d[3] + side * 15 + n - 1
            elif place == 25:
                if n > 4:
                    n = 4
                r = d[2] + side * 4 + n - 1
            else:
                if n > lv:
                    n = lv
                r = (side * 24 + place - 1) * lv + n - 1
            o = r * h
            if by_rows:
                o = t[r]
            j = 0
            while j < h:
                a[j] += p[o + j]
                j += 1
            a[h] += 1
        i += 1
""", """
@micropython.viper
def hidden(acc, b1, out, h: int):
    a = ptr32(acc)
    b = ptr16(b1)
    t = ptr32(out)
    off = 128 * a[h]
    j = 0
    while j < h:
        v = b[j]
        if v & 0x8000:
            v -= 0x10000
        x = a[j] - off + v
        if x < 0:
            x = 0
        elif x > 128:
            x = 128
        t[j] = x
        j += 1
""", """
@micropython.viper
def dots(v, w, o: int, out, n: int, m: int):
    x = ptr32(v)
    p = ptr16(w)
    t = ptr32(out)
    k = 0
    while k < m:
        s = 0
        j = 0
        while j < n:
            a = x[j]
            if a:
                b = p[o + j]
                if b & 0x8000:
                    b -= 0x10000
                s += b * a
            j += 1
        t[k] = s
        o += n
        k += 1
""", """
@micropython.viper
def dots16(v, w, out, n: int):
    # out[k] = the sum over j < n of v[j] * (w[16 * j + k] - 32768), k < 16: the second layer's
    # sums from its weights as a board keeps them (bgcore.net: PACKED)
    x = ptr32(v)
    p = ptr16(w)
    t = ptr32(out)
    k = 0
    while k < 16:
        t[k] = 0
        k += 1
    c = 0
    j = 0
    while j < n:
        a = x[j]
        if a:
            c += a
            q = j << 4
            k = 0
            while k < 16:
                t[k] += p[q + k] * a
                k += 1
        j += 1
    c <<= 15
    k = 0
    while k < 16:
        t[k] -= c
        k += 1
""")
