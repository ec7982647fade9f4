# Rendering: the state of the board as a logical RGB frame (bytearray(width * height * 3)), using
# the profile's LED map (which LEDs show each point, the bars, borne-off checkers, dice, cube and
# turn) and colours. One LED per checker on a point, the first layer in the side's colour and a
# second (third) layer stacked on the same LEDs in the darker "stack" shade. Brightness and the
# current limit are applied later, by Panel.encode in the HAL. Also what the game views share:
# the game on the panel (game), the cursor, and the text display's lines during a game. The
# checkers are painted by native code once it is compiled (bgapp.moves.natives), the same bytes.

from array import array

from bgapp.moves import LOOPS


def pixels(profile, name):
    # the frame's pixel numbers (y * width + x) of LED map element `name`, first LED first
    w = profile["panel"]["width"]
    out = bytearray()
    for x, y, dx, dy, n in profile["leds"][name]:
        for i in range(n):
            out.append((y + i * dy) * w + x + i * dx)
    return out

_ELEMS = tuple("p%d" % n for n in range(1, 25)) + ("bar0", "bar1", "off0", "off1", "die0",
                                                    "die1", "cube", "turn0", "turn1")


class Renderer:
    def __init__(self, profile):
        self.w = profile["panel"]["width"]
        self.h = profile["panel"]["height"]
        self.frame = bytearray(self.w * self.h * 3)
        self._blank = bytes(len(self.frame))
        self.px = {}  # type: dict  # element name (or point number) -> its LEDs
        for name in _ELEMS:
            self.px[name] = pixels(profile, name)
        for n in range(1, 25):          # points also by number (no "p%d" string on each draw)
            self.px[n] = self.px[_ELEMS[n - 1]]
        c = profile["colours"]
        self.col = {}
        for k in c:
            self.col[k] = bytes(c[k])
        self.side = (self.col["side0"], self.col["side1"])
        self.stack = (self.col["stack0"], self.col["stack1"])
        # for the native painter (bgapp.native's paint): per side, the LEDs of its places 0-25
        # (0 off, 1-24 its points in its own numbering, 25 the bar) one after another, where
        # each place's start, and its colour then its stack shade
        self.places = []
        for side in (0, 1):
            where = bytearray()
            at = array("H", bytes(2 * 27))
            for q in range(26):
                at[q] = len(where)
                where += self.px[element(side, q)]
            at[26] = len(where)
            self.places.append((where, at, self.side[side] + self.stack[side]))

    def clear(self):
        self.frame[:] = self._blank      # a copy of preallocated zeros (a loop: 5 ms on the chip)

    def put(self, n, rgb, dim=0):
        o = n * 3
        f = self.frame
        f[o] = rgb[0] >> dim
        f[o + 1] = rgb[1] >> dim
        f[o + 2] = rgb[2] >> dim

    def fill(self, px, a, b, rgb, dim=0):
        """LEDs px[a:b] in colour `rgb` (shifted right by `dim`): the loop every drawing call
        ends in, kept to local names (each call and lookup costs microseconds on the chip)."""
        f = self.frame
        r = rgb[0] >> dim
        g = rgb[1] >> dim
        bl = rgb[2] >> dim
        for i in range(a, b):
            o = px[i] * 3
            f[o] = r
            f[o + 1] = g
            f[o + 2] = bl

    def stack_of(self, name, count, side):
        """`count` checkers of `side` on element `name`: one LED per checker, later layers in the
        stack shade (an LED with a checker in a second or later layer above it)."""
        px = self.px[name]
        n = len(px)
        deep = count - n                  # the first `deep` LEDs carry more than one layer
        if deep > 0:
            self.fill(px, 0, deep if deep < n else n, self.stack[side])
        else:
            deep = 0
        if deep < n and count > deep:
            self.fill(px, deep, count if count < n else n, self.side[side])

    def top(self, name, count):
        """The LED of the topmost checker of a stack of `count` (the next free one if 0)."""
        px = self.px[name]
        n = len(px)
        if count <= 0:
            return px[0]
        return px[(count - 1) % n]

    def free(self, name, count):
        """The LED where one more checker would go."""
        px = self.px[name]
        return px[count % len(px)]

    def light(self, name, count, rgb, dim=0):
        px = self.px[name]
        n = len(px)
        self.fill(px, 0, count if count < n else n, rgb, dim)

    def board(self, raw, mover):
        """Checkers of both sides from a position's 52 bytes seen from `mover` (0 or 1)."""
        paint = LOOPS.get("paint")
        for side in (0, 1):
            base = 0 if side == mover else 26
            if paint:
                where, at, rgb = self.places[side]
                paint(self.frame, raw, base, where, at, rgb)
                continue
            for q in range(1, 25):
                n = raw[base + q]
                if n:
                    self.stack_of(element(side, q), n, side)
            if raw[base + 25]:
                self.stack_of(_BAR[side], raw[base + 25], side)
            if raw[base]:
                self.stack_of(_OFF[side], raw[base], side)

    def die(self, which, value, rgb=None, dim=0):
        self.light("die%d" % which, value, rgb or self.col["dice"], dim)


_BAR = ("bar0", "bar1")
_OFF = ("off0", "off1")


def element(side, q):
    """The LED map element of `side`'s point q (its own numbering; 25 bar, 0 off): a point as
    its number seen from player 0's side (Renderer.px has the points by number and by name)."""
    if q == 25:
        return _BAR[side]
    if q == 0:
        return _OFF[side]
    return q if side == 0 else 25 - q


def game(app, r, raw, mover, hint=None):
    """The game in progress on the panel, its checkers from `raw` seen from `mover`: the last
    play (not during an animation), `hint` steps, dice, cube, whose turn or the result."""
    g = app.game
    m = g.m
    anim = app.anim.hops
    r.board(raw, mover)
    col = r.col
    if g.last and not anim:
        p, moves = g.last
        b = raw if p == mover else _swap(raw)
        for s, t in moves:
            if t:
                r.put(r.top(element(p, t), b[t]), col["last"])
    if hint:
        for s, t in hint:
            r.put(r.top(element(mover, s), raw[s]), col["last"])
    if g.opening and (m.phase == "opening" or m.dice):
        # the opening roll: each side's die in its own colour
        r.die(0, g.opening[0], r.side[0])
        r.die(1, g.opening[1], r.side[1])
    elif m.dice and not anim:
        r.die(0, m.dice[0])
        r.die(1, m.dice[1])
    cube, owner = g.cube_shown()
    k = 0
    while (1 << k) < cube:
        k += 1
    if (m.phase == "doubled" or g.ch and g.ch.offers) and (app.hal.ticks_ms() // 400) & 1:
        k += 1
    r.light("cube", k, col["cube"] if owner < 0 else r.side[owner])
    if m.phase in ("game_over", "match_over") and m.result:
        w, pts, how = m.result
        r.light("turn%d" % w, 1, r.side[w])
        r.light("die%d" % w, pts, r.side[w])
    else:
        p = g.actor()
        if p is None:
            p = m.turn
        r.light("turn%d" % p, 1, r.side[p])


def cursor(app, r):
    """The four-button scheme's cursor."""
    k = app.input.at()
    if k[0] == "P":
        name = "p" + k[1:]
    else:
        name = {"BAR": "bar0", "OFF": "off0", "DOUBLE": "cube", "HINT": "die0"}[k]
    px = r.px[name]
    r.put(px[len(px) - 1], r.col["dice"], 1)


def _swap(raw):
    return raw[26:] + raw[:26]


_PHASE = {"opening": "OK: opening roll", "turn": "OK rolls", "move": "move",
          "doubled": "doubled", "game_over": "game over: OK", "match_over": "match over"}


def status(app):
    """The first line during a game: whose turn and what happens now, or the result."""
    g = app.game
    m = g.m
    if m.phase in ("game_over", "match_over") and m.result:
        if g.ch:
            return g.result or "game over: OK"
        w, pts, how = m.result
        name = g.names[w]
        return "%s %s %d (%s)" % (name, "win" if name == "you" else "wins", pts, how)
    w = g.rep.warning
    if w:
        return "TUTOR: the %s loses %d.%03d" % (w[1], w[2] // 1000, w[2] % 1000)
    p = g.actor()
    who = g.names[p if p is not None else m.turn]
    st = "%s: %s" % (who, _PHASE.get(m.phase, m.phase))
    if m.phase == "move" and m.dice:
        st = "%s %d-%d" % (st, m.dice[0], m.dice[1])
    if m.phase == "doubled":
        st = "%s: take (OK) or drop (UNDO)? cube %d" % (who, m.cube * 2)
    elif app.journal.settings["real"] and m.phase in ("opening", "turn") and (
            g.keyin >= 0 or p is None or g.who[p] is None):
        k = app.roll.entry
        if k:
            st = "%s: %d keyed, 2nd die P1-P6" % ("both" if m.phase == "opening" else who, k[0])
        else:
            st = "%s: key in the dice, P1-P6" % ("both" if m.phase == "opening" else who)
    return st


def game_lines(app):
    """The text display's lines during a game."""
    st = status(app)
    g = app.game
    m = g.m
    if app.demo:
        d = app.demo
        st = "DEMO %d/%d %s" % (d.total - d.left + 1, d.total, st)
    if m.rules.mode == "match":
        score = "%d-%d to %d%s" % (m.score[0], m.score[1], m.rules.length,
                                   " Crawford" if m.crawford else "")
    else:
        score = "%s %d-%d cube %d" % (m.rules.mode, m.score[0], m.score[1], m.cube)
    me, them = m.pos.pips()
    if m.turn:
        me, them = them, me
    pips = "pips %d:%d" % (me, them)
    if g.ch:                  # a chouette: the box, the captain, every member's cube
        return [st] + g.text() + [app.message or app.note or ""]
    return [st, score, pips, app.message or app.note or ""]
