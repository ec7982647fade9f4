"""A backgammon position as an SVG picture, and the frames of a game record (one picture per
move), for the leaderboard's game viewer and for `bgboard render POSITION_ID|RECORD [--move M]
-o FILE.svg`. Usable alone: it needs only bgcore.

The board is always drawn from player 0's side: player 0's checkers are light and travel from
point 24 (top right) to point 1 (bottom right, home at the right); player 1's are dark."""

import sys
from xml.sax.saxutils import escape

from bgcore import Position

# geometry, in SVG units
_W, _H = 560, 400
_MARGIN = 20            # frame around the playing field
_BAR = 36               # bar width
_OFF = 40               # bear-off tray at the right
_PW = (_W - 2 * _MARGIN - _BAR - _OFF) / 12.0   # point width
_R = _PW / 2 - 1        # checker radius
_PH = 5 * _R * 2 * 0.86                         # point height (a little under five checkers)
_LIGHT, _DARK = "#f4efe2", "#30343b"
_COLOURS = {0: (_LIGHT, "#6b5d3f"), 1: (_DARK, "#0d0f12")}


def _point_x(q):
    """Centre x of point q (1-24, player 0's numbering)."""
    if q <= 12:                     # bottom row, 12 at the left, 1 at the right
        col = 12 - q
    else:                           # top row, 13 at the left, 24 at the right
        col = q - 13
    x = _MARGIN + col * _PW + _PW / 2
    if col >= 6:
        x += _BAR
    return x


def counts(pos, on_roll):
    """(player 0's, player 1's) checkers per place from a position whose side on roll is player
    `on_roll`: each a list of 26 (0 = borne off, 1-24 the points in player 0's numbering for
    both, 25 = the bar)."""
    if on_roll == 1:
        pos = pos.swapped()
    mine = [pos.checkers(0, p) for p in range(26)]
    theirs = [0] * 26
    for p in range(1, 25):
        theirs[p] = pos.checkers(1, 25 - p)
    theirs[0] = pos.checkers(1, 0)
    theirs[25] = pos.checkers(1, 25)
    return mine, theirs


def _checker(out, x, y, player, label=None):
    fill, stroke = _COLOURS[player]
    out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s" stroke-width="1.5"/>'
               % (x, y, _R, fill, stroke))
    if label:
        out.append('<text x="%.1f" y="%.1f" font-size="13" text-anchor="middle" '
                   'dominant-baseline="central" fill="%s">%s</text>'
                   % (x, y, _COLOURS[1 - player][0], label))


def _stack(out, x, n, player, top):
    step = 2 * _R
    shown = min(n, 5)
    for i in range(shown):
        y = (_MARGIN + _R + i * step) if top else (_H - _MARGIN - _R - i * step)
        _checker(out, x, y, player, str(n) if (i == shown - 1 and n > 5) else None)


def _die(out, x, y, value, player):
    size = 30
    fill, stroke = _COLOURS[player]
    out.append('<rect class="die" x="%.1f" y="%.1f" width="%d" height="%d" rx="5" fill="%s" '
               'stroke="%s" stroke-width="1.5"/>' % (x, y, size, size, fill, stroke))
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
            4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
            6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}[value]
    for cx, cy in pips:
        out.append('<circle cx="%.1f" cy="%.1f" r="2.8" fill="%s"/>'
                   % (x + 7 + cx * 8, y + 7 + cy * 8, _COLOURS[1 - player][0]))


def svg(pos, on_roll=0, dice=None, caption=None):
    """The SVG text of `pos`, whose side on roll is player `on_roll`; `dice` (d1, d2) are drawn
    on that player's half of the board; `caption` is a line of text under the board."""
    if isinstance(pos, str):
        pos = Position.from_id(pos)
    mine, theirs = counts(pos, on_roll)
    height = _H + (24 if caption else 0)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" '
           'aria-label="backgammon position %s" data-position="%s">'
           % (_W, height, pos.id(), pos.id()),
           '<rect width="%d" height="%d" fill="#7a5230"/>' % (_W, _H),
           '<rect x="%d" y="%d" width="%.1f" height="%d" fill="#d9c7a0"/>'
           % (_MARGIN, _MARGIN, 12 * _PW + _BAR, _H - 2 * _MARGIN)]
    bar_x = _MARGIN + 6 * _PW
    out.append('<rect x="%.1f" y="%d" width="%d" height="%d" fill="#5c3d22"/>'
               % (bar_x, _MARGIN, _BAR, _H - 2 * _MARGIN))
    for q in range(1, 25):
        x = _point_x(q)
        top = q > 12
        base = _MARGIN if top else _H - _MARGIN
        tip = base + _PH if top else base - _PH
        colour = "#a23b2a" if q % 2 else "#2f5d62"
        out.append('<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"/>'
                   % (x - _PW / 2, base, x + _PW / 2, base, x, tip, colour))
        ny = _MARGIN - 6 if top else _H - 6
        out.append('<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle" '
                   'fill="#f4efe2">%d</text>' % (x, ny, q))
        if mine[q]:
            _stack(out, x, mine[q], 0, top)
        if theirs[q]:
            _stack(out, x, theirs[q], 1, top)
    # the bar: player 0's hit checkers wait at the top (they enter into the top-right quarter
    # from point 25), player 1's at the bottom
    cx = bar_x + _BAR / 2
    if mine[25]:
        _checker(out, cx, _H / 2 - 3 * _R, 0, str(mine[25]) if mine[25] > 1 else None)
    if theirs[25]:
        _checker(out, cx, _H / 2 + 3 * _R, 1, str(theirs[25]) if theirs[25] > 1 else None)
    # borne off: counted in the tray at the right, player 0 at the bottom, player 1 at the top
    tray = _W - _MARGIN - _OFF / 2 + 4
    for player, n, y in ((0, mine[0], _H - _MARGIN - 30), (1, theirs[0], _MARGIN + 30)):
        if n:
            fill, stroke = _COLOURS[player]
            out.append('<rect x="%.1f" y="%.1f" width="28" height="24" rx="3" fill="%s" '
                       'stroke="%s"/>' % (tray - 14, y - 12, fill, stroke))
            out.append('<text x="%.1f" y="%.1f" font-size="13" text-anchor="middle" '
                       'dominant-baseline="central" fill="%s">%d</text>'
                       % (tray, y, _COLOURS[1 - player][0], n))
    if dice:
        # on the right half for player 0 (near side), the left half for player 1
        x0 = _MARGIN + (6 * _PW + _BAR + 2 * _PW if on_roll == 0 else 2 * _PW)
        for i, d in enumerate(dice):
            _die(out, x0 + i * 38, _H / 2 - 15, d, on_roll)
    if caption:
        out.append('<text x="%d" y="%d" font-size="14" fill="#222">%s</text>'
                   % (_MARGIN, _H + 17, escape(caption)))
    out.append("</svg>")
    return "\n".join(out)


class Frame:
    """One step of a game for the viewer: the position before the move (`on_roll` = the player
    about to move), the dice, the move in gnubg notation, and the position id."""
    __slots__ = ("pos", "on_roll", "dice", "move", "number")

    def __init__(self, pos, on_roll, dice, move, number):
        self.pos, self.on_roll, self.dice, self.move, self.number = pos, on_roll, dice, move, number

    def caption(self, names=("player 0", "player 1")):
        if self.dice is None:
            return "end: %s" % self.move
        return "%d. %s %d%d: %s" % (self.number, names[self.on_roll], self.dice[0],
                                    self.dice[1], self.move)


def frames(text, game=1):
    """The frames of game `game` of a native record: one per move, then the final position.
    Raises bgcore.record.RecordError for a record that does not replay."""
    from bgcore.record import replay
    rep, _info, _torn = replay(text)
    if not 1 <= game <= len(rep.history):
        raise ValueError("the record has no game %d" % game)
    out = []
    last = None
    for player, kind, data in rep.history[game - 1]:
        if kind != "move":
            continue
        dice, before, play, _text = data
        notation = str(play) if play is not None else "no legal play"
        out.append(Frame(before, player, tuple(dice), notation, len(out) + 1))
        last = (before.apply(play), 1 - player)
    if last is None:
        raise ValueError("game %d has no moves" % game)
    result = rep.results[game - 1] if len(rep.results) >= game else None
    end = "%s wins %d" % (rep.players[result[0]], result[1]) if result else "unfinished"
    out.append(Frame(last[0], last[1], None, end, len(out) + 1))
    return out, rep.players


def run(source, move=None, output=None):
    """`bgboard render`: a Position ID or a record file (one line and exit 1 on bad input)."""
    import os
    if os.path.exists(source):
        with open(source) as f:
            text = f.read()
        try:
            fr, names = frames(text)
        except ValueError as e:
            where = e.where() if hasattr(e, "where") else str(e)
            print("bgboard render: %s: %s" % (source, where), file=sys.stderr)
            return 1
        n = len(fr) if move is None else move
        if not 1 <= n <= len(fr):
            print("bgboard render: --move must be 1-%d (the game has %d moves; %d is the final "
                  "position)" % (len(fr), len(fr) - 1, len(fr)), file=sys.stderr)
            return 1
        f = fr[n - 1]
        picture = svg(f.pos, f.on_roll, f.dice, f.caption(names))
    else:
        if move is not None:
            print("bgboard render: --move needs a record file, not a Position ID", file=sys.stderr)
            return 1
        try:
            pos = Position.from_id(source)
        except ValueError as e:
            print("bgboard render: %r is neither a file nor a Position ID: %s" % (source, e),
                  file=sys.stderr)
            return 1
        picture = svg(pos, 0, None, "Position ID %s" % pos.id())
    if output and output != "-":
        with open(output, "w") as f:
            f.write(picture)
    else:
        sys.stdout.write(picture + "\n")
    return 0
