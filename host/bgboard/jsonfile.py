"""bgboard's JSON form of a game file (`bgboard export --format json`): {"format":
"bgboard-json", "version": 1, players, rules, the record's header, score, state, the final
Position ID and Match ID, and each game with its score before, Crawford flag, the cube it
started with (after automatic doubles), result and
actions (dice, the play in gnubg notation and as (from, to) moves, the position before it, cube
actions)}. Read back (`bgboard verify FILE.json`), every action is replayed with the rules and
the file's results, score and final position must be what the replay gives."""

import json

from bgcore.match import TURN, Rules
from bgcore.record import RecordError, Replay


class JsonError(Exception):
    """The file is not bgboard's JSON (or lacks a part of it); the message says what."""


def write(ld, cubes=None):
    """The JSON text of a loaded game file (bgboard.games.load); CUBES: the cube each game
    started with (above 1 after automatic doubles), written as "cube_start"."""
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
                      "cube_start": cubes[gi] if cubes else 1,
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


_EVENTS = {"double": "DOUBLE", "beaver": "BEAVER", "take": "TAKE", "drop": "DROP",
           "resign": "RESIGN"}


def read(text):
    """Replay a bgboard-json text: (Replay, header). Raises JsonError for a file that is not
    one, RecordError (game G move M: reason) for the first action the rules refuse or a result
    the replay does not give."""
    try:
        d = json.loads(text)
        if d.get("format") != "bgboard-json" or d.get("version") != 1:
            raise JsonError("not a bgboard-json file of version 1")
        ru = d["rules"]
        rules = Rules(ru["mode"], ru["length"], ru["jacoby"], ru["beavers"], ru["auto_doubles"])
        r = Replay(rules, d["players"])
        m = r.match
        for g in d["games"]:
            r.event(["GAME", str(g["number"])])
            cube = g.get("cube_start", 1)
            if cube not in (1, 2, 4, 8, 16, 32, 64):
                raise JsonError("game %s: cube_start %r is not a cube value" % (g["number"], cube))
            for _ in range(cube.bit_length() - 1):
                r.event(["OPEN", "1", "1"])         # an automatic double (a tied opening roll)
            for a in g["actions"]:
                p, kind = str(a["player"]), a["type"]
                if kind == "open":
                    r.event(["OPEN"] + [str(x) for x in a["dice"]])
                elif kind == "move":
                    if m.phase == TURN:
                        r.event(["ROLL", p] + [str(x) for x in a["dice"]])
                    r.event(["MOVE", p] + ["%d/%d" % tuple(st) for st in a["moves"]])
                elif kind in _EVENTS:
                    arg = a.get("cube") if kind in ("double", "beaver") else a.get("kind")
                    r.event([_EVENTS[kind], p] + ([str(arg)] if arg is not None else []))
                else:
                    raise JsonError("game %s: an action of unknown type %r" % (g["number"], kind))
            res = g["result"]
            got = r.results[-1] if len(r.results) == m.game else None
            if res is not None and (not got or [res["winner"], res["points"], res["how"]]
                                    != list(got)):
                raise RecordError("the file says %s; the rules give %s" % (
                    _result(res["winner"], res["points"], res["how"]),
                    _result(*got) if got else "no result yet"), 0, m.game, r.move_no())
        if (d["score"], d["position"], d["match_id"]) != (m.score, m.pos.id(), m.match_id()):
            raise RecordError("the file's final score %s, position %s and match %s differ from "
                              "the replay's %s, %s and %s" % (
                                  d["score"], d["position"], d["match_id"], m.score,
                                  m.pos.id(), m.match_id()), 0, m.game, r.move_no())
        return r, d["header"]
    except RecordError:
        raise
    except ValueError as e:                 # bad JSON, bad rules, or not a number
        raise JsonError(str(e))
    except (KeyError, TypeError) as e:
        raise JsonError("a part is missing or of the wrong kind (%s)" % e)


def _result(winner, points, how):
    return "player %s wins %s point(s) (%s)" % (winner, points, how)
