"""GNU Backgammon's native format, SGF (FF[4], GM[6]): a loaded record or .mat written as one
game tree per game, player 0 as White, with the match length, the score before each game, the
rules (Crawford, Jacoby, no cube) and each game's result. Points are letters a-x seen from the
player who moves (y the bar, z off)."""

from bgcore import __version__
from bgcore.match import MATCH, MONEY, NOCUBE


def _sgf_point(player, p):
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    return chr(ord("a") + (p - 1 if player == 0 else 24 - p))


def _esc(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def write(ld):
    """The SGF text of a loaded game file (bgboard.games.load): one game tree per game."""
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
        head = "(;FF[4]GM[6]CA[UTF-8]AP[bgboard:%s]MI[length:%d][game:%d][ws:%d][bs:%d]" \
               "PW[%s]PB[%s]" % (__version__, rules.length, gi, before[0], before[1],
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
