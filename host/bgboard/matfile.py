"""The Jellyfish / GNU Backgammon `.mat` text format: reading a file into the events the replay
checks, and writing a replayed match laid out exactly as gnubg's `export match mat` does."""

import re

from bgcore.match import Rules, MATCH, MONEY, KINDS
from bgcore.record import REASON_MAX, RecordError, Replay
from bgboard.safetext import for_terminal, number

# Every pattern here is anchored and without nested or adjacent repeats that can match the
# same text, so none can backtrack: reading a line takes time in proportion to its length.
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_STEP = re.compile(r"^(\d+|bar|off)/(\d+|bar|off)\*?$", re.I)
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_DIGITS = "0123456789"
NUMBER_MAX_DIGITS = 100  # digits of a length, score, cube or point count (as in a record)
NAME_MAX = 40            # characters of a player's name written to a .mat


class MatError(ValueError):
    def __init__(self, line, reason):
        reason = for_terminal(reason, REASON_MAX)
        ValueError.__init__(self, "line %d: %s" % (line, reason))
        self.line = line
        self.reason = reason


def _number(text, line_no, what):
    """A whole number in ASCII digits, or MatError (a 5,000-digit score is refused, not read)."""
    n = number(text, NUMBER_MAX_DIGITS)
    if n is None:
        raise MatError(line_no, "%s %r is not a number (at most %d digits)"
                       % (what, text[:20], NUMBER_MAX_DIGITS))
    return n


def _names(line):
    """The players' line of a game, 'Ann : 0        Bob : 2': (name0, score0, name1, score1) as
    text, or None. Read from both ends in one pass: the second score is the digits at the end
    of the line after a ':'; the first name ends at the first ':' that is followed by digits
    and a space (names may hold spaces and colons)."""
    s = line.rstrip()
    j = len(s)
    while j and s[j - 1] in _DIGITS:
        j -= 1
    score1 = s[j:]
    k = j
    while k and s[k - 1].isspace():
        k -= 1
    if not score1 or not k or s[k - 1] != ":":
        return None
    left = s[:k - 1]
    # the digit-and-space runs scanned after each ':' contain no ':', so they never overlap
    start = 0
    while True:
        c = left.find(":", start)
        if c < 0:
            return None
        i = c + 1
        while i < len(left) and left[i].isspace():
            i += 1
        d = i
        while i < len(left) and left[i] in _DIGITS:
            i += 1
        if d < i < len(left) and left[i].isspace():
            return left[:c].strip(), left[d:i], left[i:].strip(), score1
        start = c + 1


def _entries(line, line_no, text_line):
    """Split one numbered line into entries: (column, kind, data)."""
    out = []
    toks = [(m.start(), m.group()) for m in re.finditer(r"\S+", text_line)]
    i = 0
    while i < len(toks):
        col, t = toks[i]
        m = _ROLL.match(t)
        if m:
            steps = []
            i += 1
            while i < len(toks) and _STEP.match(toks[i][1]):
                steps.append(toks[i][1])
                i += 1
            out.append((col, "move", (int(m.group(1)), int(m.group(2)), steps)))
            continue
        low = t.lower()
        if low == "doubles":
            if i + 2 < len(toks) and toks[i + 1][1] == "=>":
                out.append((col, "double", _number(toks[i + 2][1], line_no, "the cube value")))
                i += 3
                continue
            raise MatError(line_no, "'Doubles' must be followed by '=> N'")
        if low in ("takes", "drops"):
            out.append((col, low[:-1], None))
            i += 1
            continue
        if low == "beavers":
            raise MatError(line_no, "beavers cannot be read from a .mat file")
        if low == "wins":
            if i + 1 < len(toks) and toks[i + 1][1][:1] in _DIGITS:
                out.append((col, "wins", _number(toks[i + 1][1], line_no, "the points won")))
                i += 2
                while i < len(toks) and toks[i][1].lower() in ("point", "points", "and",
                                                                 "the", "match"):
                    i += 1
                continue
            raise MatError(line_no, "'Wins' must be followed by a number of points")
        raise MatError(line_no, "%r is not a roll, a step, or a cube action" % t[:40])
    return out


def parse(text):
    """Read a .mat file: (length, [name0, name1], games, comments), where each game is
    {"number", "line", "score": [a, b], "entries": [(line_no, column, kind, data), ...]}.
    Raises MatError naming the line for anything unreadable."""
    length = None
    names = None
    games = []
    comments = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        s = line.strip()
        if not s:
            continue
        if s.startswith(";"):
            comments.append(s)
            continue
        m = re.match(r"^(\d+) point match$", s)
        if m and length is None and not games:
            length = _number(m.group(1), no, "the match length")
            if length:
                try:
                    Rules(MATCH, length)
                except ValueError as e:
                    raise MatError(no, str(e))
            continue
        m = re.match(r"^Game (\d+)$", s)
        if m:
            if length is None:
                raise MatError(no, "a game before the ' N point match' header")
            games.append({"number": _number(m.group(1), no, "the game number"), "line": no,
                          "score": None, "entries": []})
            continue
        if not games:
            raise MatError(no, "expected ' N point match' or ' Game 1', found %r" % s[:40])
        g = games[-1]
        if g["score"] is None:
            found = _names(line)
            if not found:
                raise MatError(no, "expected the players' names and scores ('A : 0   B : 0')")
            pair = [found[0], found[2]]
            if names is None:
                names = pair
            elif pair != names:
                raise MatError(no, "the players' names changed from %s to %s"
                               % ([n[:40] for n in names], [n[:40] for n in pair]))
            g["score"] = [_number(found[1], no, "a score"), _number(found[3], no, "a score")]
            continue
        m = _NUMBERED.match(line)
        body_start = 0
        if m:
            body_start = len(line) - len(m.group(2))
        body = " " * body_start + (m.group(2) if m else line[body_start:])
        for col, kind, data in _entries(line, no, body):
            g["entries"].append((no, col, kind, data))
    if length is None:
        raise MatError(1, "no ' N point match' header: not a .mat file")
    if not games:
        raise MatError(1, "the file has no games")
    return length, names or ["player 0", "player 1"], games, comments


def replay_mat(text, jacoby=False):
    """Replay a .mat file with the rules. Returns the Replay; raises MatError for an unreadable
    file and RecordError (with .line, .game, .move) for the first violation."""
    try:
        return _replay(text, jacoby)
    except RecordError as e:
        # the reason may quote the file's own text (a name, a play): shown terminal-safe
        e.reason = for_terminal(e.reason, REASON_MAX)
        e.args = (e.reason,)
        raise


def _replay(text, jacoby):
    length, names, games, comments = parse(text)
    if length == 0:
        rules = Rules(MONEY, 0, jacoby=jacoby)
    else:
        rules = Rules(MATCH, length)
    r = Replay(rules, names)
    m = r.match
    for g in games:
        r.event(["GAME", str(g["number"])], g["line"])
        if g["score"] != m.score:
            raise RecordError("the file's score before this game is %d-%d; the replay's is %d-%d"
                              % (g["score"][0], g["score"][1], m.score[0], m.score[1]),
                              g["line"], m.game, 1)
        entries = g["entries"]
        player = None
        for line_no, col, kind, data in entries:
            if kind == "wins":
                winner = 0 if col < 30 else 1
                _check_wins(r, winner, data, line_no)
                continue
            if player is None:
                player = 1 if col >= 30 else 0
            else:
                player = 1 - player
            if kind == "move":
                d1, d2, steps = data
                if m.phase == "opening":
                    if d1 == d2:
                        raise RecordError("the opening roll cannot be a double (%d%d)" % (d1, d2),
                                          line_no, m.game, 1)
                    hi, lo = max(d1, d2), min(d1, d2)
                    r.event(["OPEN"] + ([str(hi), str(lo)] if player == 0 else [str(lo), str(hi)]),
                            line_no)
                else:
                    r.event(["ROLL", str(player), str(d1), str(d2)], line_no)
                r.event(["MOVE", str(player)] + steps, line_no)
            elif kind == "double":
                r.event(["DOUBLE", str(player), str(data)], line_no)
            elif kind == "take":
                r.event(["TAKE", str(player)], line_no)
            elif kind == "drop":
                r.event(["DROP", str(player)], line_no)
        if m.phase not in ("game_over", "match_over"):
            raise RecordError("the game ends without a result", entries[-1][0] if entries else
                              g["line"], m.game, r.move_no())
    return r


def _check_wins(r, winner, points, line_no):
    m = r.match
    if m.phase not in ("game_over", "match_over"):
        # The game is not over on the board: the other player resigned.
        if points % m.cube or not 1 <= points // m.cube <= 3:
            raise RecordError("a resignation must be worth 1, 2 or 3 times the cube (%d), not %d"
                              % (m.cube, points), line_no, m.game, r.move_no())
        r.event(["RESIGN", str(1 - winner), str(points // m.cube)], line_no)
        return
    w, got, how = m.result
    raw = got
    if how in KINDS[1:]:
        raw = m.cube * KINDS.index(how)      # gnubg writes the points before Jacoby
    if w != winner or points not in (got, raw):
        raise RecordError("the file says %s wins %d point(s); the rules give %s %d"
                          % (r.players[winner], points, r.players[w], got), line_no, m.game,
                          r.move_no())


# ---- writing ---------------------------------------------------------------------------------

def mat_steps(before, moves):
    """Steps as .mat writes them: each one on its own, 25 for the bar, 0 for off, '*' where a
    step hits, a space after each but the fourth (as gnubg's FormatMovePlain does)."""
    them = list(before.raw[26:])
    out = ""
    for k, (s, t) in enumerate(moves):
        hit = 0 < t and them[25 - t] == 1
        if hit:
            them[25 - t] = 0
        out += "%d/%d%s%s" % (s, t, "*" if hit else "", " " if k < 3 else "")
    return out


def _move_steps(before, play, text):
    words = text.split()
    if words and all(_STEP.match(w) and "(" not in w for w in words):
        steps = []
        for w in words:
            a, b = w.rstrip("*").lower().split("/")
            steps.append((25 if a == "bar" else 0 if a == "off" else int(a),
                          25 if b == "bar" else 0 if b == "off" else int(b)))
        if len(steps) == len(play.moves):
            return steps
    return list(play.moves) if play else []


def mat_name(name, player):
    """A player's name as a .mat can hold it: one word on one line. gnubg reads "name : score",
    and a colon in a name (bot:6) crashes its .mat import, so colons are dropped; spaces, line
    breaks and every other character that is not plainly printable become '_'; at most
    NAME_MAX characters; an empty name becomes player_0 / player_1."""
    name = "".join(ch if ch.isprintable() and not ch.isspace() else "_"
                   for ch in str(name)[:NAME_MAX] if ch != ":")
    return name or "player_%d" % player


def write(r, date=None, names=None):
    """The replayed match `r` (a Replay) as gnubg's .mat text; NAMES (as mat_name gives them)
    replace the players' own."""
    names = names or [mat_name(n, i) for i, n in enumerate(r.players)]
    out = []
    if date:
        out.append('; [EventDate "%s"]\n' % date)
    out.append("\n %d point match\n\n" % r.match.rules.length)
    for gi, history in enumerate(r.history):
        score = r.scores_before[gi]
        out.append(" Game %d\n" % (gi + 1))
        left = "%s : %d" % (names[0], score[0])
        # gnubg's layout; a long first name still leaves a space before the second one
        out.append(" %-31s%s : %d\n" % (left if len(left) < 31 else left + " ", names[1],
                                        score[1]))
        i = 0
        cube = 1
        for player, kind, data in history:
            if kind == "open":
                continue
            if kind == "move":
                dice, before, play, text = data
                sz = "%d%d: " % (max(dice), min(dice)) + (mat_steps(before, _move_steps(before, play, text))
                                        if play else "")
            elif kind in ("double", "beaver"):
                cube = data
                sz = " Doubles => %d" % cube
            elif kind == "take":
                sz = " Takes"
            elif kind == "drop":
                pts = cube // 2
                sz = " Drops%sWins %d point%s" % ("\n      " if i & 1 else " " * 23, pts,
                                                   "" if pts == 1 else "s")
            elif kind == "resign":
                pts = data * cube
                if player == 1:
                    sz = "%s      Wins %d point%s\n" % ("\n" if i & 1 else "", pts,
                                                       "s" if pts > 1 else "")
                else:
                    sz = "%sWins %d point%s\n" % (" " if i & 1 else " " * 34, pts,
                                                 "s" if pts > 1 else "")
            else:
                continue
            if i == 0 and kind == "move" and player == 1:
                out.append("  1)" + " " * 29)
                i = 1
            if i & 1 or kind == "resign":
                out.append(sz + "\n")
            else:
                out.append("%3d) %-27s " % ((i >> 1) + 1, sz))
            if kind == "drop":
                out.append("\n")
                if not i & 1:
                    out.append("\n")
            if kind == "move":
                after = before.apply(play) if play else before.swapped()
                res = after.result()
                if res:
                    pts = res[1] * cube
                    out.append("%sWins %d point%s\n\n" % (" " * 34 if i & 1 else "\n      ", pts,
                                                         "s" if pts > 1 else ""))
            i += 1
    return "".join(out)
