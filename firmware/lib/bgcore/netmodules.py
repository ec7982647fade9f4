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


def from_modules(make):
    """[main, race]: the networks `make` (bgcore.net.Net) makes of bgcore.botnet and
    bgcore.racenet, whose modules then leave the heap (each network keeps its first layer's
    bytes and has its own copies of the rest)."""
    import bgcore
    nets = []
    for name in ("botnet", "racenet"):
        __import__("bgcore." + name)
        nets.append(make(getattr(bgcore, name)))
        del sys.modules["bgcore." + name]
        delattr(bgcore, name)
    if nets[1].h != nets[0].h or nets[1].h2 != nets[0].h2:
        raise ValueError("bgcore.racenet is not the shape of bgcore.botnet")
    return nets
