# The LED panel's per-LED loops as MicroPython viper source, for bghal.panel's encode: strip
# (each logical pixel's three channels through the brightness table into the strip's order,
# their sum returned) and total (a frame's channel sum). bghal.panel loads them once, at boot;
# a board's build compiles this module to the board's machine code, so that the board compiles
# nothing and the text does not stay in its heap.

SOURCE = """
@micropython.viper
def strip(frame, out, where, lut, n: int, s0: int, s1: int, s2: int) -> int:
    f = ptr8(frame)
    o = ptr8(out)
    m = ptr8(where)
    t = ptr8(lut)
    total = 0
    p = 0
    while p < n:
        i = 3 * p
        q = 3 * m[p]
        a = t[f[i + s0]]
        b = t[f[i + s1]]
        c = t[f[i + s2]]
        o[q] = a
        o[q + 1] = b
        o[q + 2] = c
        total += a + b + c
        p += 1
    return total


@micropython.viper
def total(frame, n: int) -> int:
    f = ptr8(frame)
    s = 0
    i = 0
    while i < n:
        s += f[i]
        i += 1
    return s
"""
