# Three of bgcore.net's inner loops for CPython, on its builtins instead of a bytecode loop per
# weight: the laptop's bots (bench, selfplay, the leaderboard's replays, the suite) spend most
# of their time there. Integer for integer the loops of bgcore.net (and of its native code on
# MicroPython). install() hands them to bgcore.net; the host package bgboard does so when it is
# imported. A board never gets this module (bgboard.build.HOST_ONLY), and bgcore.net itself
# stays as the board runs it (its heap is measured to the block).

from array import array
from operator import add as _plus, mul as _times, sub as _minus

_LANE = 48                      # bits a sum of `dots` gets in the packed integers
_MASK = (1 << _LANE) - 1
_packed = {}                    # (id(w), o, n, m) -> (w, its columns packed)


def add(acc, w, o, h, sign):
    """acc[0:h] += sign * w[o:o + h]; acc[h] (the rows added) += sign."""
    acc[:h] = array("i", map(_plus if sign > 0 else _minus, acc[:h], w[o:o + h]))
    acc[h] += sign


def hidden(acc, b1, out, h):
    """out[j] = acc[j] - 128 * acc[h] + b1[j], clipped to 0..128 (the first layer's units)."""
    lo = 128 * acc[h]
    hi = lo + 128
    out[:h] = array("i", [0 if x < lo else (x - lo if x < hi else 128)
                          for x in map(_plus, acc[:h], b1)])


def _columns(w, o, n, m):
    # column j: the m weights w[o + k * n + j] (k = 0..m-1), each + 32768, in lanes of one int
    cols = []
    for j in range(n):
        c = 0
        for k in range(m - 1, -1, -1):
            c = c << _LANE | (w[o + k * n + j] + 32768)
        cols.append(c)
    return cols


def dots(v, w, o, out, n, m):
    """out[k] = sum of v[j] * w[o + k * n + j] over j < n, for k < m. For m > 1 with every v[j]
    in 0..255 (the clipped units always are) the m sums are made at once in one integer's
    lanes; the weights are offset to be positive there, and their offset taken off after."""
    if m == 1 or min(v) < 0 or max(v) > 255 or n > 1 << 16:
        for k in range(m):
            out[k] = sum(map(_times, v[:n], w[o + k * n:o + k * n + n]))
        return
    key = (id(w), o, n, m)
    got = _packed.get(key)
    if got is None or got[0] is not w:
        if len(_packed) > 32:   # networks made and dropped (tests, training): keep a few
            _packed.clear()
        got = _packed[key] = (w, _columns(w, o, n, m))
    cols = got[1]
    s = 0
    t = 0
    for j in range(n):
        a = v[j]
        if a:
            s += a * cols[j]
            t += a
    t <<= 15                    # the offset: 32768 * the sum of v
    for k in range(m):
        out[k] = (s & _MASK) - t
        s >>= _LANE


def install():
    """bgcore.net's networks made from now on use these loops (made before: the plain ones)."""
    from bgcore import net
    net._native[:] = [add, hidden, dots, None, None]    # (load: Net.load's loop over add)
