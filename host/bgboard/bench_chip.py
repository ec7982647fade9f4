"""`bgboard bench chip`: what the firmware costs on the chip, in emulated time (cycles at 125 MHz
on rp2040js, MicroPython v1.28 rp2), beside the unix port's figures of the same run. Emulated time
does not depend on the host's load; a real Pico runs code from flash through a cache and is about
1.0-1.3x slower than these figures (../shared/rp2/README.md).

With --before REV, the firmware of git revision REV is measured the same way first, and the
figures are printed side by side (before / after). On one emulated board per firmware, with the
reference profile:
- the app: reset to the first LED frame (after installing, after a power cut, and into a game in
  progress), the CPU share of the idle menu, key press (on the key matrix's GPIOs, from the
  moment it closes) to the changed LED frame (a menu key at rest and 100 ms after the last
  answer; a point key picking a checker up and putting it down in a move), the longest gap
  between watchdog feeds in a demo game (level 6) and in the pips view;
- then through the raw REPL with the HAL open (its key scan running): `show`, the HAL's
  background CPU share, each bot level's time per move (both sides, seeded dice) and the lowest
  free heap after a move (collected before each), and each level's time on the largest roll
  (listing its plays, and choosing one);
and the same bot games on the unix port."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgboard import chip, paths

PROBE = paths.MP_SCRIPTS / "chip_probe.py"
CUBE_PROBE = paths.MP_SCRIPTS / "cube_games.py"
BIG_PROBE = paths.MP_SCRIPTS / "bigroll_probe.py"
HEAP_PROBE = paths.MP_SCRIPTS / "game_heap.py"
# the largest roll found in 200 random games (a 1-1 with 748 plays): a move's worst case
BIG_ROLLS = [["+w0IEFGWmwpEBQ", 1, 1]]


def _wait_emulated(board, ms):
    t0 = board.stats()["ns"]
    while board.stats()["ns"] < t0 + ms * 1e6:
        time.sleep(0.5)


def _frame_after(board, ns, limit_ms=5000, timeout=300):
    """The emulated ns of the first changed LED frame after ns, or None when the emulated clock
    passed ns + limit_ms without one (a key the board refused, or never saw: the caller says so
    and presses again, rather than waiting for a frame that will not come)."""
    found = []

    def changed():
        frames = list(board.frames)
        for i, (t, f) in enumerate(frames):
            if t > ns and i and f != frames[i - 1][1]:
                found.append(t)
                return True
        return False

    deadline = time.monotonic() + timeout
    while True:
        try:
            board.wait(changed, 5, "a changed LED frame")
            return found[0]
        except TimeoutError:
            if board.stats()["ns"] > ns + limit_ms * 1e6:
                return None
            if time.monotonic() > deadline:
                raise


def _state(link):
    from bgboard.link import Board
    with Board(link) as b:
        line = b.request("STATE", timeout=120)
    return dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)


def _request(link, line):
    from bgboard.link import Board
    with Board(link) as b:
        return b.request(line, timeout=120)


def app_figures(board, say, presses=6):
    f = {}
    board.wait(lambda: len(board.frames) > 0, 600, "the first LED frame")
    f["boot_ms"] = board.frames[0][0] / 1e6
    say("boot to the first LED frame: %.0f ms" % f["boot_ms"])
    _wait_emulated(board, 300)            # the menu settles
    s0 = board.stats()
    _wait_emulated(board, 1000)
    s1 = board.stats()
    f["idle_cpu_pct"] = 100 * (s1["busy_ns"] - s0["busy_ns"]) / (s1["ns"] - s0["ns"])
    say("idle menu: CPU busy %.0f %%" % f["idle_cpu_pct"])
    # the code the app's bot searches in, loaded at power-up (STATE bot=: thumb; python where
    # the heap was too broken up then to compile it, several times slower)
    f["app_bot"] = _state(board.link).get("bot", "-")
    say("the app's bot, loaded at power-up, searches in %s code" % f["app_bot"])
    # a menu key (P13: Jacoby on / off, an even number of times), pressed with the board at rest
    # (a second after its last answer), then presses 100 ms after the last answer (a person
    # stepping through settings: the board may still be writing the last one to flash). Each
    # latency counts from the emulated moment the key closed on the pins.
    for key, rest_ms, what in (("key_ms", 1000, "at rest"), ("key_quick_ms", 100,
                                                             "100 ms after the last answer")):
        lat = []
        lost = 0
        while len(lat) < presses and lost < presses:
            _wait_emulated(board, rest_ms)
            t = board.press("P13", hold_ms=80)
            t1 = _frame_after(board, t)
            if t1 is None:          # (no changed frame within 5 s: pressed again, counted)
                lost += 1
                continue
            lat.append((t1 - t) / 1e6)
        if not lat:
            raise RuntimeError("no press of P13 changed the LED frame (%d pressed)" % lost)
        f[key] = lat
        f[key + "_lost"] = lost
        say("key press -> changed LED frame, %s: median %.1f ms, worst %.1f ms (%d presses%s)"
            % (what, statistics.median(lat), max(lat), len(lat),
               ", %d more with no changed frame within 5 s" % lost if lost else ""))
    # a power cut: the boot of a board that has booted before (the profile checked)
    f["reboot_ms"] = _power_cut(board, "the first LED frame after a power cut")
    say("boot to the first LED frame after a power cut: %.0f ms" % f["reboot_ms"])
    return f


def game_figures(board, say):
    """A point key during a move (step_figures), then a power cut in that game: the boot back
    into it."""
    f = step_figures(board, say, presses=8)
    f["resume_ms"] = _power_cut(board, "the first LED frame after a power cut in a game")
    say("boot to the first LED frame of a game in progress, after a power cut: %.0f ms"
        % f["resume_ms"])
    return f


def _power_cut(board, what):
    """Cut the power (kill -9 of the emulator), boot again: ms to the first LED frame."""
    with board.cond:
        board.frames.clear()
    os.kill(board.node.pid, 9)
    board.wait(lambda: len(board.frames) > 0, 600, what)
    return board.frames[0][0] / 1e6


def _step_keys(st):
    """The two keys (checker, destination) of a legal step for the side on roll, from STATE;
    "forced" for a roll with one legal play (the board makes it by itself)."""
    from bgcore import Position
    pos = Position.from_id(st["pos"])
    d = st["dice"]
    done = [] if st["steps"] == "-" else st["steps"].split(",")
    turn = int(st["turn"])
    plays = pos.plays(int(d[0]), int(d[1]))
    if len(plays) == 1 and not done:
        return "forced"         # (the board plays a forced play by itself after 500 ms)
    for play in plays:
        if ["%d/%d" % m for m in play.moves[:len(done)]] == done and len(play.moves) > len(done):
            return ["BAR" if q == 25 else "OFF" if q == 0 else "P%d" % (q if turn == 0 else 25 - q)
                    for q in play.moves[len(done)]]
    return None


def step_figures(board, say, presses=8):
    """A point key during a move: a game of two people (menu P7, then OK), each measured key a
    checker put down (a STEP for the record), pressed a second after the pick-up's answer (the
    pick-up, whose answer shows the checker's destinations, is timed too)."""
    from bgboard.link import Board
    with Board(board.link) as b:
        b.hello(timeout=600)
    if _state(board.link).get("view") != "menu":
        _request(board.link, "KEY MENU")
    for line in ("KEY P7", "KEY OK"):                  # two players, a new game
        answer = _request(board.link, line)
        if not answer.startswith("OK KEY"):
            raise RuntimeError("the board answered %s with %r" % (line, answer))
    if _state(board.link).get("view") == "menu":       # (asked: abandon the game in progress?)
        _request(board.link, "KEY OK")
    lat = []
    picks = []
    lost = []           # keys with no changed frame within 5 s: (key, the board's STATE after)
    for _ in range(200):
        if len(lat) >= presses or len(lost) >= presses:
            break
        st = _state(board.link)
        keys = None
        if st.get("wait") == "player" and st.get("phase") == "move" and st.get("complete") != "1":
            keys = _step_keys(st)
        if keys == "forced":                           # the board makes it by itself
            _wait_emulated(board, 1000)
            continue
        if not keys:
            if st.get("wait") == "player":
                _request(board.link, "KEY OK")        # roll, or confirm the complete play
            else:
                _wait_emulated(board, 200)
            continue
        t = board.press(keys[0], hold_ms=80)           # the checker picked up
        t1 = _frame_after(board, t)
        if t1 is None:
            lost.append((keys[0], _state(board.link)))
            continue
        picks.append((t1 - t) / 1e6)
        _wait_emulated(board, 1000)
        t = board.press(keys[1], hold_ms=80)           # and put down: the step
        t1 = _frame_after(board, t)
        if t1 is None:
            lost.append((keys[1], _state(board.link)))
            continue
        lat.append((t1 - t) / 1e6)
        _wait_emulated(board, 300)
    for k, st in lost:
        say("  a point key with no changed frame within 5 s: %s (then view=%s phase=%s "
            "steps=%s dice=%s)" % (k, st.get("view"), st.get("phase"), st.get("steps"),
                                   st.get("dice")))
    if len(lat) < presses:
        raise RuntimeError("the game gave %d steps to time, not %d" % (len(lat), presses))
    say("point key during a move (a checker put down) -> changed LED frame, at rest: median "
        "%.1f ms, worst %.1f ms (%d presses)" % (statistics.median(lat), max(lat), len(lat)))
    say("  (the checker picked up before it: median %.1f ms, worst %.1f ms)"
        % (statistics.median(picks), max(picks)))
    return {"step_ms": lat, "pick_ms": picks, "step_lost": len(lost)}


def feed_figures(board, say):
    """The longest gaps between watchdog feeds: a demo game (level 6) and the pips view."""
    from bgboard.link import LinkError
    f = {}
    resets = len(board.resets)
    say("demo game (level 6, fast) ...")
    from bgboard.link import Board
    with Board(board.link) as b:
        b.hello(timeout=600)               # the app, back after the raw REPL's soft reset
    board.stats(reset_feeds=True)
    answer = _request(board.link, "DEMO 1 fast")
    if not answer.startswith("OK DEMO"):
        raise RuntimeError("the board answered DEMO with %r" % answer)
    while True:
        time.sleep(5)
        if len(board.resets) > resets:
            raise RuntimeError("the chip was reset during the demo (%s)" % board.resets[-1])
        try:
            st = _state(board.link)
        except LinkError:              # busy for longer than the request waits: ask again
            continue
        if st.get("demo") == "0" and st.get("wait") != "board":
            break
    s = board.stats(reset_feeds=True)
    f["demo_feed_gap_ms"] = s["max_feed_gap_ns"] / 1e6
    say("longest watchdog-feed gap in the demo game: %.0f ms" % f["demo_feed_gap_ms"])
    _request(board.link, "KEY MENU")
    _request(board.link, "KEY P24")           # the pips view re-checks the record
    _wait_emulated(board, 1500)
    s = board.stats(reset_feeds=True)
    f["pips_feed_gap_ms"] = s["max_feed_gap_ns"] / 1e6
    say("longest watchdog-feed gap in the pips view: %.0f ms" % f["pips_feed_gap_ms"])
    return f


def chip_probe(board, levels, games, seed):
    return chip.run_script(board, "LEVELS = %r\nGAMES = %d\nSEED = %d\n"
                           % (list(levels), games, seed) + PROBE.read_text())


def heap_figure(board, seed, lo=48, hi=160, step=2):
    """The smallest heap (KB, to `step`) in which the chip imports the bot and plays a whole
    level-6 game in native code (tests/mp/game_heap.py: the rest of the heap taken first), with
    the last failure's line; None where even `hi` fails."""
    def fits(kb):
        r = chip.run_script(board, "KB = %d\nSEED = %d\n" % (kb, seed) + HEAP_PROBE.read_text())
        return r["ok"], r

    ok, r = fits(hi)
    if not ok:
        return None, r
    last = None
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        ok, r = fits(mid)
        if ok:
            hi = mid
        else:
            lo, last = mid, r
    return hi, last


def run_unix(script, args, fw_dir=None):
    """A probe script on MicroPython's unix port (240k heap, the firmware compiled as a board
    runs it): its last printed line, read as JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        from bgboard.build import compile_lib
        lib = Path(tmp) / "lib"
        compile_lib(lib, Path(fw_dir or paths.FIRMWARE) / "lib")
        env = dict(os.environ, MICROPYPATH=str(lib))
        r = subprocess.run([paths.tool("micropython"), "-X", "heapsize=240k", str(script)]
                           + [str(a) for a in args], capture_output=True, text=True, env=env)
        if r.returncode:
            raise RuntimeError("the probe failed on the unix port: %s" % r.stderr[-400:])
        return json.loads(r.stdout.strip().splitlines()[-1])


def unix_probe(levels, games, seed, fw_dir=None):
    return run_unix(PROBE, (",".join(map(str, levels)), games, seed), fw_dir)


def _ahead(cube):
    # the look-ahead figures of a cube probe (a firmware without it has none)
    return "%.0f / %.0f ms" % _ms(cube["ahead_us"]) if cube.get("ahead_us") else "-"


def _ms(us_list):
    s = sorted(us_list)
    return statistics.median(s) / 1000, s[-1] / 1000


def firmware_at(rev, dest):
    """The firmware tree of git revision `rev` of this repository, extracted under `dest`."""
    r = subprocess.run("git -C '%s' archive '%s' firmware | tar -x -C '%s'"
                       % (paths.REPO, rev, dest), shell=True, capture_output=True, text=True)
    if r.returncode or not (Path(dest) / "firmware" / "main.py").exists():
        raise SystemExit("bgboard bench chip: no firmware at revision %r (%s)"
                         % (rev, (r.stderr.strip().splitlines() or ["git archive failed"])[-1]))
    return Path(dest) / "firmware"


def measure(say, levels, games, seed, demo, profile, fw_dir=None):
    """Every figure of one firmware tree (this repository's by default): a dict."""
    f = {}
    with tempfile.TemporaryDirectory() as tmp:
        chip.install(Path(tmp) / "flash.img", profile, fw_dir=fw_dir)
        board = chip.ChipBoard(Path(tmp) / "link", Path(tmp) / "flash.img",
                               log=open(os.devnull, "w")).start()
        try:
            f.update(app_figures(board, say))
            say("bot and HAL through the raw REPL ...")
            try:
                f["probe"] = chip_probe(board, levels, games, seed)
            except Exception as e:      # (a firmware whose scan timer swallows Ctrl-C)
                say("the raw REPL probe: not measured (%s)" % str(e)[:200])
                return f
            say("the bot imported, its first bot made: %.1f KB of live heap"
                % (f["probe"]["bot_live"] / 1024))
            say("show (Panel.encode + NeoPixel.write): %.1f ms" % (f["probe"]["show_us"] / 1000))
            say("the HAL's background work (key scan): %.0f %% of the CPU"
                % f["probe"]["hal_cpu_pct"])
            try:
                f["big"] = chip.run_script(board, "ROLLS = %r\nLEVELS = %r\n"
                                           % (BIG_ROLLS, list(levels)) + BIG_PROBE.read_text())
                for r in f["big"]:
                    say("the largest roll (%s, %d plays): listed in %.0f ms; %s" % (
                        r["roll"], r["plays"], r["list_us"] / 1000, ", ".join(
                            "level %d %.0f ms" % (lv, r["level%d_us" % lv] / 1000)
                            for lv in levels)))
            except Exception as e:
                say("the largest roll: not measured (%s)" % str(e)[:200])
            try:
                f["cube"] = chip.run_script(board, "GAMES = 1\nSEED = %d\n" % seed
                                            + CUBE_PROBE.read_text())
                say("level-6 cube decision: %.0f / %.0f ms median / worst (%d), the one-roll look "
                    "ahead %s" % (_ms(f["cube"]["decide_us"]) + (len(f["cube"]["decide_us"]),
                                                                 _ahead(f["cube"]))))
            except Exception as e:
                say("cube decisions: not measured (%s)" % str(e)[:200])
            try:
                f["game_heap"], why = heap_figure(board, seed)
                say("a whole level-6 game (the bot's import included) runs in a %s KB heap%s" % (
                    f["game_heap"] or "> 160", "; in %d KB not: %s (%s code)" % (
                        why["kb"], why["stopped"] or "the Python loops", why["code"])
                    if why else ""))
            except Exception as e:
                say("the game's smallest heap: not measured (%s)" % str(e)[:200])
            if demo:
                try:
                    f.update(feed_figures(board, say))
                except Exception as e:
                    say("watchdog-feed gaps: not measured (%s)" % e)
            f.update(game_figures(board, say))
        finally:
            board.stop()
    f["unix"] = unix_probe(levels, games, seed, fw_dir)
    f["cube_unix"] = run_unix(CUBE_PROBE, (seed, 1, 0, "time"), fw_dir)
    for level in levels:
        c, u = f["probe"]["level%d" % level], f["unix"]["level%d" % level]
        say("level %d: chip %.0f / %.0f ms median / worst per move (%d moves), lowest free heap "
            "%d KB; unix port %.2f / %.2f ms, %.0fx" % ((level,) + _ms(c["us"]) + (
                len(c["us"]), c["low_free"] // 1024) + _ms(u["us"])
                + (sum(c["us"]) / max(1, sum(u["us"])),)))
    return f


def rows(f, levels):
    """(figure, its value as text) of one firmware's figures."""
    p = f.get("probe")
    out = [("reset to the first LED frame, first boot after installing", "%.0f ms" % f["boot_ms"]),
           ("reset to the first LED frame, later boots (after a power cut)",
            "%.0f ms" % f["reboot_ms"]),
           ("  the same, into a game in progress", "%.0f ms" % f["resume_ms"]
            if "resume_ms" in f else "-"),
           ("CPU busy in the idle menu", "%.0f %%" % f["idle_cpu_pct"]),
           ("smallest heap for a whole level-6 game, the bot's import included",
            "%d KB" % f["game_heap"] if f.get("game_heap") else "-"),
           ("live heap of the bot imported, its first bot made",
            "%.1f KB" % (p["bot_live"] / 1024) if p and "bot_live" in p else "-"),
           ("the app's bot searches in (STATE bot=)", f.get("app_bot", "-")),
           ("the HAL's background work (key scan), share of the CPU",
            "%.0f %%" % p["hal_cpu_pct"] if p else "-"),
           ("key press on the matrix -> changed LED frame, median / worst",
            "%.0f / %.0f ms" % (statistics.median(f["key_ms"]), max(f["key_ms"]))),
           ("  the same, 100 ms after the last answer",
            "%.0f / %.0f ms" % (statistics.median(f["key_quick_ms"]), max(f["key_quick_ms"]))
            if "key_quick_ms" in f else "-"),
           ("point key putting a checker down in a move -> changed frame",
            "%.0f / %.0f ms" % (statistics.median(f["step_ms"]), max(f["step_ms"]))
            if "step_ms" in f else "-"),
           ("  the point key picking it up before (its destinations lit)",
            "%.0f / %.0f ms" % (statistics.median(f["pick_ms"]), max(f["pick_ms"]))
            if "pick_ms" in f else "-"),
           ("show (Panel.encode + NeoPixel.write)",
            "%.1f ms" % (p["show_us"] / 1000) if p else "-")]
    for level in levels if p else ():
        c, u = p["level%d" % level], f["unix"]["level%d" % level]
        cm, cw = _ms(c["us"])
        um, uw = _ms(u["us"])
        out.append(("level %d per move, HAL running: median / worst (moves)" % level,
                    "%.0f / %.0f ms (%d)" % (cm, cw, len(c["us"]))))
        out.append(("  level %d, unix port, same games: median / worst (chip/unix)" % level,
                    "%.2f / %.2f ms (%.0fx)" % (um, uw, sum(c["us"]) / max(1, sum(u["us"])))))
        out.append(("  lowest free heap after a level-%d move (bot + HAL)" % level,
                    "%d KB" % (c["low_free"] // 1024)))
        for r in f.get("big") or ():
            out.append(("  level %d, the largest roll (%s, %d plays), HAL running"
                        % (level, r["roll"], r["plays"]), "%.0f ms" % (r["level%d_us" % level]
                                                                      / 1000)))
    c, u = f.get("cube"), f.get("cube_unix")
    if c:
        out.append(("a level-6 cube decision (money), HAL running: median / worst",
                    "%.0f / %.0f ms (%d)" % (_ms(c["decide_us"]) + (len(c["decide_us"]),))))
        out.append(("  the one-roll look ahead alone (at every turn): median / worst",
                    _ahead(c)))
        out.append(("  lowest free heap after a cube decision (bot + HAL)",
                    "%d KB" % (c["low_free"] // 1024)))
    if u:
        out.append(("  the same decisions, unix port: median / worst",
                    "%.2f / %.2f ms" % _ms(u["decide_us"])))
        out.append(("  the look ahead alone, unix port: median / worst",
                    "%.2f / %.2f ms" % _ms(u["ahead_us"]) if u.get("ahead_us") else "-"))
    for key, what in (("demo_feed_gap_ms", "longest watchdog-feed gap, a level-6 demo game"),
                      ("pips_feed_gap_ms", "longest watchdog-feed gap, the pips view")):
        out.append((what, "%.0f ms" % f[key] if key in f else "-"))
    return out


def run(levels=(6,), games=1, seed=1, demo=True, profile="reference", before=None):
    try:
        chip.check()
    except chip.ChipUnavailable as e:
        print("bgboard bench chip: %s" % e, file=sys.stderr)
        return 1

    def say(text):
        print(text, flush=True)

    t0 = time.monotonic()
    print("emulated RP2040 (rp2040js, MicroPython rp2 %s), emulated ms at 125 MHz; a real Pico "
          "is about 1.0-1.3x slower (its code runs from flash through a cache)"
          % chip.FIRMWARE_NAME, flush=True)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        if before:
            fw = firmware_at(before, tmp)
            say("-- before: the firmware at %s" % before)
            runs.append(("before (%s)" % before, measure(say, levels, games, seed, demo, profile,
                                                        fw)))
            say("-- after: the firmware of this tree")
        runs.append(("after" if before else "this firmware",
                     measure(say, levels, games, seed, demo, profile)))
    tables = [rows(f, levels) for _, f in runs]
    names = []
    for t in tables:
        names += [what for what, _ in t if what not in names]
    say("")
    say("%-64s" % "figure (emulated time)" + "".join("%22s" % name[:22] for name, _ in runs))
    for what in names:
        say("%-64s" % what + "".join("%22s" % dict(t).get(what, "-") for t in tables))
    say("(%.0f s of host time)" % (time.monotonic() - t0))
    return 0
