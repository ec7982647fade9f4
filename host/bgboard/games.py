"""Game files on the laptop: load a native record or a .mat into a verified replay, export it as
.mat, .sgf (GNU Backgammon's own format) or JSON, and write new records from bot-against-bot
play (`bgboard selfplay`)."""

import json

from bgcore.match import MATCH, MONEY, NOCUBE, GAME_OVER, MATCH_OVER, TURN, MOVE, OPENING
from bgcore.record import RecordError, Writer, replay
from bgboard import matfile


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


# ---- export ----------------------------------------------------------------------------------

def to_mat(ld):
    start = ld.info.get("start", "")
    date = start[:10].replace("-", ".") if len(start) >= 10 and start[4] == "-" else None
    return matfile.write(ld.replay, date)


def _sgf_point(player, p):
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    return chr(ord("a") + (p - 1 if player == 0 else 24 - p))


def _esc(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def to_sgf(ld):
    """GNU Backgammon's SGF: one game tree per game, player 0 as White."""
    r = ld.replay
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
        head = "(;FF[4]GM[6]CA[UTF-8]AP[bgboard:0.1.0]MI[length:%d][game:%d][ws:%d][bs:%d]" \
               "PW[%s]PB[%s]" % (rules.length, gi, before[0], before[1],
                                 _esc(r.players[0]), _esc(r.players[1]))
        if ru:
            head += "RU[%s]" % ":".join(ru)
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


def to_json(ld):
    r = ld.replay
    m = r.match
    games = []
    for gi, history in enumerate(r.history):
        actions = []
        for player, kind, data in history:
            a = {"player": player, "type": kind}
            if kind == "open":
                a["dice"] = list(data)
            elif kind == "move":
                dice, before, play, text = data
                a.update(dice=list(dice), play=str(play) if play else "",
                         moves=[list(x) for x in play.moves] if play else [],
                         position=before.id())
            elif kind in ("double", "beaver", "take", "drop"):
                a["cube"] = data
            elif kind == "resign":
                a["kind"] = data
            actions.append(a)
        res = r.results[gi] if gi < len(r.results) else None
        games.append({"number": gi + 1, "score_before": r.scores_before[gi],
                      "crawford": r.crawford_games[gi],
                      "result": None if not res else {"winner": res[0], "points": res[1],
                                                      "how": res[2]},
                      "actions": actions})
    rules = m.rules
    return json.dumps({
        "format": "bgboard-json", "version": 1,
        "players": r.players,
        "rules": {"mode": rules.mode, "length": rules.length, "jacoby": rules.jacoby,
                  "beavers": rules.beavers, "auto_doubles": rules.auto_doubles},
        "header": ld.info, "score": m.score, "state": m.phase,
        "position": m.pos.id(), "match_id": m.match_id(), "games": games,
    }, indent=1) + "\n"


EXPORTERS = {"mat": to_mat, "sgf": to_sgf, "json": to_json}


# ---- bot-against-bot records -----------------------------------------------------------------

def play_record(rules, rng, players=("bot", "bot"), start="", level=6):
    """Play one match (or one game for a non-match) between two bots of `level` (seeded from
    `rng`, which also rolls the dice) and return the record's text."""
    from bgcore.bot import Bot
    bots = (Bot(level, rng.randrange(1 << 30)), Bot(level, rng.randrange(1 << 30)))
    w = Writer()
    out = [w.header(rules, players, board="host", fw="selfplay", start=start)]
    from bgcore.record import Replay
    rp = Replay(rules, players)
    m = rp.match

    def emit(*words):
        payload = " ".join(str(x) for x in words)
        rp.event(payload.split())
        out.append(w.line(payload))

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
        if m.phase == MATCH_OVER or rules.mode != MATCH:
            break
    if m.phase == MATCH_OVER:
        emit("MATCHEND", m.result[0], m.score[0], m.score[1])
    return "".join(out)
