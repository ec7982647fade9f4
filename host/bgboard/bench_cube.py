"""The cube part of `bgboard bench bot`: a bot level plays itself in money sessions and in 5- and
7-point matches, the games are exported to .mat, and Debian's GNU Backgammon (`gnubg -q -t`,
HOME in a temporary directory) analyses them at 0-ply. Prints gnubg's own figures for the bot:
checker-play and cube error (mEMG per move, totals), cube errors per game and how many cube
decisions gnubg marks "very bad". Then the same records' cube decisions judged offline (`offline`):
each by gnubg-nn 0-ply's chances through bgcore.cube's model, for the bot as it decides and for
its network's chances alone, so that two networks can be compared on the same positions. A
benchmark: it prints figures and asserts nothing."""

import json
import os
import random
import subprocess
import tempfile

from bgcore.match import Rules, MATCH, MONEY
from bgboard import paths
from bgboard.games import play_record

# gnubg's script: analyse each .mat at 0-ply, write per-file statistics and marked cube
# decisions as JSON (a script's uncaught exception would still exit 0: exit 1 by hand)
_ANALYSE = r'''
import gnubg, json, sys
try:
    for cmd in ("set threads 1", "set analysis chequerplay evaluation plies 0",
                "set analysis cubedecision evaluation plies 0", "set analysis luck off",
                "set jacoby off"):
        gnubg.command(cmd)
    out = []
    for path in PATHS:
        gnubg.command("import mat %s" % path)
        gnubg.command("analyse match")
        m = gnubg.match(analysis=1, statistics=1)
        marks = []
        for g in m["games"]:
            score = [g["info"]["score-X"], g["info"]["score-O"]]
            last, board, cube = {}, None, 1
            for a in g["game"]:
                an = a.get("analysis") or {}
                if a["action"] == "double":
                    last, board = an, a.get("board")
                skill = an.get("cube-skill") if a["action"] == "move" else an.get("skill")
                if skill:
                    answer = a["action"] in ("take", "drop")
                    src = last if answer else an
                    marks.append([a["action"], skill, src.get("probs"),
                                  board if answer else a.get("board"), a.get("player"), score,
                                  cube, src.get("nd-cubeful-eq"), src.get("dt-cubeful-eq")])
                if a["action"] == "take":
                    cube *= 2
        out.append({"file": path, "stats": m["stats"], "games": len(m["games"]),
                    "marks": marks})
    with open(RESULT, "w") as f:
        json.dump(out, f, default=list)
except Exception:
    import traceback
    traceback.print_exc()
    sys.exit(1)
'''


def gnubg_binary():
    """Debian's gnubg (bgboard.paths.tool finds it), or None."""
    try:
        return paths.tool("gnubg")
    except paths.ToolMissing:
        return None


def play_session(rules, games, seed, level=6, players=("BotA", "BotB")):
    """A record of bot-against-bot play: a whole match, or `games` money games in one session."""
    return play_record(rules, random.Random(seed), players, start="2026-01-01T00:00:00",
                       level=level, games=games, fw="bench")


def analyse(mat_paths, tmp):
    """gnubg's 0-ply analysis of each .mat: a list of dicts (stats, games, marked cube actions)."""
    gnubg = gnubg_binary()
    script = os.path.join(tmp, "analyse.py")
    result = os.path.join(tmp, "analysis.json")
    with open(script, "w") as f:
        # gnubg -p passes no arguments to a script: the files are written into it
        f.write("PATHS = %r\nRESULT = %r\n" % (list(mat_paths), result) + _ANALYSE)
    home = os.path.join(tmp, "home")
    os.makedirs(home, exist_ok=True)
    r = subprocess.run([gnubg, "-q", "-t", "-p", script],
                       capture_output=True, text=True, env=dict(os.environ, HOME=home),
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0 or not os.path.exists(result):
        raise RuntimeError("gnubg's analysis failed: %s" % (r.stderr.strip().splitlines()
                                                            or ["no output"])[-1])
    with open(result) as f:
        return json.load(f)


def _opponent_on_bar(pid):
    # gnubg's Position ID of a cube decision: has the side not on roll a checker on the bar?
    from bgcore import Position
    try:
        return 1 if Position.from_id(pid).raw[51] else 0
    except (ValueError, TypeError):
        return 0


def _decision_points(text):
    """{(kind, Position ID): Match} of a bot record: "turn" before each roll or double of the
    side on roll, "offer" once a double stands (the first time each position is met)."""
    import copy
    from bgcore.match import TURN
    from bgcore.record import Replay, checked_lines, parse_header
    out = {}
    rp = None
    for _no, payload in checked_lines(text):
        words = payload.split()
        if rp is None:
            rules, info = parse_header(payload)
            rp = Replay(rules, (info.get("p0", "A"), info.get("p1", "B")), history=False)
            continue
        m = rp.match
        if words[0] in ("ROLL", "DOUBLE") and m.phase == TURN:
            out.setdefault(("turn", m.pos.id()), copy.deepcopy(m))
        rp.event(words)
        if words[0] == "DOUBLE":
            out.setdefault(("offer", m.pos.id()), copy.deepcopy(m))
    return out


def model_decides(kind, m, pr):
    """The bot's cube model's decision (bgcore.cube) at decision point `m` (kind "turn": double?
    "offer": take?) given chances `pr` of the side on roll."""
    from bgcore import cube
    x = cube.efficiency(m.pos)
    taker = [cube.P - pr[0], pr[3], pr[4], pr[1], pr[2]]
    if m.rules.mode == "match":
        a, b = cube._aways(m, m.turn)
        post = m.crawford_done
        if kind == "turn":
            return cube.match_double(pr, a, b, m.cube, post, m.owner == -1, x)
        return cube.match_take(taker, b, a, m.cube, post, x)
    if kind == "turn":
        return cube.money_double(pr, m.owner == -1, m.rules.jacoby, x)
    return cube.money_take(taker, x)


def very_bad_lines(text, marks):
    """A line for each cube decision gnubg marks "very bad" in one record (`marks` from
    analyse): the decision, score and cube, the Position ID, gnubg's chances of the side on roll
    beside the bot's (the network's, and one roll ahead), the score as the side on roll's points
    away first, and whether the bot's cube model decides right given gnubg's own chances ("model
    right": the error is the chances')."""
    from bgcore import cube, lookahead
    from bgcore.bot import Bot
    bot = Bot(6)
    points = None
    out = []
    for action, skill, probs, pid, *_rest in marks:
        if skill != "very bad" or not probs:
            continue
        if points is None:
            points = _decision_points(text)
        kind = "offer" if action in ("take", "drop") else "turn"
        m = points.get((kind, pid))
        if m is None:
            continue
        g = [int(round(v * cube.P)) for v in probs]
        right = model_decides(kind, m, g)
        if m.rules.mode == "match":
            a, b = cube._aways(m, m.turn)
            where = "%d-%d away%s" % (a, b, ", post-Crawford" if m.crawford_done else "")
        else:
            where = "money"
        did = action in ("double", "take")
        ahead = lookahead.ahead(bot, m.pos)

        def pc(pr):
            return "/".join("%.1f" % (100.0 * v / cube.P) for v in pr)

        out.append("%-6s %s, cube %d%s, %s: gnubg %s, bot %s, one roll ahead %s; model given "
                   "gnubg's chances %s%s" % (action, where, m.cube,
                                             " centred" if m.owner == -1 else " owned", pid,
                                             pc(g), pc(bot.chances(m.pos)), pc(ahead),
                                             "right" if right != did else "wrong",
                                             ", opponent on the bar" if m.pos.raw[51] else ""))
    return out


VERY_BAD = 0.16         # gnubg's thresholds for a decision's error, in EMG
BAD = 0.08


def cube_equities(m, pr):
    """(no double, double/take, double/pass, one EMG) of the side on roll in `m` (a
    bgcore.match.Match at its turn or with a double standing) given its chances `pr`, by
    bgcore.cube's model, in its units (money: 1/F of a point a cube of 1; match: 1/F of the match,
    one EMG half the swing of winning or losing the cube's points); None where doubling cannot
    matter (the side already wins the match with the cube as it is)."""
    from bgcore import cube
    x = cube.efficiency(m.pos)
    centred = m.owner == -1
    if m.rules.mode == "match":
        a, b = cube._aways(m, m.turn)
        c, post = m.cube, m.crawford_done
        if a <= c:
            return None
        mc = cube.MatchCube(pr, a, b, c, post, x)
        nd = mc.value(mc.p, c, cube.CENTRED if centred else cube.MINE)
        dt = mc.value(mc.p, 2 * c, cube.THEIRS)
        dp = cube.mwc(a - c, b, post)
        return nd, dt, dp, (dp - cube.mwc(a, b - c, post)) / 2
    nd = cube._money(pr, 0 if centred else 1, not (m.rules.jacoby and centred), x)
    return nd, 2 * cube._money(pr, -1, True, x), cube.F, cube.F


def decision_error(kind, eq, choice):
    """What a cube decision loses, in EMG, by equities `eq` (cube_equities): kind "turn" (choice:
    double) or "offer" (choice: take)."""
    nd, dt, dp, emg = eq
    if kind == "turn":
        return (max(nd, min(dt, dp)) - (min(dt, dp) if choice else nd)) / emg
    return ((dt if choice else dp) - min(dt, dp)) / emg


def _as_it_plays(bot, kind, m, gnubg_pr):
    return bot.wants_double(m) if kind == "turn" else bot.takes(m)


def _network_alone(bot, kind, m, gnubg_pr):
    return model_decides(kind, m, bot.chances(m.pos))


DECIDERS = (("as it plays", _as_it_plays), ("the network alone", _network_alone))


def offline(texts, level=6, deciders=DECIDERS):
    """The cube decisions of bot records `texts` judged by gnubg-nn 0-ply's chances through
    bgcore.cube's model (given gnubg's chances it gives gnubg's cubeful equities), a decision
    being each turn at which the side on roll may double (those where neither gnubg nor the
    network gives it half the wins are left out: no double there is close) and each double's
    answer. For each (name, decide(bot, kind, match, gnubg's chances) -> double or take) of
    `deciders`: {(mode, kind): [decisions, very bad, bad or worse, error in EMG]}."""
    import gnubg_nn
    from bgcore import cube
    from bgcore.bot import Bot
    bot = Bot(level)
    out = {name: {} for name, _d in deciders}
    for text in texts:
        for (kind, _pid), m in _decision_points(text).items():
            if kind == "turn" and not m.cube_available(m.turn):
                continue
            g = [int(round(v * cube.P)) for v in gnubg_nn.probabilities(m.pos.board(), 0)]
            eq = cube_equities(m, g)
            if eq is None or kind == "turn" and max(g[0], bot.chances(m.pos)[0]) < cube.P // 2:
                continue
            for name, decide in deciders:
                e = decision_error(kind, eq, decide(bot, kind, m, g))
                t = out[name].setdefault((m.rules.mode, kind), [0, 0, 0, 0.0])
                t[0] += 1
                t[1] += e >= VERY_BAD
                t[2] += e >= BAD
                t[3] += e
    return out


def offline_lines(judged):
    """offline's figures, a line a decider."""
    out = []
    for name, kinds in judged.items():
        parts = []
        for (mode, kind), (n, vbad, bad, err) in sorted(kinds.items()):
            parts.append("%s %s %d (%d very bad, %d bad+, %.2f EMG)"
                         % (mode, "doubles" if kind == "turn" else "answers", n, vbad, bad, err))
        out.append("  %-18s %s" % (name, "; ".join(parts)))
    return out


class Totals:
    """gnubg's figures summed over both players and every file of one kind of play."""

    def __init__(self):
        self.games = 0
        self.moves = 0            # unforced checker plays
        self.checker = 0.0        # normalised error (EMG), summed
        self.cube_decisions = 0   # close or actual cube decisions
        self.cube = 0.0
        self.cube_errors = 0      # cube decisions gnubg marks doubtful, bad or very bad
        self.very_bad = 0
        self.very_bad_bar = 0     # of those, in a position whose opponent is on the bar (danced)
        self.doubles = self.takes = self.drops = 0

    def add(self, rec):
        self.games += rec["games"]
        for side in rec["stats"].values():
            mv, cb = side["moves"], side["cube"]
            self.moves += mv["unforced-moves"]
            self.checker += mv["error-skill"]
            self.cube_decisions += cb["close-cube"]
            # the cube's "error-skill" is per close decision: add up the kinds of error
            self.cube += sum(cb["err-%s-skill" % k] for k in (
                "missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
                "wrong-double-above-tg", "wrong-take", "wrong-drop"))
            self.doubles += cb["n-doubles"]
            self.takes += cb["n-takes"]
            self.drops += cb["n-drops"]
        for mark in rec["marks"]:
            skill = mark[1]
            if skill in ("doubtful", "bad", "very bad"):
                self.cube_errors += 1
                if skill == "very bad":
                    self.very_bad += 1
                    self.very_bad_bar += _opponent_on_bar(mark[3])

    def line(self, label):
        per = 1000.0 / self.moves if self.moves else 0.0
        return ("  %-18s %3d games: checker %.1f mEMG per move (%.2f EMG in all); cube %.2f EMG "
                "in all (%.2f mEMG per move, %d%% of checker); %.2f cube errors per game, "
                "%d very bad (%d with the opponent on the bar); %d doubles, %d takes, %d drops"
                % (label, self.games, self.checker * per, self.checker, self.cube, self.cube * per,
                   round(100 * self.cube / self.checker) if self.checker else 0,
                   self.cube_errors / max(1, self.games), self.very_bad, self.very_bad_bar,
                   self.doubles, self.takes, self.drops))


def run(level=6, matches=20, money_games=50, seed=1, show_marks=False):
    """Plays and analyses; prints one line per kind of play (money, 5-point, 7-point), and with
    `show_marks` the decisions gnubg marks "very bad" after it (very_bad_lines)."""
    if not gnubg_binary():
        print("cube analysis skipped: Debian's gnubg is not installed (apt-get install gnubg)")
        return None
    from bgboard.games import load, to_mat
    kinds = []
    if money_games:
        kinds.append(("money", Rules(MONEY), [(money_games, seed)]))
    for length in (5, 7):
        if matches:
            kinds.append(("%d-point matches" % length, Rules(MATCH, length),
                          [(None, seed * 1000 + length * 100 + i) for i in range(matches)]))
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        texts = []
        for label, rules, jobs in kinds:
            for j, (games, s) in enumerate(jobs):
                text = play_session(rules, games, s, level)
                rec = os.path.join(tmp, "%s-%d.bgr" % (label.split()[0], j))
                with open(rec, "w") as f:
                    f.write(text)
                mat = rec[:-4] + ".mat"
                with open(mat, "w") as f:
                    f.write(to_mat(load(rec)))
                files.append((label, mat))
                texts.append(text)
        results = analyse([m for _, m in files], tmp)
    print("cube play of level %d against itself, analysed by GNU Backgammon at 0-ply (both "
          "sides counted):" % level)
    for label, _rules, _jobs in kinds:
        t = Totals()
        bad = []
        for (lab, _m), rec, text in zip(files, results, texts):
            if lab == label:
                t.add(rec)
                if show_marks:
                    bad += very_bad_lines(text, rec["marks"])
        out[label] = t
        print(t.line(label), flush=True)
        for line in bad:
            print("    very bad:", line)
    print("the same records' cube decisions judged offline by gnubg-nn 0-ply's chances through the "
          "bot's cube model (both sides; very bad: %.2f EMG or more):" % VERY_BAD)
    for line in offline_lines(offline(texts, level)):
        print(line, flush=True)
    return out
