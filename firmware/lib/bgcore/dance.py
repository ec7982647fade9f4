# The chances of the side on roll after its opponent danced (the opponent, the side that just
# "moved", is still on the bar): a position the network hardly saw in training. They are read from
# the hidden layers of both views of the position (the side on roll as the mover, and the
# opponent as the mover, as usual) by five logistic readouts fitted to gnubg-nn 0-ply on such
# positions (the weights: bgcore.dancenet, written by tools/train_bot.py --dance-readout). Integer
# arithmetic: the same chances on MicroPython and CPython. Imported with bgcore.bot, and kept
# (see there).

import sys
from array import array

from bgcore import dancenet
from bgcore.net import _natives

# Output k's weights at k * INPUTS (the last hidden layer of view A, of view B, the first hidden
# layer of A, of B), int16; then A's output sum (* 1024) and a bias (1/32768). The little-endian
# bytes as they lie in memory (every MicroPython port and laptop bgboard runs on is
# little-endian). A board's native dots (bgcore.net) reads the weights in the module's own bytes:
# no copy, which had been the look ahead's largest block (1.6 KB) at each dance it met.
_W = dancenet.W if sys.implementation.name == "micropython" and _natives()[2] \
    else array("h", dancenet.W)
_A = array("h", dancenet.A)
_B = array("i", dancenet.B)
_N = dancenet.INPUTS
del dancenet


def chances(net, acc, raw):
    """(win, win gammon, win bg, lose gammon, lose bg) of the side on roll in `raw` (its
    opponent on the bar), in 1/32768; `acc` is a scratch sum of net's."""
    w = _W
    n = _N
    dots = net._dots            # the network's sums of products (native on a board), if any
    sums = net._sums
    s = [0, 0, 0, 0, 0]
    for view in (0, 1):
        net.load(acc, raw if view == 0 else raw[26:] + raw[:26])
        top = net._top(acc)
        h1 = net._h1
        nt = len(top)
        nh = len(h1)
        for k in range(5):
            ot = k * n + view * nt
            oh = k * n + 2 * nt + view * nh
            if dots:
                dots(top, w, ot, sums, nt, 1)
                v = sums[0]
                dots(h1, w, oh, sums, nh, 1)
                v += sums[0]
            else:
                v = 0
                for j in range(nt):
                    v += w[ot + j] * top[j]
                for j in range(nh):
                    v += w[oh + j] * h1[j]
            if view == 0:
                v += (_A[k] * net._output(top, k) >> 10) + _B[k]
            s[k] += v
    out = [net.sigmoid(v) for v in s]
    win = out[0]
    out[1] = min(out[1], win)
    out[2] = min(out[2], out[1])
    out[3] = min(out[3], 32768 - win)
    out[4] = min(out[4], out[3])
    return out
