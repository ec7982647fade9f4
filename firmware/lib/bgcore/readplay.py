# Reading a play from its text (GNU Backgammon's notation, or the .mat form with 25 for the bar
# and 0 for off): what every record's MOVE line is checked with, so it is kept apart from
# bgcore.notation (Position IDs, writing plays, the board picture) and small enough to stay
# loaded. The play is looked for among the legal plays ending where the text does only
# (Position.plays_ending): a double's check holds a record or two, not its hundreds of plays.

from bgcore.position import _O, _check_dice

_NOWHERE = b"\xff" * 13   # counts no play leaves (15 checkers on every place)


def _point(word, token):
    w = word
    if w == "bar":
        return 25
    if w == "off":
        return 0
    if not w or not w.isdigit():
        raise ValueError("step %r: %r is not a point (1-24, 25 or bar, 0 or off)" % (token, word))
    p = int(w)
    if p > 25:
        raise ValueError("step %r: there is no point %d" % (token, p))
    return p


def _read_steps(text):
    # -> list of (from, to, token) segments and a bit mask of the points marked '*'
    segs = []
    starred = 0
    for token in text.split():
        word = token.lower()
        count = 1
        if word.endswith(")"):
            i = word.rfind("(")
            n = word[i + 1:-1]
            if i < 0 or not n.isdigit() or not 1 <= int(n) <= 4:
                raise ValueError("step %r: the count in brackets must be 1 to 4" % token)
            count = int(n)
            word = word[:i]
        parts = word.split("/")
        if len(parts) < 2:
            raise ValueError("step %r: write it as from/to, e.g. 8/5" % token)
        pts = []
        for part in parts:
            star = part.endswith("*")
            if star:
                part = part.rstrip("*")
            p = _point(part, token)
            if star:
                starred |= 1 << p
            pts.append(p)
        for i in range(len(pts) - 1):
            a = pts[i]
            b = pts[i + 1]
            if a == 0:
                raise ValueError("step %r: a checker that is off cannot move" % token)
            if b == 25:
                raise ValueError("step %r: a checker cannot move to the bar" % token)
            if b >= a:
                raise ValueError("step %r: checkers move from higher to lower points" % token)
            for _ in range(count):
                segs.append((a, b, token))
    return segs, starred


def parse_play(pos, text, d1, d2):
    """The play of pos.plays(d1, d2) that `text` writes (see Position.parse_play)."""
    _check_dice(d1, d2)
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        if not pos.plays_ending(d1, d2, _NOWHERE)[1]:
            return None
        raise ValueError("%d%d can be played here: a play is required" % (max(d1, d2), min(d1, d2)))
    segs, starred = _read_steps(text)
    b = pos.raw
    mine = list(b[:_O])
    for a, t, token in segs:
        mine[a] -= 1
        mine[t] += 1
    if min(mine) < 0 or max(mine) > 15:
        packed = _NOWHERE
    else:
        packed = bytes(mine[2 * j] | mine[2 * j + 1] << 4 for j in range(13))  # as plays keep it
    plays, legal = pos.plays_ending(d1, d2, packed)
    if not legal:
        raise ValueError("%d%d cannot be played from this position: no move is possible"
                         % (max(d1, d2), min(d1, d2)))
    if d1 == d2:
        reach = (d1, 2 * d1, 3 * d1, 4 * d1)  # type: tuple
    else:
        reach = (d1, d2, d1 + d2)
    for a, t, token in segs:
        dist = a - t
        if dist not in reach and not (t == 0 and dist < max(reach)):
            raise ValueError("step %r: %d pips cannot be moved with %d%d"
                             % (token, dist, max(d1, d2), min(d1, d2)))
        if t and b[51 - t] > 1:
            raise ValueError("step %r: point %d is blocked (%d opposing checkers)"
                             % (token, t, b[51 - t]))
    total = 4 * d1 if d1 == d2 else d1 + d2
    moved = sum(a - t for a, t, tok in segs)
    if moved > total:
        raise ValueError("%r moves %d pips, more than %d%d allows (%d)"
                         % (text, moved, max(d1, d2), min(d1, d2), total))
    for a, t, token in segs:
        if mine[a] < 0:
            raise ValueError("step %r: no checker on %s to move"
                             % (token, "the bar" if a == 25 else "point %d" % a))
    # Several plays can end with our checkers alike and differ in what they hit on the way
    # (8/3 through a blot on 5, or through 6). A point the text lands on is hit if a blot
    # stood there; beyond that the '*' marks decide, and no mark means no hit.
    landed = 0
    for a, t, tok in segs:
        if t and b[51 - t] == 1:
            landed |= 1 << t
    found = []
    for i in range(len(plays)):
        c, o = plays._record(i)
        hits = (c[o + 13] | c[o + 14] << 8 | c[o + 15] << 16) << 1
        if hits & landed == landed:
            found.append(plays[i])
    if len(found) > 1:
        found = [p for p in found if p._hits == landed | starred] or found
    if len(found) == 1:
        return found[0]
    if found:
        raise ValueError("%r is ambiguous: mark the hits with '*' (%s)"
                         % (text, " or ".join(str(p) for p in found)))
    if b[25] and any(a != 25 for a, t, tok in segs[:b[25]]):
        reason = "a checker on the bar must enter first"
    elif moved < min(sum(a - t for a, t in p.moves) for p in pos.plays(d1, d2)):
        # (only a play that is refused lists the roll's whole play list)
        reason = "it does not use as much of the roll as the rules require"
    else:
        reason = "no legal play ends in that position"
    raise ValueError("%r is not a legal play for %d%d: %s"
                     % (text, max(d1, d2), min(d1, d2), reason))
