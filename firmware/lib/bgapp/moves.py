# A person's move, checker by checker: from the legal plays of the roll and the steps already
# made, which points may be picked up and where each may go (one die, or the same checker on with
# the next dice); keys as points of the player on roll; single steps on a position's bytes. The
# plays of a roll are packed (pack) and narrowed step by step (narrow); a key asks only for the
# points that may be picked up (sources) and the destinations of the one picked up (dests).
# Pure: no hardware; its one state is its loops in native code once compiled (natives).

_CHUNK = 512            # bytes at most in one buffer of packed plays


def pack(plays):
    """The steps of each of `plays`, packed: per play its index in `plays` (two bytes, low
    first), its number of steps, then (from, to) of each; in buffers of at most _CHUNK bytes
    (a list), so that no block of a roll's size is asked of the heap (a 1-1 of 748 plays: 8 KB),
    which a long session leaves in pieces. Made once per roll (MoveView), so that a key need not
    make every play's object and tuples again (a few ms a key on an RP2040)."""
    out = []
    buf = bytearray(_CHUNK)
    n = 0
    k = 0
    for play in plays:
        mv = play.moves
        if n + 3 + 2 * len(mv) > _CHUNK:
            out.append(buf[:n])
            n = 0
        buf[n] = k & 0xFF
        buf[n + 1] = k >> 8
        buf[n + 2] = len(mv)
        n += 3
        for s, t in mv:
            buf[n] = s
            buf[n + 1] = t
            n += 2
        k += 1
    if n:
        out.append(buf[:n])
    return out


LOOPS = {}        # the native loops (bgapp.native) by name once compiled (natives): narrow and
                  # steps here, paint for bgapp.render; empty until then and where there is none


def natives():
    """Compile the native loops (bgapp.native) once; until then (and on CPython, or without a
    native emitter) the Python loops run (bgapp.moves_py). The app does it at power-up, before
    the bot's network (while the heap is in one piece), or with the move view."""
    if "done" not in LOOPS:
        import sys
        try:
            import micropython  # noqa: F401  (MicroPython only)
            mod = __import__("bgapp.native", None, None, ("SOURCE",))
            if hasattr(mod, "SOURCE"):
                exec(mod.SOURCE, LOOPS)
            else:               # compiled by the build to the board's machine code
                for name in ("narrow", "steps", "paint"):
                    LOOPS[name] = getattr(mod, name)
        except Exception:       # CPython, or a MicroPython built without native emitters
            LOOPS.clear()
        LOOPS["done"] = True
        sys.modules.pop("bgapp.native", None)
        import bgapp
        if "native" in bgapp.__dict__:
            delattr(bgapp, "native")
    return LOOPS


def _python():
    # the Python loops, where there is no native code (CPython; the board always has it)
    from bgapp import moves_py
    return moves_py


def narrow(bufs, s, t):
    """The packed plays of `bufs` (pack's buffers) that have the step (s, t), each with that
    step taken out (its first one) and the rest in order: the plays still open after a
    person's step, in buffers no larger than those they come from. The move view keeps one
    list per step of the turn, so that a key looks only at the plays left."""
    f = LOOPS.get("narrow")
    out = []
    for buf in bufs:
        if f:           # its size first, then the buffer: no block bigger than the result
            n = f(buf, len(buf), s, t, buf, 0)
            if n:
                o = bytearray(n)
                f(buf, len(buf), s, t, o, 1)
                out.append(o)
        else:
            o = _python().narrow(buf, s, t)
            if o:
                out.append(o)
    return out


def options(raw, plays, done, packed=None):
    """For a person's move: {source: {destination: steps}} that the legal `plays` allow from
    the position bytes `raw` after the steps `done` (single-die steps, then the same checker
    going on: combined destinations), the play the steps complete (or None) and its index in
    `plays` (-1). `packed`: pack(plays), when the caller keeps it. (The move view asks for
    the parts: narrow, sources, then dests of the source picked up.)"""
    bufs = pack(plays) if packed is None else packed
    for s, t in done:
        bufs = narrow(bufs, s, t)
    opts, index = sources(raw, bufs)
    for s in opts:
        opts[s] = dests(raw, bufs, s)
    return opts, (plays[index] if index >= 0 else None), index


def sources(raw, bufs):
    """From the packed plays left (narrow): {source: None} of the points whose checkers may be
    picked up now (a play's remaining step from there can be made first), in the order the
    plays give them, and the index of the play the steps made complete (-1: none)."""
    f = LOOPS.get("steps")
    if not f:
        return _python().sources(raw, bufs, can)
    # (small blocks only: a bit per step s * 26 + t and the complete play's index, then the
    # distinct steps in the order met, at most 200 of them, else the Python loop)
    seen = bytearray(87)
    seen[85] = seen[86] = 0xFF
    out = bytearray(400)
    n = 0
    for buf in bufs:
        n = f(buf, len(buf), seen, out, 400, n)
        if n < 0:
            return _python().sources(raw, bufs, can)
    opts = {}
    for i in range(0, n, 2):
        s = out[i]
        if s not in opts and can(raw, s, out[i + 1]):
            opts[s] = None
    index = seen[85] | seen[86] << 8
    return opts, (-1 if index == 0xFFFF else index)


def dests(raw, bufs, s):
    """{destination: steps} of source s from the packed plays left: each remaining step from s
    that can be made now, and the same checker going on with the play's next steps from where
    it lands (the first of them from there, in order); each destination keeps the steps of the
    first play giving it."""
    d = {}  # type: dict
    known = bytearray(26)       # can(raw, s, t) by t: 0 not asked yet, 1 no, 2 yes
    for buf in bufs:
        o = 0
        end = len(buf)
        while o < end:
            n = buf[o + 2]
            b = o + 3
            o = b + 2 * n
            for i in range(n):
                p = b + 2 * i
                if buf[p] != s:
                    continue
                t = buf[p + 1]
                c = known[t]
                if not c:
                    c = known[t] = 2 if can(raw, s, t) else 1
                if c == 1:
                    continue
                if t not in d:
                    d[t] = ((s, t),)
                # the same checker going on with the play's other steps (combined destinations)
                used = 1 << i
                path = None
                at = t
                while at:
                    q = 0
                    while q < n and (used >> q & 1 or buf[b + 2 * q] != at):
                        q += 1
                    if q == n:
                        break
                    nt = buf[b + 2 * q + 1]
                    if nt and raw[51 - nt] >= 2:
                        break
                    used |= 1 << q
                    if path is None:
                        path = [(s, t)]
                    path.append((at, nt))
                    at = nt
                    if at not in d:
                        d[at] = tuple(path)
    return d


def point(key, p):
    """A key as a point in player p's numbering (25 bar, 0 off), -1 if not a point."""
    if key == "BAR":
        return 25
    if key == "OFF":
        return 0
    if key[0] == "P" and key[1:].isdigit():
        q = int(key[1:])
        if 1 <= q <= 24:
            return q if p == 0 else 25 - q
    return -1


def where(key):
    return {"BAR": "the bar", "OFF": "off"}.get(key, "point " + key[1:])


def where_pt(pt, p):
    if pt == 25:
        return "the bar"
    if pt == 0:
        return "off"
    return "point %d" % (pt if p == 0 else 25 - pt)


def can(raw, s, t):
    # may the mover step a checker from s to t now (source, bar first, landing, bearing off)?
    if raw[s] == 0:
        return False
    if raw[25] and s != 25:
        return False
    if t == 0:
        for q in range(7, 26):
            if raw[q]:
                return False
        return True
    return raw[51 - t] < 2


def step(raw, s, t):
    # one checker of the mover from s to t on a position's bytes, hitting a blot
    raw[s] -= 1
    raw[t] += 1
    if t and raw[51 - t] == 1:
        raw[51 - t] = 0
        raw[51] += 1
