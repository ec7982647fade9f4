# The board's network file, bgcore/nets.bin: the bot's two networks (bgcore.net) as a board gets
# them (the laptop, and a library run from its sources, use their modules: bgcore.netmodules).
# bgboard.build makes it from the modules tools/train_bot.py writes (bgcore.botnet, the main
# network, and bgcore.racenet, the one for races, of the same shape): bgcore.net.NETS_MAGIC (8
# bytes), HIDDEN, HIDDEN2, LEVELS and the inputs (SHOTS + 2 * CONTACT) a byte each, then each
# network's TABLES as those modules hold them (little-endian, as they lie in a board's memory),
# the main network first. A board makes one network's tables once (bgcore.net, at import: it reads
# the header) and reads either network into them: no allocation, so a heap in pieces serves it,
# and the second network costs no heap. bgcore.net loads this module for a moment each time
# (read() drops it): its code stays out of the heap.

import sys

TABLES = ("W1", "B1", "W2", "B2", "WO", "BO", "SIGMOID")    # Net's w1, b1, w2, b2, wo, bo, sig


def read(tabs, path, offset, sizes, packed=0):
    """Fill a network's tables `tabs` (bgcore.net's, of `sizes` bytes) in place with the
    network at `offset` in the file at `path` (a table that is None, read where it lies, is
    passed over; with `packed` units in the second layer, W2 goes into its table as
    bgcore.net.PACKED says); then this module leaves the heap."""
    done()
    with open(path, "rb") as f:
        f.seek(offset)
        for t, size, name in zip(tabs, sizes, TABLES):
            if t is None:
                f.seek(size, 1)
            elif packed and name == "W2":
                _read_packed(f, t, packed, size // (2 * packed), path)
            elif size and f.readinto(t) != size:
                raise _short(path)


def _short(path):
    return ValueError("%s is cut short (flash the firmware again)" % path)


def _read_packed(f, t, m, h, path):
    # the file's W2 (m units' rows of h int16 weights) into t: unit k's weight from first-layer
    # unit j at m * j + k, plus 32768; a row at a time (no block the table's size)
    from array import array
    row = array("h", bytes(2 * h))
    for k in range(m):
        if f.readinto(row) != 2 * h:
            raise _short(path)
        for j in range(h):
            t[m * j + k] = row[j] + 32768


def done():
    """This module leaves the heap (the next use loads it again)."""
    sys.modules.pop("bgcore.netfile", None)
    import bgcore
    if "netfile" in bgcore.__dict__:
        delattr(bgcore, "netfile")
