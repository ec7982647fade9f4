# Rendering: the state of the board as a logical RGB frame (bytearray(width * height * 3)), using
# the profile's LED map (which LEDs show each point, the bars, borne-off checkers, dice, cube and
# turn) and colours. One LED per checker on a point, the first layer in the side's colour and a
# second (third) layer stacked on the same LEDs in the darker "stack" shade. Brightness and the
# current limit are applied later, by Panel.encode in the HAL.


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
        self.px = {}
        for name in _ELEMS:
            self.px[name] = pixels(profile, name)
        c = profile["colours"]
        self.col = {}
        for k in c:
            self.col[k] = bytes(c[k])
        self.side = (self.col["side0"], self.col["side1"])
        self.stack = (self.col["stack0"], self.col["stack1"])

    def clear(self):
        f = self.frame
        for i in range(len(f)):
            f[i] = 0

    def put(self, n, rgb, dim=0):
        o = n * 3
        f = self.frame
        if dim:
            f[o] = rgb[0] >> dim
            f[o + 1] = rgb[1] >> dim
            f[o + 2] = rgb[2] >> dim
        else:
            f[o] = rgb[0]
            f[o + 1] = rgb[1]
            f[o + 2] = rgb[2]

    def stack_of(self, name, count, side):
        """`count` checkers of `side` on element `name`: one LED per checker, later layers in the
        stack shade."""
        px = self.px[name]
        n = len(px)
        for i in range(n):
            layers = 0
            k = count - i
            while k > 0:
                layers += 1
                k -= n
            if layers == 1:
                self.put(px[i], self.side[side])
            elif layers > 1:
                self.put(px[i], self.stack[side])

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
        for i in range(min(count, len(px))):
            self.put(px[i], rgb, dim)

    def board(self, raw, mover):
        """Checkers of both sides from a position's 52 bytes seen from `mover` (0 or 1)."""
        for side in (0, 1):
            base = 0 if side == mover else 26
            for q in range(1, 25):
                n = raw[base + q]
                if n:
                    self.stack_of(element(side, q), n, side)
            if raw[base + 25]:
                self.stack_of("bar%d" % side, raw[base + 25], side)
            if raw[base]:
                self.stack_of("off%d" % side, raw[base], side)

    def die(self, which, value, rgb=None, dim=0):
        self.light("die%d" % which, value, rgb or self.col["dice"], dim)


def element(side, q):
    """The LED map element of `side`'s point q (its own numbering; 25 bar, 0 off). Points are
    named from player 0's side."""
    if q == 25:
        return "bar%d" % side
    if q == 0:
        return "off%d" % side
    return "p%d" % (q if side == 0 else 25 - q)


def draw(app):
    """The frame for the app's state."""
    r = app.rend
    r.clear()
    if app.view == "menu":
        _menu(app, r)
        return
    if not app.rep:
        return
    m = app.m
    if app.anim:
        raw, mover = app.anim[0], app.anim[1]
    else:
        raw, mover = app._board(), m.turn
    r.board(raw, mover)
    if app.view == "pips":
        me, them = _pips(raw)
        pips = (me, them) if mover == 0 else (them, me)
        for side in (0, 1):
            r.light("bar%d" % side, (pips[side] + 24) // 25, r.col["dice"], 2)
        return
    col = r.col
    if app.last and not app.anim:
        p, moves = app.last
        b = raw if p == mover else _swap(raw)
        for s, t in moves:
            if t:
                r.put(r.top(element(p, t), b[t]), col["last"])
    if app.hint:
        for s, t in app.hint:
            r.put(r.top(element(mover, s), raw[s]), col["last"])
    # dice, cube, turn
    if app.opening and (m.phase == "opening" or m.dice):
        # the opening roll: each side's die in its own colour
        r.die(0, app.opening[0], r.side[0])
        r.die(1, app.opening[1], r.side[1])
    elif m.dice and not app.anim:
        r.die(0, m.dice[0])
        r.die(1, m.dice[1])
    k = 0
    while (1 << k) < m.cube:
        k += 1
    if m.phase == "doubled" and (app.hal.ticks_ms() // 400) & 1:
        k += 1
    r.light("cube", k, col["cube"] if m.owner < 0 else r.side[m.owner])
    if m.phase in ("game_over", "match_over") and m.result:
        w, pts, how = m.result
        r.light("turn%d" % w, 1, r.side[w])
        r.light("die%d" % w, pts, r.side[w])
    else:
        p = app.actor()
        if p is None:
            p = m.turn
        r.light("turn%d" % p, 1, r.side[p])
    # the person's move: sources glow, the selected one shows its destinations
    if app.opts and not app.anim:
        for s in app.opts:
            if app.sel < 0 or s == app.sel:
                r.put(r.top(element(mover, s), raw[s]), col["source"])
        if app.sel >= 0:
            for t in app.opts[app.sel]:
                if t == 0:
                    n = r.free("off%d" % mover, raw[0])
                elif raw[51 - t] == 1:
                    n = r.top(element(1 - mover, 25 - t), 1)
                else:
                    n = r.free(element(mover, t), raw[t])
                r.put(n, col["dest"])
    if app.input.cursor >= 0:
        _cursor(app, r, raw, mover)


def _menu(app, r):
    s = app.journal.settings
    col = r.col
    on = col["source"]
    for n in range(1, 21):
        r.light("p%d" % n, 1, on, 3)
    if s["opponent"]:
        r.light("p%d" % s["opponent"], s["opponent"], r.side[1])
    else:
        r.light("p7", 2, r.side[0])
    r.light("p%d" % (8 + ("nocube", "money", "match").index(s["mode"])), 7, col["dest"])
    if s["mode"] == "match":
        r.stack_of("off0", s["length"], 0)
    keys = ("jacoby", "beavers", "auto", "confirm", "forced", "real")
    for i in range(6):
        if s[keys[i]]:
            r.light("p%d" % (13 + i), 7, col["dest"])
    cap = app.profile["brightness"]["max"]
    r.light("bar0", (app.bright * 7 + cap - 1) // cap, col["dice"])
    r.light("p24", 1, col["last"])


def _cursor(app, r, raw, mover):
    k = app.input.at()
    if k[0] == "P":
        name = "p" + k[1:]
    else:
        name = {"BAR": "bar0", "OFF": "off0", "DOUBLE": "cube", "HINT": "die0"}[k]
    px = r.px[name]
    r.put(px[len(px) - 1], r.col["dice"], 1)


def _swap(raw):
    return raw[26:] + raw[:26]


def _pips(raw):
    me = them = 0
    for q in range(1, 26):
        me += q * raw[q]
        them += q * raw[26 + q]
    return me, them


_PHASE = {"opening": "OK: opening roll", "turn": "OK rolls", "move": "move",
          "doubled": "doubled", "game_over": "game over: OK", "match_over": "match over"}


def lines(app):
    """A few short lines for the text display (and WATCH)."""
    if app.demo:
        head = "DEMO (%d left)" % app.demo
    elif app.view == "menu":
        s = app.journal.settings
        who = "vs bot level %d" % s["opponent"] if s["opponent"] else "two players"
        if s["mode"] == "match":
            kind = "match to %d" % s["length"]
        elif s["mode"] == "money":
            kind = "money game, cube"
            kind += "".join(" " + k for k in ("jacoby", "beavers") if s[k])
            if s["auto"]:
                kind += " auto-dbl"
        else:
            kind = "single game"
        opts = " ".join(n for k, n in (("confirm", "auto-OK"), ("forced", "auto-forced"),
                                       ("real", "real-dice")) if s[k])
        return ["MENU  OK: new game", who, kind, opts or "", app.message or app.note or ""]
    else:
        head = ""
    if not app.rep:
        return [head or "no game", "", "", app.message or app.note]
    m = app.m
    if m.phase in ("game_over", "match_over") and m.result:
        w, pts, how = m.result
        st = "%s wins %d (%s)" % (app.names[w], pts, how)
    else:
        p = app.actor()
        who = app.names[p if p is not None else m.turn]
        st = "%s: %s" % (who, _PHASE.get(m.phase, m.phase))
        if m.phase == "move" and m.dice:
            st = "%s %d-%d" % (st, m.dice[0], m.dice[1])
        if m.phase == "doubled":
            st = "%s: take (OK) or drop (UNDO)? cube %d" % (who, m.cube * 2)
        elif app.journal.settings["real"] and m.phase in ("opening", "turn") and (
                app.keyin >= 0 or p is None or app.who[p] is None):
            st = "%s: key in the dice, P1-P6" % ("both" if m.phase == "opening" else who)
    if m.rules.mode == "match":
        score = "%d-%d to %d%s" % (m.score[0], m.score[1], m.rules.length,
                                   " Crawford" if m.crawford else "")
    else:
        score = "%s %d-%d cube %d" % (m.rules.mode, m.score[0], m.score[1], m.cube)
    me, them = m.pos.pips()
    if m.turn:
        me, them = them, me
    return [(head + " " + st).strip(), score, "pips %d:%d" % (me, them),
            app.message or app.note or ""]
