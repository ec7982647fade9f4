"""GNU Backgammon's native format, SGF (FF[4], GM[6]): a loaded record or .mat written as one
game tree per game, player 0 as White, with the match length, the score before each game, the
rules (Crawford, Jacoby, no cube) and each game's result. Points are letters a-x seen from the
player who moves (y the bar, z off). Read back - ours or GNU Backgammon's own (`save match`),
analysis and comments ignored - every move is replayed with the rules and each game's result
checked."""

from bgcore import __version__
from bgcore.match import DOUBLED, GAME_OVER, MATCH, MATCH_OVER, MONEY, NOCUBE, OPENING, TURN, Rules
from bgcore.record import RecordError, Replay
from bgboard.safetext import number


class SgfError(Exception):
    """The file is not a backgammon SGF file we can read; the message says what."""


def _sgf_point(player, p):
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    return chr(ord("a") + (p - 1 if player == 0 else 24 - p))


def _esc(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def write(ld, names=None, cubes=None):
    """The SGF text of a loaded game file (bgboard.games.load): one game tree per game; NAMES
    replace the players' own; CUBES: the cube each game started with (CV[4] after two
    automatic doubles, as gnubg writes it)."""
    r = ld.replay
    names = names or r.players
    rules = r.match.rules
    out = []
    results = r.results
    for gi, history in enumerate(r.history):
        before = r.scores_before[gi]
        ru = []
        if rules.mode == MATCH:
            ru.append("Crawford" + (":CrawfordGame" if r.crawford_games[gi] else ""))
        if rules.mode == MONEY and rules.jacoby:
            ru.append("Jacoby")
        if rules.mode == NOCUBE:
            ru.append("NoCube")
        head = "(;FF[4]GM[6]CA[UTF-8]AP[bgboard:%s]MI[length:%d][game:%d][ws:%d][bs:%d]" \
               "PW[%s]PB[%s]" % (__version__, rules.length, gi, before[0], before[1],
                                 _esc(names[0]), _esc(names[1]))
        if ru:
            head += "RU[%s]" % ":".join(ru)
        if cubes and cubes[gi] > 1:
            head += "CV[%d]" % cubes[gi]
        if gi < len(results) and results[gi]:
            w, pts, how = results[gi]
            head += "RE[%s+%d%s]" % ("WB"[w], pts, "R" if how == "resign" else "")
        out.append(head + "\n")
        for player, kind, data in history:
            c = "WB"[player]
            if kind == "move":
                dice, before_pos, play, text = data
                steps = "".join(_sgf_point(player, s) + _sgf_point(player, t)
                                for s, t in (play.moves if play else ()))
                out.append(";%s[%d%d%s]" % (c, max(dice), min(dice), steps))
            elif kind in ("double", "beaver"):
                out.append(";%s[double]" % c)
            elif kind in ("take", "drop"):
                out.append(";%s[%s]" % (c, kind))
            elif kind == "resign":
                pass
        out.append(")\n")
    return "".join(out)


# ---- reading -----------------------------------------------------------------------------------

def parse(text):
    """The game trees of an SGF text: a list of games, each a list of nodes, each a list of
    (property, [values]) in file order. Variations are not used by backgammon files: only the
    main line (the first branch) is kept."""
    games, i, n = [], 0, len(text)
    depth = 0
    node = None
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
            if depth == 1:
                games.append([])
            i += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise SgfError("a ')' without its '('")
            i += 1
        elif c == ";":
            node = []
            if depth == 1:
                if not games:
                    raise SgfError("a node outside any game tree")
                games[-1].append(node)
            i += 1
        elif c.isupper():
            j = i
            while j < n and text[j].isupper():
                j += 1
            key, values = text[i:j], []
            while j < n and text[j] in " \t\r\n":
                j += 1
            while j < n and text[j] == "[":
                k, val = j + 1, []
                while k < n and text[k] != "]":
                    if text[k] == "\\" and k + 1 < n:
                        k += 1
                    val.append(text[k])
                    k += 1
                if k >= n:
                    raise SgfError("a value of %s is not closed with ']'" % key)
                values.append("".join(val))
                j = k + 1
                while j < n and text[j] in " \t\r\n":
                    j += 1
            if not values:
                raise SgfError("property %s has no value" % key)
            if node is None:
                raise SgfError("property %s outside a node" % key)
            node.append((key, values))
            i = j
        elif c.isspace():
            i += 1
        else:
            raise SgfError("unexpected %r at character %d" % (c, i))
    if depth:
        raise SgfError("a game tree is not closed with ')'")
    if not games or not games[0]:
        raise SgfError("no game tree in the file")
    return games


def _point(player, letter):
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    if not "a" <= letter <= "x":
        raise ValueError("%r is not a point (a-x, y bar, z off)" % letter)
    k = ord(letter) - ord("a")
    return k + 1 if player == 0 else 24 - k


def read(text):
    """Replay an SGF text: (Replay, header). Raises SgfError for a file that is not a
    backgammon SGF file, RecordError (game G move M: reason) for the first move the rules
    refuse or a result that is not the one the replay gives."""
    games = parse(text)
    root = dict(games[0][0])
    if root.get("GM", ["6"])[0] != "6":
        raise SgfError("not a backgammon file (GM[%s], backgammon is GM[6])" % root["GM"][0])
    mi = dict(v.split(":", 1) for v in root.get("MI", []) if ":" in v)
    rules_text = root.get("RU", [""])[0].split(":")
    try:
        length = int(mi.get("length", "0"))
    except ValueError:
        raise SgfError("MI[length:%s] is not a number" % mi.get("length"))
    if length:
        rules = Rules(MATCH, length)
    elif "NoCube" in rules_text:
        rules = Rules(NOCUBE)
    else:
        # the options a money session needs to replay: automatic doubles as many as the
        # largest starting cube (CV) says, beavers if a double answers a double
        autos = max(_cube_value(dict(nodes[0]).get("CV", ["1"])[0]) for nodes in games)
        rules = Rules(MONEY, 0, jacoby="Jacoby" in rules_text, beavers=_beavered(games),
                      auto_doubles=autos.bit_length() - 1)
    players = [root.get("PW", ["White"])[0], root.get("PB", ["Black"])[0]]
    r = Replay(rules, players)
    m = r.match
    for number, nodes in enumerate(games, 1):
        r.event(["GAME", str(number)])
        if rules.mode == MONEY:
            for _ in range(_cube_value(dict(nodes[0]).get("CV", ["1"])[0]).bit_length() - 1):
                r.event(["OPEN", "1", "1"])         # an automatic double (a tied opening roll)
        for props in nodes:
            for key, values in props:
                if key in ("W", "B"):
                    _action(r, 0 if key == "W" else 1, values[0])
        res = dict(nodes[0]).get("RE", [""])[0]
        if res:
            _result(r, res)
        elif m.phase not in (GAME_OVER, MATCH_OVER) and number < len(games):
            raise RecordError("the game ends without a result", 0, m.game, r.move_no())
    return r, {"p0": players[0], "p1": players[1]}


def _cube_value(text):
    """CV[N]: a power of two from 1 to 64."""
    value = number(text, 2)
    if value not in (1, 2, 4, 8, 16, 32, 64):
        raise SgfError("CV[%s] is not a cube value (1, 2, 4 ... 64)" % text[:20])
    return value


def _beavered(games):
    """Does a double answer a double anywhere (a beaver)?"""
    for nodes in games:
        last = None
        for props in nodes:
            for key, values in props:
                if key in ("W", "B"):
                    if values[0] == "double" and last == "double":
                        return True
                    last = values[0]
    return False


def _action(r, player, value):
    m = r.match
    p = str(player)
    if value == "double":
        r.event(["BEAVER" if m.phase == DOUBLED else "DOUBLE", p])
    elif value in ("take", "drop"):
        r.event([value.upper(), p])
    elif len(value) >= 2 and number(value[:2], 2) is not None:
        d1, d2 = int(value[0]), int(value[1])
        letters = value[2:]
        if len(letters) % 2:
            raise RecordError("a move's points come in pairs: %r" % value, 0, m.game,
                              r.move_no())
        try:
            steps = ["%d/%d" % (_point(player, letters[k]), _point(player, letters[k + 1]))
                     for k in range(0, len(letters), 2)]
        except ValueError as e:
            raise RecordError(str(e), 0, m.game, r.move_no())
        if m.phase == OPENING:
            hi, lo = max(d1, d2), min(d1, d2)
            r.event(["OPEN"] + ([str(hi), str(lo)] if player == 0 else [str(lo), str(hi)]))
        elif m.phase == TURN:
            r.event(["ROLL", p, str(d1), str(d2)])
        r.event(["MOVE", p] + steps)
    else:
        raise RecordError("%s[%s] is not a move, double, take or drop" % ("WB"[player], value),
                          0, m.game, r.move_no())


def _result(r, res):
    """RE[W+2], RE[B+4R] (R: resigned): the winner and the points, checked against the replay
    (a resignation is replayed)."""
    m = r.match
    try:
        winner = "WB".index(res[0])
        points = int(res[2:].rstrip("R"))
    except ValueError:
        raise RecordError("RE[%s] is not a result (W+2, B+4R)" % res, 0, m.game, r.move_no())
    if m.phase not in (GAME_OVER, MATCH_OVER):
        if points % m.cube or not 1 <= points // m.cube <= 3:
            raise RecordError("a resignation must be worth 1, 2 or 3 times the cube (%d), not %d"
                              % (m.cube, points), 0, m.game, r.move_no())
        r.event(["RESIGN", str(1 - winner), str(points // m.cube)])
    w, got, how = m.result
    if w != winner or got != points:
        raise RecordError("the file says %s wins %d point(s); the rules give %s %d"
                          % (r.players[winner], points, r.players[w], got), 0, m.game,
                          r.move_no())
