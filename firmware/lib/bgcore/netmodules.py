# The bot's networks made from the modules tools/train_bot.py writes (bgcore.botnet, the main
# network, and bgcore.racenet, the one for races): on the laptop and in a library run from its
# sources. A board never gets this module (bgboard.build.HOST_ONLY) nor those: it reads the same
# tables from its network file (bgcore.netfile).

import sys
from array import array


def words(code, data):
    """The little-endian numbers of `data` (bytes) as an array of `code` ("h" int16, "i"
    int32): the bytes as they lie in a board's memory (swapped on a big-endian laptop)."""
    out = array(code, data)
    if sys.byteorder == "big":
        out.byteswap()
    return out


def from_module(net, wt=None):
    """Give `net` (a bgcore.net.Net being made) the tables of the weights module `wt` (default
    bgcore.botnet)."""
    from bgcore import net as layout
    if wt is None:
        from bgcore import botnet as wt
    if (wt.LEVELS, getattr(wt, "SHOTS", 0), getattr(wt, "CONTACT", 0)) != (
            layout.LEVELS, layout.SHOTS, layout.CONTACT):
        raise ValueError("these weights were trained for other input rows")
    net.h = wt.HIDDEN
    net.h2 = wt.HIDDEN2
    net.w1 = wt.W1
    net.b1 = words("h", wt.B1)
    if net.h2:
        net.w2 = words("h", wt.W2)      # hidden2-major: unit k's weights at k * HIDDEN
        net.b2 = words("i", wt.B2)
    net.wo = words("h", wt.WO)          # output-major: output k at k * (last layer size)
    net.bo = words("i", wt.BO)
    net.sig = words("h", wt.SIGMOID)


NAMES = ("botnet", "racenet")       # the modules of network k: 0 main, 1 race


def network(make, k, main=None):
    """Network k (0 main, 1 race) as `make` (bgcore.net.Net) makes it of its module (NAMES),
    which then leaves the heap (the network keeps its first layer's bytes and has its own
    copies of the rest); the race network must have the shape of `main`."""
    import bgcore
    name = NAMES[k]
    __import__("bgcore." + name)
    net = make(getattr(bgcore, name))
    del sys.modules["bgcore." + name]
    delattr(bgcore, name)
    if main is not None and (net.h != main.h or net.h2 != main.h2):
        raise ValueError("bgcore.%s is not the shape of bgcore.%s" % (name, NAMES[0]))
    return net
