# The move view's two loops over a roll's packed plays (bgapp.moves) in plain Python: where there
# is no native code (CPython: the host's tests and tools), and for a roll whose distinct steps
# outgrow the native loop's buffer. The board runs bgapp.native's viper versions, byte for byte
# the same results (tests/test_chip_native.py); this module is loaded only when one is needed.


def narrow(buf, s, t):
    """One buffer of bgapp.moves.narrow: its plays that have the step (s, t), without it."""
    out = bytearray()
    step = bytes((s, t))
    o = 0
    end = len(buf)
    while o < end:
        b = o + 3
        e = b + 2 * buf[o + 2]
        i = buf.find(step, b, e)
        while i > 0 and (i - b) & 1:          # (a match across two steps)
            i = buf.find(step, i + 1, e)
        if i > 0:
            out += buf[o:o + 2]
            out.append(buf[o + 2] - 1)
            out += buf[b:i]
            out += buf[i + 2:e]
        o = e
    return out


def sources(raw, bufs, can):
    """bgapp.moves.sources over the buffers `bufs`, `can` its test of a step."""
    opts = {}
    index = -1
    known = bytearray(676)      # can(raw, s, t) by s * 26 + t: 0 not asked yet, 1 no, 2 yes
    for buf in bufs:
        o = 0
        end = len(buf)
        while o < end:
            n = buf[o + 2]
            if not n:
                index = buf[o] | buf[o + 1] << 8
            o += 3
            e = o + 2 * n
            while o < e:
                s = buf[o]
                k = s * 26 + buf[o + 1]
                c = known[k]
                if not c:
                    c = known[k] = 2 if can(raw, s, buf[o + 1]) else 1
                if c == 2 and s not in opts:
                    opts[s] = None
                o += 2
    return opts, index
