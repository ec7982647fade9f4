# The search for a roll's plays in Python (bgcore.position._search's), for CPython and a
# MicroPython without a native emitter (a board runs bgcore.search_native's instead): depth-first
# over the dice, and each leaf kept in the search's records (bgcore.position._Found) unless a
# play using more dice was found, it misses the target, or its resulting position is there.

from bgcore.position import _NB, _OBAR, _REC, _ZOBRIST, _heads, _packed


def search(b, dice, k, steps, hits, limit, double, found, h):
    # Depth-first over the dice, moving one checker per die on the bytearray b and undoing it.
    # With doubles, steps go in order of non-increasing source (limit), which reaches every
    # resulting position once without trying the same steps in every order.
    moved = False
    if k < len(dice):
        d = dice[k]
        top = 25
        while top and not b[top]:
            top -= 1
        bar = b[25]
        s = 25 if bar else (top if top < limit else limit)
        while s > 0:
            if b[s]:
                t = s - d
                if t > 0:
                    ok = b[51 - t] < 2
                elif top > 6:
                    ok = False
                else:
                    ok = t == 0 or s == top
                if ok:
                    moved = True
                    b[s] -= 1
                    hit = t > 0 and b[51 - t] == 1
                    if hit:
                        b[51 - t] = 0
                        b[_OBAR] += 1
                    if t < 0:
                        t = 0
                    b[t] += 1
                    steps[2 * k] = s
                    steps[2 * k + 1] = t
                    search(b, dice, k + 1, steps, (hits | 1 << t) if hit else hits,
                           s if double else 25, double, found,
                           h + _ZOBRIST[t] - _ZOBRIST[s])
                    b[t] -= 1
                    if hit:
                        b[_OBAR] -= 1
                        b[51 - t] = 1
                    b[s] += 1
            if bar:
                break
            s -= 1
    if not moved:
        add(found, b, k, steps, hits, h)


def add(found, b, k, steps, hits, hsh):
    # a leaf of the search: b after k steps, the hit mask hits, the hash hsh
    if k < found.used:
        return
    if k > found.used:
        found._grow(k)
    found.seen += 1
    target = found.target
    if target is not None:
        for j in range(13):
            if target[j] != b[2 * j] | b[2 * j + 1] << 4:
                return
    h = (hsh % _NB) * 2
    m = hits >> 1
    i = _heads[h] | _heads[h + 1] << 8
    while i != 0xFFFF:
        c = found.chunks[i >> 3]
        o = (i & 7) * _REC
        j = 0
        while j < 13 and c[o + j] == b[2 * j] | b[2 * j + 1] << 4:
            j += 1
        if j == 13 and (c[o + 13] | c[o + 14] << 8 | c[o + 15] << 16) == m:
            return
        i = c[o + 25] | c[o + 26] << 8
    for j in range(13):
        _packed[j] = b[2 * j] | b[2 * j + 1] << 4
    found._append(k, m, h, steps)
