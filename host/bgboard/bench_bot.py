"""`bgboard bench bot`: how strong and how fast the bot is. Prints, per level, points per game
against pubeval over cubeless games with duplicate dice (each dice stream played twice, sides
swapped) with a 95% interval; the error rate of level 6 against gnubg-nn 0-ply on a fixed set of
positions from play; each level against the one below; and, on MicroPython's unix port, the time
per move and the smallest heap a whole game runs in; and GNU Backgammon's analysis of level 6's
checker and cube play against itself (bgboard.bench_cube). A benchmark: it prints figures, asserts
nothing. Needs the dev extra (gnubg-nn)."""

import math
import os
import random
import subprocess
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from bgcore import Position
from bgcore.bot import Bot, NAMES

from bgboard import build, paths, vboard

MP_GAME = paths.MP_SCRIPTS / "mp_bot_game.py"


# ---- players: Position (side on roll) and dice in, Position after (other side on roll) out ------
class BotPlayer:
    def __init__(self, level, seed):
        self.bot = Bot(level, seed)
        self.name = "level %d" % level

    def play(self, pos, d1, d2):
        return pos.apply(self.bot.choose(pos, d1, d2))


class PubevalPlayer:
    name = "pubeval"

    def play(self, pos, d1, d2):
        from bgboard import refplay
        return Position.from_board(refplay.pubeval_after(pos.board(), d1, d2))


class GnubgPlayer:
    name = "gnubg-nn 0-ply"

    def play(self, pos, d1, d2):
        from bgboard import refplay
        scored = refplay.gnubg_list(pos.board(), d1, d2)
        return Position.from_board(scored[0][0]) if scored else pos.swapped()


def game(players, seed):
    """One cubeless game, players[0] opening, dice from `seed`: points won by players[0]."""
    rng = random.Random(seed)
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    pos = Position.initial()
    side = 0
    while True:
        pos = players[side].play(pos, d1, d2)
        if pos.is_over():
            winner, kind = pos.result()     # seen from the side on roll, the loser
            return kind if side == 0 else -kind
        side = 1 - side
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def _duplicate(job):
    make_a, make_b, seeds = job
    a, b = make_a(), make_b()
    out = []
    for s in seeds:
        # the same dice stream twice, sides swapped: the average is one sample
        out.append((game((a, b), s) - game((b, a), s)) / 2.0)
    return out


def duplicate_match(make_a, make_b, pairs, seed, workers=2):
    """ppg of A against B and the half-width of its 95% interval, over `pairs` dice streams."""
    seeds = [seed * 1000003 + i for i in range(pairs)]
    chunks = [(make_a, make_b, seeds[i::workers]) for i in range(workers)]
    if workers > 1:
        with Pool(workers) as p:
            parts = p.map(_duplicate, chunks)
    else:
        parts = [_duplicate(chunks[0])]
    xs = [x for part in parts for x in part]
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


class _Maker:
    # picklable factories for the worker processes
    def __init__(self, kind, level=0, seed=0):
        self.kind, self.level, self.seed = kind, level, seed

    def __call__(self):
        if self.kind == "bot":
            return BotPlayer(self.level, self.seed)
        if self.kind == "pubeval":
            return PubevalPlayer()
        return GnubgPlayer()


def position_class(board):
    """'contact', 'race' (no more hitting) or 'bear-off' (a race with both sides home) of a
    gnubg-nn board [side not on roll, side on roll]."""
    back = [max([i + 1 for i in range(25) if side[i]] or [0]) for side in board]
    if back[0] + back[1] > 25:
        return "contact"
    return "bear-off" if max(back) <= 6 else "race"


CLASSES = ("contact", "race", "bear-off")


def error_rate(level, games, seed=999, by_class=None):
    """Mean equity loss per move (millipoints) of a bot level and of pubeval against gnubg-nn
    0-ply, on every roll with a choice in `games` games of gnubg/pubeval play. `by_class`, a
    dict, receives {class: [rolls, bot's loss, pubeval's loss]} (losses in points, summed)."""
    from bgboard import refplay
    bot = Bot(level, 1)
    n = 0
    ours = theirs = 0.0
    for board, d1, d2, scored in refplay.decisions(games, seed):
        eq = {(tuple(s[0][0]), tuple(s[0][1])): s[1] for s in scored}
        pos = Position.from_board(board)
        a = bot.choose(pos, d1, d2).after
        key = (tuple(a[1:26]), tuple(a[27:52]))
        loss = scored[0][1] - eq[key]
        pb = refplay.pubeval_after(board, d1, d2)
        ploss = scored[0][1] - eq[(tuple(pb[0]), tuple(pb[1]))]
        ours += loss
        theirs += ploss
        n += 1
        if by_class is not None:
            c = by_class.setdefault(position_class(board), [0, 0.0, 0.0])
            c[0] += 1
            c[1] += loss
            c[2] += ploss
    return n, 1000 * ours / n, 1000 * theirs / n


def micropython_figures(levels, games=5):
    """On the unix port, per level: (moves, median ms, worst ms, smallest heap in KB that plays
    the games, or None where not measured: only for the highest level)."""
    try:
        mp = paths.tool("micropython")
    except paths.ToolMissing:
        return {}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp)
        # as a virtual board gets it: the native loops in this port's machine code
        build.compile_lib(lib, package="bgcore", board_mpy=vboard.port_mpy())
        # the game script is compiled too, so the heap measures the bot, not the compiler
        build.compile_module(MP_GAME, MP_GAME.name, lib / "mp_bot_game.mpy")
        env = dict(os.environ, MICROPYPATH=str(lib))

        def play(level, kb):
            return subprocess.run([mp, "-X", "heapsize=%dk" % kb, "-m", "mp_bot_game", str(level),
                                   str(level), "1", str(games)],
                                  capture_output=True, text=True, env=env)

        for level in levels:
            res = play(level, 256)
            last = res.stdout.strip().splitlines()[-1].split() if res.returncode == 0 else None
            if not last or last[0] != "MOVES":
                continue
            heap = None
            if level == max(levels):
                lo, hi = 16, 256        # the smallest heap that still plays the games, to 2 KB
                while hi - lo > 2:
                    mid = (lo + hi) // 2
                    if play(level, mid).returncode == 0:
                        hi = mid
                    else:
                        lo = mid
                heap = hi
            out[level] = (int(last[1]), int(last[3]) / 1000, int(last[5]) / 1000, heap)
    return out


def run(pairs=5000, level_pairs=1000, error_games=300, ladder_pairs=1000, seed=1,
        levels=(1, 2, 3, 4, 5, 6), cube_matches=20, money_games=50, cube_marks=False):
    t0 = time.time()
    if cube_matches or money_games:
        from bgboard import bench_cube
        bench_cube.run(6, cube_matches, money_games, seed, show_marks=cube_marks)
    if not pairs:
        print("(%.0f s)" % (time.time() - t0))
        return
    print("bot benchmark, cubeless, duplicate dice (each dice stream played twice, sides "
          "swapped), 95%% intervals; against pubeval: level 6 over %d games, levels 1-5 over %d"
          % (2 * pairs, 2 * level_pairs))
    for level in levels:
        n = pairs if level == 6 else level_pairs
        if not n:                           # (--level-pairs 0: levels 1-5 skip pubeval)
            continue
        m, h = duplicate_match(_Maker("bot", level, seed), _Maker("pubeval"), n, seed)
        print("  level %d (%s): %+.3f ppg +- %.3f against pubeval (%d games)"
              % (level, NAMES[level], m, h, 2 * n), flush=True)
    if ladder_pairs:
        print("each level against the one below (%d duplicate pairs):" % ladder_pairs)
        for level in levels[1:]:
            m, h = duplicate_match(_Maker("bot", level, seed), _Maker("bot", level - 1, seed + 7),
                                   ladder_pairs, seed + level)
            print("  level %d vs level %d: %+.3f ppg +- %.3f" % (level, level - 1, m, h),
                  flush=True)
    if error_games:
        classes = {}
        n, ours, pub = error_rate(6, error_games, by_class=classes)
        print("error rate against gnubg-nn 0-ply on %d rolls with a choice (%d games of play):"
              % (n, error_games))
        print("  level 6: %.1f millipoints per move; pubeval: %.1f" % (ours, pub))
        for name in CLASSES:
            k, lost, plost = classes.get(name, (0, 0.0, 0.0))
            if k:
                print("    %-8s %5d rolls (%2.0f%% of level 6's loss): level 6 %.1f, pubeval %.1f"
                      % (name, k, 100 * lost / (ours * n / 1000), 1000 * lost / k,
                         1000 * plost / k))
    figs = micropython_figures(levels)
    if figs:
        print("MicroPython unix port, %s moves of the first bot in bot-against-bot games:"
              % "/".join(str(f[0]) for f in figs.values()))
        for level, (moves, med, worst, heap) in sorted(figs.items()):
            print("  level %d: median %.2f ms per move, worst %.2f ms (RP2040 at x200: %.0f ms "
                  "median, %.1f s worst)%s" % (level, med, worst, med * 200, worst * 200 / 1000,
                                              "; a whole game runs in a %d KB heap" % heap
                                              if heap else ""))
            if heap:
                # (the unix port holds the first layer that an RP2040 reads in flash)
                copy = build.heap_beyond_chip()
                print("    of which the first layer's copy an RP2040 reads in flash instead: "
                      "%.1f KB (without it: %d KB)" % (copy / 1024, heap - copy // 1024))
    from bgcore import botnet, racenet

    def size(weights):
        return sum(len(getattr(weights, k)) for k in ("W1", "B1", "W2", "B2", "WO", "BO",
                                                      "SIGMOID") if hasattr(weights, k))

    print("weights: %d bytes (%d+%d hidden units, %d count levels, shot inputs %s, contact "
          "inputs %s), the race network's %d bytes (%d+%d)"
          % (size(botnet), botnet.HIDDEN, botnet.HIDDEN2, botnet.LEVELS,
             "on" if getattr(botnet, "SHOTS", 0) else "off",
             "on" if getattr(botnet, "CONTACT", 0) else "off", size(racenet), racenet.HIDDEN,
             racenet.HIDDEN2))
    print("(%.0f s)" % (time.time() - t0))
