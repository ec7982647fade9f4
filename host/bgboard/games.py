"""Game files on the laptop: load a native record, a .mat, an .sgf or bgboard's JSON into a
verified replay, say what it holds (`verify`), hand it to a format's writer (`export`: matfile,
sgffile, jsonfile), and write new records from bot-against-bot play (`bgboard selfplay`)."""

from bgcore.match import KINDS, MATCH, MONEY, NOCUBE, GAME_OVER, MATCH_OVER, TURN, MOVE, OPENING
from bgcore.record import RecordError, Writer, replay
from bgboard import jsonfile, matfile, sgffile


class Loaded:
    """A replayed file: the Replay, its header, and a note if its last line was torn."""

    def __init__(self, path, rep, info, torn, kind):
        self.path = path
        self.replay = rep
        self.info = info
        self.torn = torn
        self.kind = kind


class FileError(Exception):
    """What is wrong with a file, for the user: names the file, the line and the reason; the
    `where` text is "game G move M: reason" for rule violations."""

    def __init__(self, path, message, where=None):
        Exception.__init__(self, "%s: %s" % (path, message))
        self.where = where or message


# formats told apart by how the file starts (a native record: "BGR"; anything else: .mat)
_READERS = (("{", "json", jsonfile, "not bgboard's JSON"),
            ("(;", "sgf", sgffile, "not a backgammon SGF file"))


def load(path, jacoby=False):
    path = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FileError(path, "cannot read: %s" % e.strerror)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError(path, "not a text file (it is not UTF-8)")
    for start, kind, module, not_one in _READERS:
        if text.lstrip().startswith(start):
            try:
                rep, info = module.read(text)
            except (jsonfile.JsonError, sgffile.SgfError) as e:
                raise FileError(path, "%s: %s" % (not_one, e))
            except RecordError as e:
                raise FileError(path, e.where(), e.where())
            return Loaded(path, rep, info, None, kind)
    if text.lstrip().startswith("BGR"):
        try:
            rep, info, torn = replay(text)
        except RecordError as e:
            raise FileError(path, "line %d: %s" % (e.line, e.where()), e.where())
        return Loaded(path, rep, info, torn, "record")
    try:
        rep = matfile.replay_mat(text, jacoby=jacoby)
    except matfile.MatError as e:
        raise FileError(path, str(e), "line %d: %s" % (e.line, e.reason))
    except RecordError as e:
        raise FileError(path, "line %d: %s" % (e.line, e.where()), e.where())
    return Loaded(path, rep, {"p0": rep.players[0], "p1": rep.players[1]}, None, "mat")


def summary(ld):
    r = ld.replay
    m = r.match
    rules = m.rules
    what = {MATCH: "%d-point match" % rules.length, MONEY: "money session",
            NOCUBE: "games without cube"}[rules.mode]
    state = {MATCH_OVER: "match over", GAME_OVER: "finished"}.get(m.phase, "game %d in progress" % m.game)
    return "%s vs %s, %s: %d game(s), score %d-%d (%s)" % (
        r.players[0], r.players[1], what, m.game, m.score[0], m.score[1], state)


def verdict(ld, error=None):
    """The `verify --json` object."""
    r = ld.replay if ld else None
    m = r.match if r else None
    return {
        "ok": error is None,
        "players": list(r.players) if r else None,
        "score": list(m.score) if m else None,
        "games": m.game if m else 0,
        "position": m.pos.id() if m else None,
        "error": error,
    }


# ---- export: each format is a module of its own --------------------------------------------------

class ExportRefused(Exception):
    """A game the chosen format cannot carry; the message says why and what to use instead."""


def distinct_players(names):
    """The two players' names for a file GNU Backgammon reads: the second gets a "b" when both
    are the same (a bot against itself: bot6 and bot6b), so that the winner can be told apart."""
    a, b = names
    return [a, b + "b" if b == a else b]


def mat_refusal(ld):
    """Why a .mat cannot carry this game file (None when it can): the format has no beaver and
    no automatic double, so GNU Backgammon would score such a game differently."""
    if any(kind == "beaver" for game in ld.replay.history for _, kind, _ in game):
        return "a .mat cannot carry a beaver"
    if any(c > 1 for c in start_cubes(ld.replay)):
        return "a .mat cannot carry an automatic double"
    return None


def start_cubes(rep):
    """The cube's value as each game of a Replay began to be played (above 1 after automatic
    doubles on tied opening rolls), read from its first cube action or else from its result."""
    rules = rep.match.rules
    out = []
    for gi, history in enumerate(rep.history):
        cube = 1
        actions = [data for _, kind, data in history if kind in ("double", "beaver")]
        result = rep.results[gi] if gi < len(rep.results) else None
        if actions:
            cube = actions[0] // 2
        elif result:
            _, points, how = result
            if how == "resign":
                times = [data for _, kind, data in history if kind == "resign"][-1]
            elif rules.mode == MONEY and rules.jacoby:
                times = 1
            else:
                times = KINDS.index(how)
            cube = max(1, points // times)
        out.append(cube)
    return out


def gnubg_setting(ld):
    """The GNU Backgammon setting a money or no-cube .mat must be imported with (`import mat`
    uses gnubg's own Jacoby setting, on by default, as the format cannot say), or None."""
    rules = ld.replay.match.rules
    if rules.mode == MATCH:
        return None
    return "set jacoby %s" % ("on" if rules.jacoby else "off")


def to_mat(ld):
    """The .mat text of a loaded game file, dated by the record's start; ExportRefused when the
    format cannot carry the game."""
    why = mat_refusal(ld)
    if why:
        raise ExportRefused("%s; export it as .sgf (--format sgf), which GNU Backgammon loads "
                            "with the board's score" % why)
    start = ld.info.get("start", "")
    date = start[:10].replace("-", ".") if len(start) >= 10 and start[4] == "-" else None
    names = distinct_players([matfile.mat_name(n, i) for i, n in enumerate(ld.replay.players)])
    return matfile.write(ld.replay, date, names)


def to_sgf(ld):
    """The .sgf text of a loaded game file, with the rules it was played under and the cube
    each game started with."""
    return sgffile.write(ld, distinct_players(list(ld.replay.players)), start_cubes(ld.replay))


def to_json(ld):
    """bgboard's JSON of a loaded game file, with the cube each game started with."""
    return jsonfile.write(ld, start_cubes(ld.replay))


EXPORTERS = {"mat": to_mat, "sgf": to_sgf, "json": to_json}


# ---- bot-against-bot records -----------------------------------------------------------------

def play_record(rules, rng, players=("bot", "bot"), start="", level=6, games=1, fw="selfplay"):
    """Play one match (or `games` games in one session for a non-match) between two bots of
    `level` (seeded from `rng`, which also rolls the dice) and return the record's text."""
    from bgcore.bot import Bot
    bots = (Bot(level, rng.randrange(1 << 30)), Bot(level, rng.randrange(1 << 30)))
    w = Writer()
    out = [w.header(rules, players, board="host", fw=fw, start=start)]
    from bgcore.record import Replay
    rp = Replay(rules, players)
    m = rp.match

    def emit(*words):
        payload = " ".join(str(x) for x in words)
        rp.event(payload.split())
        out.append(w.line(payload))

    played = 0
    while True:
        emit("GAME", m.game + 1)
        while m.phase == OPENING:
            emit("OPEN", rng.randint(1, 6), rng.randint(1, 6))
        while m.phase not in (GAME_OVER, MATCH_OVER):
            if m.phase == TURN:
                p = m.turn
                if m.cube_available(p) and bots[p].wants_double(m):
                    emit("DOUBLE", p, m.cube * 2)
                    if bots[1 - p].takes(m):
                        emit("TAKE", 1 - p)
                    else:
                        emit("DROP", 1 - p)
                        break
                emit("ROLL", p, rng.randint(1, 6), rng.randint(1, 6))
            if m.phase == MOVE:
                play = bots[m.turn].choose(m.pos, *m.dice)
                steps = " ".join("%d/%d" % s for s in play.moves) if play else ""
                emit("MOVE", m.turn, steps)
        w_, pts, how = m.result
        emit("END", w_, pts, how)
        played += 1
        if m.phase == MATCH_OVER or (rules.mode != MATCH and played >= games):
            break
    if m.phase == MATCH_OVER:
        emit("MATCHEND", m.result[0], m.score[0], m.score[1])
    return "".join(out)
