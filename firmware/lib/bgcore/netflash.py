# Where the board's network file (bgcore/nets.bin) lies in its flash, so that the first layer's
# weights are read there instead of from a copy in the heap. The RP2040 maps its flash into
# memory (XIP), and MicroPython's rp2.Flash() gives the filesystem's part of it as a read-only
# buffer; littlefs keeps a file's data in blocks of 4096 bytes, each block after the first
# opening with its list of earlier blocks (4 * (trailing zeros of its index + 1) bytes). The
# file's blocks are found by content (every byte compared), so nothing about littlefs's own
# bookkeeping is relied on; a file not found whole leaves the board with its heap copy.
# Loaded by bgcore.net for a moment (at import, and when a board's other network is wanted),
# then dropped, as bgcore.netfile is. Runs on CPython too (tests/test_netflash.py).

import sys
from array import array

BLOCK = 4096


def _skip(i):
    # the bytes littlefs puts before the data in block i of a file
    if not i:
        return 0
    n = 1
    while not i & 1:
        i >>= 1
        n += 1
    return 4 * n


def _same(flash, a, f, off, n, buf):
    # do the n bytes of the file from off equal the flash's from a?
    f.seek(off)
    while n > 0:
        k = f.readinto(buf)
        if k > n:
            k = n
        if k <= 0 or flash[a:a + k] != buf[:k]:
            return False
        a += k
        n -= k
    return True


def locate(flash, f, size):
    """The file `f` (open, `size` bytes) in `flash` (a buffer of the filesystem's blocks): for
    each of its blocks (file offset, offset in flash, data bytes), or None where some part of it
    is not found whole."""
    done()
    nb = len(flash) // BLOCK
    buf = bytearray(256)
    head = bytearray(16)
    # the search leaves garbage (the slices it compares): what it finds is kept in numbers made
    # before it, and the list of triples made at the end, so that no small object of the result
    # is left between the pieces of that garbage to break the heap up (a triple every 4.6 KB
    # once left a board at power-up 110 KB free and no 5 KB in one piece for the bot's native
    # code: bgcore.native)
    off = i = 0
    while off < size:
        off += min(BLOCK - _skip(i), size - off)
        i += 1
    got = array("i", bytes(12 * i))
    off = i = 0
    prev = -1
    while off < size:
        s = _skip(i)
        n = min(BLOCK - s, size - off)
        f.seek(off)
        k = min(f.readinto(head), n)
        want = head[:k]
        found = -1
        for step in range(nb):          # littlefs hands out blocks in order: look on from
            a = (prev + 1 + step) % nb * BLOCK + s      # the last one
            if flash[a:a + k] == want and _same(flash, a, f, off, n, buf):
                found = a // BLOCK
                break
        if found < 0:
            return None
        got[3 * i] = off
        got[3 * i + 1] = found * BLOCK + s
        got[3 * i + 2] = n
        prev = found
        off += n
        i += 1
    out = [(0, 0, 0)] * i
    for j in range(i):
        out[j] = (got[3 * j], got[3 * j + 1], got[3 * j + 2])
    return out


def rows(blocks, base, first, h, tab, spill, spill_at, f):
    """Fill `tab` (int32, a row each) with the address of each row of h bytes of the table that
    starts at file offset `first`: `base` plus its offset in flash where the row lies whole in a
    block, else in `spill` (at address `spill_at`; one row per block boundary at most), where
    it is copied from the file `f`."""
    done()
    n = len(tab)
    end = first + n * h
    r = k = 0
    for off, at, size in blocks:
        if off + size <= first or r >= n:
            continue
        o = first + r * h               # row r starts in this block: it and the rows after
        a = base + at + o - off         # it that end in it lie in flash
        stop = off + size
        while r < n and o + h <= stop:
            tab[r] = a
            a += h
            o += h
            r += 1
        if r < n and o < stop and o < end:      # the row across the boundary: a copy
            f.seek(o)
            f.readinto(memoryview(spill)[k * h:k * h + h])
            tab[r] = spill_at + k * h
            k += 1
            r += 1


def done():
    """This module leaves the heap (the next use loads it again)."""
    sys.modules.pop("bgcore.netflash", None)
    import bgcore
    if "netflash" in bgcore.__dict__:
        delattr(bgcore, "netflash")
