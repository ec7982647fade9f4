"""`bgboard bench rules`: how fast the rules core lists legal plays, on CPython and on MicroPython,
against GNU Backgammon's C move generator (gnubg-nn) and a pure-Python library (gym-backgammon),
all on one fixed corpus in the same run. Prints figures and ratios; asserts nothing."""

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgboard import build, paths
from bgboard.corpus import corpus

_MP_SCRIPT = r"""
import sys, time
from bgcore import Position
pairs = []
with open(sys.argv[1]) as f:
    for line in f:
        pid, d1, d2 = line.split()
        pairs.append((Position.from_id(pid), int(d1), int(d2)))
best = None
for rep in range(3):
    n = 0
    t = time.ticks_us()
    for pos, d1, d2 in pairs:
        n += len(pos.plays(d1, d2))
    us = time.ticks_diff(time.ticks_us(), t)
    if best is None or us < best:
        best = us
print(n, best)
"""


def _best_of(fn, reps=3):
    best = None
    out = None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return best, out


def _gym_module():
    spec = importlib.util.find_spec("gym_backgammon")
    if not spec or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "envs" / "backgammon.py"
    s = importlib.util.spec_from_file_location("gym_backgammon_rules", path)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)       # the rules file alone: the package itself wants gym
    return mod


def _gym_game(mod, pos):
    g = mod.Backgammon()
    board = [(0, None)] * 24
    b = pos.raw
    for p in range(1, 25):
        if b[p]:
            board[p - 1] = (b[p], mod.WHITE)          # white moves towards index 0
        if b[51 - p]:
            board[p - 1] = (b[51 - p], mod.BLACK)
    g.board = board
    g.bar = [b[25], b[51]]
    g.off = [b[0], b[26]]
    g.players_positions = g.get_players_positions()
    return g


def _micropython_run(pairs):
    try:
        mp = paths.tool("micropython")
    except paths.ToolMissing as e:
        return None, str(e)
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib"
        build.compile_lib(lib)
        data = Path(tmp) / "pairs.txt"
        data.write_text("".join("%s %d %d\n" % (p.id(), a, b) for p, a, b in pairs))
        script = Path(tmp) / "bench.py"
        script.write_text(_MP_SCRIPT)
        env = dict(os.environ, MICROPYPATH=str(lib))
        r = subprocess.run([mp, "-X", "heapsize=16m", str(script), str(data)],
                           capture_output=True, text=True, env=env, timeout=600)
        if r.returncode:
            return None, (r.stderr + r.stdout).strip()[-300:]
        n, us = r.stdout.split()
        return (int(n), int(us) / 1e6), None


def run(pairs=3000, seed=2026, out=None):
    out = out or sys.stdout
    data = corpus(seed=seed, n=pairs)
    w = out.write
    w("bgboard bench rules: %d (position, roll) pairs, corpus seed %d, best of 3 runs each\n\n"
      % (len(data), seed))

    t_ours, n_ours = _best_of(lambda: sum(len(p.plays(a, b)) for p, a, b in data))
    rows = [("bgcore on CPython %s" % sys.version.split()[0], t_ours, n_ours)]

    mp, err = _micropython_run(data)
    if mp:
        rows.append(("bgcore on MicroPython unix port (.mpy)", mp[1], mp[0]))
    else:
        w("MicroPython: not measured (%s)\n" % err)

    try:
        import gnubg_nn
        boards = [(p.board(), a, b) for p, a, b in data]
        t_g, n_g = _best_of(lambda: sum(len(gnubg_nn.moves(bd, a, b)) for bd, a, b in boards))
        rows.append(("gnubg-nn moves() (C)", t_g, n_g))
    except ImportError:
        w("gnubg-nn: not installed (pip install -e '.[dev]')\n")

    gym = _gym_module()
    if gym:
        games = [(_gym_game(gym, p), a, b) for p, a, b in data]
        t_y, n_y = _best_of(lambda: sum(len(g.get_valid_plays(gym.WHITE, (a, b)))
                                         for g, a, b in games))
        rows.append(("gym-backgammon get_valid_plays (pure Python)", t_y, n_y))
        same = sum(1 for (p, a, b), (g, _, _) in zip(data, games)
                   if len(p.plays(a, b)) == len(g.get_valid_plays(gym.WHITE, (a, b))))
    else:
        w("gym-backgammon: not installed (pip install -e '.[dev]')\n")

    w("%-46s %10s %12s %12s\n" % ("generator", "seconds", "pairs/s", "plays/s"))
    for name, t, n in rows:
        w("%-46s %10.3f %12.0f %12.0f\n" % (name, t, len(data) / t, n / t))
    w("\n")
    w("time for the corpus relative to bgcore on CPython (above 1: slower than bgcore):\n")
    for name, t, n in rows[1:]:
        w("  %-46s %7.3fx   (plays listed: %d, bgcore %d)\n" % (name, t / t_ours, n, n_ours))
    if mp:
        rp2040 = len(data) / mp[1] / 200
        rp2350 = len(data) / mp[1] / 100
        w("\nOn a chip (unix port ~200x an RP2040, ~100x an RP2350): about %.0f pairs/s on an "
          "RP2040 (%.1f ms each), %.0f on an RP2350\n" % (rp2040, 1000 / rp2040, rp2350))
    if gym:
        w("gym-backgammon lists the same number of plays in %d of %d pairs (it keeps plays "
          "that ignore the larger-die rule and lists step orders separately)\n"
          % (same, len(data)))
    return 0
