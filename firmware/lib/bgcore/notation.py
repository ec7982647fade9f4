# Text forms of positions and plays: GNU Backgammon's Position ID and board lists, its move
# notation (written, and read along with the .mat form), and a text picture of a position. Kept
# apart from position.py so that a board that only plays (the bot's path) need not load it.

import binascii

from bgcore.position import _O, _check_dice

_NOWHERE = b"\xff" * 13   # counts no play leaves (15 checkers on every place)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def raw_from_board(board):
    """52 bytes from GNU Backgammon's board [opponent, side on roll] (25 counts each)."""
    b = bytearray(52)
    for half, side in ((_O, board[0]), (0, board[1])):
        if len(side) != 25:
            raise ValueError("each side of a board has 25 counts")
        for i in range(25):
            n = side[i]
            if not isinstance(n, int) or n < 0:
                raise ValueError("checker counts must be whole numbers >= 0")
            b[half + i + 1] = n
    return _checked(b)


def raw_from_id(pid):
    """52 bytes from GNU Backgammon's 14-character Position ID; ValueError says what is wrong."""
    if not isinstance(pid, str):
        raise ValueError("a Position ID is a string of 14 characters")
    pid = pid.strip()
    if len(pid) != 14:
        raise ValueError("a Position ID has 14 characters, %r has %d" % (pid, len(pid)))
    for i in range(14):
        if pid[i] not in _B64:
            raise ValueError("Position ID %r: %r at character %d is not base64"
                             % (pid, pid[i], i + 1))
    key = binascii.a2b_base64(pid + "==")
    bits = int.from_bytes(key, "little")
    b = bytearray(52)
    pos = 0
    for half in (_O, 0):
        for i in range(25):
            n = 0
            while True:
                if pos >= 80:
                    raise ValueError("Position ID %r: runs out before 50 points are read" % pid)
                bit = bits >> pos & 1
                pos += 1
                if not bit:
                    break
                n += 1
            if n > 15:
                raise ValueError("Position ID %r: more than 15 checkers on one point" % pid)
            b[half + i + 1] = n
    if bits >> pos:
        raise ValueError("Position ID %r: stray bits after the position" % pid)
    return _checked(b, pid)


def position_id(raw):
    """GNU Backgammon's Position ID of 52 position bytes."""
    bits = 0
    pos = 0
    for half in (_O, 0):
        for i in range(half + 1, half + 26):
            n = raw[i]
            bits |= ((1 << n) - 1) << pos
            pos += n + 1
    key = bits.to_bytes(10, "little")
    return binascii.b2a_base64(key)[:14].decode()


def _checked(b, what="board"):
    # Reject boards no game can reach: over 15 checkers a side, or both sides on one point.
    for half in (0, _O):
        n = 0
        for i in range(half + 1, half + 26):
            n += b[i]
        if n > 15:
            raise ValueError("%s: a side has %d checkers (at most 15)" % (what, n))
        b[half] = 15 - n
    for p in range(1, 25):
        if b[p] and b[51 - p]:
            raise ValueError("%s: both sides have checkers on the same point (%d of the side "
                             "on roll)" % (what, p))
    return b


def _point_name(p):
    return "off" if p == 0 else str(p)


def format_steps(moves, hits):
    """GNU Backgammon's notation for checker steps, as its FormatMove writes it: steps sorted by
    source, one checker's steps joined (8/5 5/3 -> 8/3, but 13/7*/1 keeps a hit on the way),
    repeated steps counted (6/2(2)), a hit marked once with '*'. The bar is written 25."""
    rows = sorted(moves, key=lambda m: (-m[0], -m[1]))
    chains = [[s, t] for s, t in rows]
    alive = [True] * len(chains)
    for i in range(len(chains)):
        for j in range(i, len(chains)):
            if alive[i] and alive[j] and chains[i][-1] == chains[j][0]:
                if hits >> chains[i][-1] & 1:
                    chains[i].append(chains[j][-1])
                else:
                    chains[i][-1] = chains[j][-1]
                alive[j] = False
    kept = [c for c, a in zip(chains, alive) if a]
    counts = [1] * len(kept)
    for i in range(len(kept)):
        if counts[i]:
            for j in range(i + 1, len(kept)):
                if counts[j] and kept[j] == kept[i]:
                    counts[i] += 1
                    counts[j] = 0
    out = []
    marked = 0
    for c, n in zip(kept, counts):
        if not n:
            continue
        text = _point_name(c[0])
        for p in c[1:-1]:
            text += "/" + _point_name(p) + "*"
            marked |= 1 << p
        last = c[-1]
        text += "/" + _point_name(last)
        if last and hits >> last & 1 and not marked >> last & 1:
            text += "*"
            marked |= 1 << last
        if n > 1:
            text += "(%d)" % n
        out.append(text)
    return " ".join(out)



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
    # The legal plays are searched for the position the text ends in only (Position.plays_ending):
    # checking a double's play holds a record or two, not the hundreds of its whole list.
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
        reach = (d1, 2 * d1, 3 * d1, 4 * d1)
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
