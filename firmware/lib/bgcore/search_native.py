# The native version of bgcore.position's search for legal plays (_search and _Found.add in one
# walk with its own stack), as MicroPython viper source: bgcore.position compiles it at import
# where MicroPython has a native emitter and then drops this module, so the text does not stay
# in the heap. See bgcore.position for what it computes and the layout of its numbers.

SOURCE = """
@micropython.viper
def search(b, steps, st, heads, chunks):
    x = ptr32(st)
    bb = ptr8(b)
    sp = ptr8(steps)
    hd = ptr8(heads)
    nd = x[3]
    k = 0
    enter = 1
    while True:
        base = 16 + 8 * k
        if enter:
            enter = 0
            x[base + 3] = 0
            s = 0
            top = 25
            bar = 0
            if k < nd:
                while top > 0 and bb[top] == 0:
                    top -= 1
                bar = bb[25]
                if bar:
                    s = 25
                else:
                    lim = 25
                    if k and x[4]:
                        lim = x[base - 8]
                    s = top if top < lim else lim
                x[base + 4] = top
                x[base + 5] = bar
        else:
            s = x[base]
            t = x[base + 1]
            bb[t] -= 1
            if x[base + 2]:
                bb[51] -= 1
                bb[51 - t] = 1
            bb[s] += 1
            top = x[base + 4]
            bar = x[base + 5]
            if bar:
                s = 0
            else:
                s -= 1
        ok = 0
        t = 0
        if k < nd:
            d = x[5 + k]
            while s > 0:
                if bb[s]:
                    t = s - d
                    if t > 0:
                        ok = 1 if bb[51 - t] < 2 else 0
                    elif top > 6:
                        ok = 0
                    else:
                        ok = 1 if t == 0 or s == top else 0
                    if ok:
                        break
                if bar:
                    break
                s -= 1
        if ok:
            x[base + 3] = 1
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
            x[base] = s
            x[base + 1] = t
            x[base + 2] = hit
            hits = x[base + 6]
            if hit:
                hits |= 1 << t
            x[base + 14] = hits
            x[base + 15] = x[base + 7] + x[64 + t] - x[64 + s]
            k += 1
            enter = 1
            continue
        if x[base + 3] == 0 and k + 1 >= x[1]:
            if k + 1 > x[1]:
                x[1] = k + 1
                x[2] = 0
                x[0] = 0
                x[10] = 0
                x[11] = 0
                j = 0
                while j < 512:
                    hd[j] = 255
                    j += 1
            x[10] += 1
            hb = (x[base + 7] & 255) * 2
            m = x[base + 6] >> 1
            i = hd[hb] | hd[hb + 1] << 8
            if x[9]:
                j = 0
                while j < 13 and x[90 + j] == bb[2 * j] | bb[2 * j + 1] << 4:
                    j += 1
                if j < 13:
                    i = 0x10000
            while i < 0xFFFF:
                c = ptr8(chunks[i >> 3])
                o = (i & 7) * 27
                j = 0
                while j < 13 and c[o + j] == bb[2 * j] | bb[2 * j + 1] << 4:
                    j += 1
                if j == 13 and (c[o + 13] | c[o + 14] << 8 | c[o + 15] << 16) == m:
                    break
                i = c[o + 25] | c[o + 26] << 8
            if i == 0xFFFF:
                n = x[0]
                if (n >> 3) >= int(len(chunks)):
                    chunks.append(bytearray(216))
                c = ptr8(chunks[n >> 3])
                o = (n & 7) * 27
                j = 0
                while j < 13:
                    c[o + j] = bb[2 * j] | bb[2 * j + 1] << 4
                    j += 1
                c[o + 13] = m & 255
                c[o + 14] = (m >> 8) & 255
                c[o + 15] = m >> 16
                c[o + 16] = k
                j = 0
                while j < 8:
                    c[o + 17 + j] = sp[j]
                    j += 1
                c[o + 25] = hd[hb]
                c[o + 26] = hd[hb + 1]
                hd[hb] = n & 255
                hd[hb + 1] = n >> 8
                x[0] = n + 1
        if k == 0:
            break
        k -= 1
"""
