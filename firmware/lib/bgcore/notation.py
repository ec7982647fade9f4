# Text forms of positions and plays: GNU Backgammon's Position ID and board lists, its move
# notation (written, and read along with the .mat form), and a text picture of a position. Kept
# apart from position.py so that a board that only plays (the bot's path) need not load it.

import binascii

from bgcore.position import _O
from bgcore.readplay import parse_play  # noqa: F401  (reading plays lives there; named here too)

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
