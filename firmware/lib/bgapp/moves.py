# A person's move, checker by checker: from the legal plays of the roll and the steps already
# made, which points may be picked up and where each may go (one die, or the same checker on with
# the next dice); keys as points of the player on roll; single steps on a position's bytes.
# Pure: no hardware, no state of its own.

def pack(plays):
    """The steps of each of `plays`, packed: per play its number of steps, then (from, to) of
    each. Made once per roll (MoveView), so that a key's options need not make every play's
    object and tuples again (a few ms a key on an RP2040); a few bytes a play."""
    buf = bytearray()
    for play in plays:
        mv = play.moves
        buf.append(len(mv))
        for s, t in mv:
            buf.append(s)
            buf.append(t)
    return buf


def options(raw, plays, done, packed=None):
    """For a person's move: {source: {destination: steps}} that the legal `plays` allow from
    the position bytes `raw` after the steps `done` (single-die steps, then the same checker
    going on: combined destinations), the play the steps complete (or None) and its index in
    `plays` (-1). `packed`: pack(plays), when the caller keeps it."""
    buf = pack(plays) if packed is None else packed
    opts = {}
    index = -1
    k = -1
    o = 0
    end = len(buf)
    while o < end:
        k += 1
        n = buf[o]
        rest = _rest(buf, o + 1, n, done)
        o += 1 + 2 * n
        if rest is None:
            continue
        if not rest:
            index = k
            continue
        for i in range(len(rest)):
            s, t = rest[i]
            if not can(raw, s, t):
                continue
            d = opts.get(s)
            if d is None:
                d = opts[s] = {}
            if t not in d:
                d[t] = ((s, t),)
            # the same checker going on with the other dice (combined destinations)
            path = [(s, t)]
            left = rest[:i] + rest[i + 1:]
            at = t
            while at:
                j = find(left, at)
                if j < 0 or not is_open(raw, left[j][1]):
                    break
                path.append(left[j])
                at = left[j][1]
                left = left[:j] + left[j + 1:]
                if at not in d:
                    d[at] = tuple(path)
    return opts, (plays[index] if index >= 0 else None), index


def _rest(buf, o, n, done):
    # the steps of the packed play at buf[o:o + 2n] left after taking out those in `done`, in
    # order (None if one is missing); a play that lacks one costs no allocation
    used = 0
    for s, t in done:
        for i in range(n):
            if not used >> i & 1 and buf[o + 2 * i] == s and buf[o + 2 * i + 1] == t:
                used |= 1 << i
                break
        else:
            return None
    return [(buf[o + 2 * i], buf[o + 2 * i + 1]) for i in range(n) if not used >> i & 1]


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


def find(steps, frm):
    for i in range(len(steps)):
        if steps[i][0] == frm:
            return i
    return -1


def is_open(raw, t):
    return t == 0 or raw[51 - t] < 2


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
