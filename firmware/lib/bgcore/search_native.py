# The search for a roll's plays (bgcore.position._search) as MicroPython viper source: the same
# depth-first walk over the dice, on an explicit stack instead of recursion, with the leaves'
# bookkeeping (the most dice used, the plays seen, the target, a resulting position met before)
# done in place; only a new play goes back to Python (_Found._append), and a leaf using more
# dice than any before (_Found._grow). bgcore.position compiles it at import where MicroPython
# has a native emitter and then drops this module (bgcore.native), so the text does not stay in
# the heap.

SOURCE = """
@micropython.viper
def search(b, steps, found, w, heads, target, packed):
    # w (int32): 0 the number of dice, 1 1 for a double, 2 1 + the most dice used so far (no
    # negative numbers: a 64-bit port reads int32 unsigned), 3 plays seen using that many, 4
    # the hash of b (sum of count * weight), 5 1 with a target, 8-11 the dice, 12-37 the hash
    # weights per place; from 40, 9 numbers per level k: the source in hand, its target, 1 if
    # it hit, 1 if any step was made, the highest occupied point, the bar's count, the highest
    # source allowed, the hash, the hit mask
    bb = ptr8(b)
    sp = ptr8(steps)
    x = ptr32(w)
    hd = ptr8(heads)
    tg = ptr8(target)
    pk = ptr8(packed)
    nd = x[0]
    dbl = x[1]
    x[46] = 25
    x[47] = x[4]
    x[48] = 0
    k = 0
    enter = 1
    while True:
        L = 40 + 9 * k
        if enter:
            enter = 0
            x[L + 3] = 0
            if k < nd:
                top = 25
                while top > 0 and bb[top] == 0:
                    top -= 1
                x[L + 4] = top
                bar = bb[25]
                x[L + 5] = bar
                if bar:
                    x[L] = 25
                elif top < x[L + 6]:
                    x[L] = top
                else:
                    x[L] = x[L + 6]
            else:
                x[L] = 0
        s = x[L]
        down = 0
        while s > 0:
            if bb[s]:
                t = s - x[8 + k]
                ok = 0
                if t > 0:
                    if bb[51 - t] < 2:
                        ok = 1
                elif x[L + 4] <= 6:
                    if t == 0 or s == x[L + 4]:
                        ok = 1
                if ok:
                    x[L + 3] = 1
                    bb[s] -= 1
                    hit = 0
                    if t > 0 and bb[51 - t] == 1:
                        hit = 1
                        bb[51 - t] = 0
                        bb[51] += 1
                    if t < 0:
                        t = 0
                    bb[t] += 1
                    sp[2 * k] = s
                    sp[2 * k + 1] = t
                    x[L] = s
                    x[L + 1] = t
                    x[L + 2] = hit
                    if dbl:
                        x[L + 15] = s
                    else:
                        x[L + 15] = 25
                    x[L + 16] = x[L + 7] + x[12 + t] - x[12 + s]
                    if hit:
                        x[L + 17] = x[L + 8] | (1 << t)
                    else:
                        x[L + 17] = x[L + 8]
                    k += 1
                    enter = 1
                    down = 1
                    break
            if x[L + 5]:
                s = 0
            else:
                s -= 1
        if down:
            continue
        if x[L + 3] == 0 and k + 1 >= x[2]:
            if k + 1 > x[2]:
                x[2] = k + 1
                x[3] = 0
                found._grow(k)
            x[3] += 1
            j = 0
            while j < 13:
                pk[j] = bb[2 * j] | (bb[2 * j + 1] << 4)
                j += 1
            new = 1
            if x[5]:
                j = 0
                while j < 13:
                    if tg[j] != pk[j]:
                        new = 0
                        break
                    j += 1
            if new:
                m = x[L + 8] >> 1
                h = (x[L + 7] & 255) * 2
                i = hd[h] | (hd[h + 1] << 8)
                chunks = found.chunks
                while i != 0xFFFF:
                    c = ptr8(chunks[i >> 3])
                    o = (i & 7) * 27
                    j = 0
                    while j < 13:
                        if c[o + j] != pk[j]:
                            break
                        j += 1
                    if j == 13 and (c[o + 13] | (c[o + 14] << 8) | (c[o + 15] << 16)) == m:
                        new = 0
                        break
                    i = c[o + 25] | (c[o + 26] << 8)
                if new:
                    found._append(k, m, h, steps)
        if k == 0:
            break
        k -= 1
        L = 40 + 9 * k
        s = x[L]
        t = x[L + 1]
        bb[t] -= 1
        if x[L + 2]:
            bb[51] -= 1
            bb[51 - t] = 1
        bb[s] += 1
        if x[L + 5]:
            x[L] = 0
        else:
            x[L] = s - 1
"""
