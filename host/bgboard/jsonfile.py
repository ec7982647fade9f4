"""bgboard's JSON form of a game file (`bgboard export --format json`): {"format":
"bgboard-json", "version": 1, players, rules, the record's header, score, state, the final
Position ID and Match ID, and each game with its score before, Crawford flag, result and
actions (dice, the play in gnubg notation and as (from, to) moves, the position before it, cube
actions)}."""

import json


def write(ld):
    """The JSON text of a loaded game file (bgboard.games.load)."""
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
