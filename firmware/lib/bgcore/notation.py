# Reading plays written in GNU Backgammon's notation (or the .mat form), and a text picture
# of a position. Kept apart from position.py so that a board which never parses text need not
# load it.

from bgcore.position import _O, _check_dice


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
    _check_dice(d1, d2)
    plays = pos.plays(d1, d2)
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        if not plays:
            return None
        raise ValueError("%d%d can be played here: a play is required" % (max(d1, d2), min(d1, d2)))
    segs, starred = _read_steps(text)
    if not plays:
        raise ValueError("%d%d cannot be played from this position: no move is possible"
                         % (max(d1, d2), min(d1, d2)))
    if d1 == d2:
        reach = (d1, 2 * d1, 3 * d1, 4 * d1)
    else:
        reach = (d1, d2, d1 + d2)
    b = pos.raw
    mine = list(b[:_O])
    for a, t, token in segs:
        dist = a - t
        if dist not in reach and not (t == 0 and dist < max(reach)):
            raise ValueError("step %r: %d pips cannot be moved with %d%d"
                             % (token, dist, max(d1, d2), min(d1, d2)))
        if t and b[51 - t] > 1:
            raise ValueError("step %r: point %d is blocked (%d opposing checkers)"
                             % (token, t, b[51 - t]))
        mine[a] -= 1
        mine[t] += 1
    total = 4 * d1 if d1 == d2 else d1 + d2
    moved = sum(a - t for a, t, tok in segs)
    if moved > total:
        raise ValueError("%r moves %d pips, more than %d%d allows (%d)"
                         % (text, moved, max(d1, d2), min(d1, d2), total))
    for a, t, token in segs:
        if mine[a] < 0:
            raise ValueError("step %r: no checker on %s to move"
                             % (token, "the bar" if a == 25 else "point %d" % a))
    mine = bytes(mine)
    # Several plays can end with our checkers alike and differ in what they hit on the way
    # (8/3 through a blot on 5, or through 6). A point the text lands on is hit if a blot
    # stood there; beyond that the '*' marks decide, and no mark means no hit.
    landed = 0
    for a, t, tok in segs:
        if t and b[51 - t] == 1:
            landed |= 1 << t
    found = [p for p in plays if p.mine_after() == mine and p._hits & landed == landed]
    if len(found) > 1:
        found = [p for p in found if p._hits == landed | starred] or found
    if len(found) == 1:
        return found[0]
    if found:
        raise ValueError("%r is ambiguous: mark the hits with '*' (%s)"
                         % (text, " or ".join(str(p) for p in found)))
    if b[25] and any(a != 25 for a, t, tok in segs[:b[25]]):
        reason = "a checker on the bar must enter first"
    elif moved < min(sum(a - t for a, t in p.moves) for p in plays):
        reason = "it does not use as much of the roll as the rules require"
    else:
        reason = "no legal play ends in that position"
    raise ValueError("%r is not a legal play for %d%d: %s"
                     % (text, max(d1, d2), min(d1, d2), reason))


def board_text(pos):
    """A plain-text picture of the position: X is the side on roll, O the opponent; points
    13-24 along the top and 12-1 along the bottom, as the side on roll sees the board."""
    b = pos.raw

    def cell(p, row):
        n = b[p] or b[51 - p]
        ch = "X" if b[p] else "O"
        if n > row:
            if row == 4 and n > 5:
                return "%2d" % n if n > 9 else " %d" % n
            return " " + ch
        return " ."

    lines = [" 13 14 15 16 17 18   19 20 21 22 23 24"]
    for row in range(5):
        lines.append(" " + "".join(cell(p, row) + " " for p in range(13, 19)) + "| "
                     + "".join(cell(p, row) + " " for p in range(19, 25)))
    lines.append("   bar: X %d  O %d       off: X %d  O %d" % (b[25], b[51], b[0], b[_O]))
    for row in range(4, -1, -1):
        lines.append(" " + "".join(cell(p, row) + " " for p in range(12, 6, -1)) + "| "
                     + "".join(cell(p, row) + " " for p in range(6, 0, -1)))
    lines.append(" 12 11 10  9  8  7    6  5  4  3  2  1")
    me, them = pos.pips()
    lines.append(" pips: X %d  O %d   id %s" % (me, them, pos.id()))
    return "\n".join(lines)
