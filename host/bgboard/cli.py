"""The `bgboard` command: one entry point, one sub-command per job."""

import argparse
import sys


def _demo(args):
    from bgboard.demo import run_demo
    return run_demo(seed=args.seed, delay=args.delay, games=args.games)


def _bench(args):
    if args.what == "logs":
        from bgboard.bench_logs import run
        return _board_command(run, port=args.port)
    if args.what == "leaderboard":
        from bgboard.leaderboard.bench import run
        return run(games=args.games or 40, seed=args.seed)
    if args.what == "chip":
        from bgboard.bench_chip import run
        return run(levels=tuple(args.levels or (6,)), seed=args.seed, demo=not args.no_demo,
                   before=args.before)
    if args.what == "resume":
        from bgboard.bench_resume import run
        return run(games=args.games or 30, seed=args.seed if args.seed is not None else 30,
                   before=args.before, on_chip=not args.no_chip)
    if args.what == "tutor":
        from bgboard.bench_tutor import run
        return run(turns=args.turns, think_ms=args.think, gap_ms=args.gap, seed=args.seed,
                   rolls=args.rolls)
    if args.what == "rules":
        from bgboard.bench_rules import run
        return run(pairs=args.pairs or 3000, seed=args.seed)
    from bgboard.bench_bot import run
    for name in ("pairs", "level_pairs", "ladder_pairs"):
        n = getattr(args, name)
        if n is not None and (n < 0 or n == 1):     # (one pair gives no interval)
            print("bgboard bench bot: --%s is 0 (skip) or 2 or more, not %d"
                  % (name.replace("_", "-"), n), file=sys.stderr)
            return 2
    levels = tuple(args.levels) if args.levels else (1, 2, 3, 4, 5, 6)
    return run(pairs=5000 if args.pairs is None else args.pairs, level_pairs=args.level_pairs,
               error_games=args.error_games, ladder_pairs=args.ladder_pairs, seed=args.seed,
               levels=levels, cube_matches=args.cube_matches, money_games=args.money_games,
               cube_marks=args.cube_marks)


def _shown(text):
    """Text from a record or a board, terminal-safe (bgboard.safetext)."""
    from bgboard.safetext import for_terminal
    return for_terminal(str(text), 2000)


def _verify(args):
    import json
    from bgboard import chouette
    from bgboard.games import FileError, load, summary, verdict
    try:
        path = _archived(args.file)
        if chouette.is_chouette_file(path):
            return chouette.verify(args)
        ld = load(path, jacoby=args.jacoby)
    except FileError as e:
        if args.json:
            out = verdict(None, e.where)
            if args.ranked:
                from bgboard.ranked import RankedResult
                out.update(RankedResult(ok=False).to_json())
            print(json.dumps(out))
        else:
            print("%s: INVALID: %s" % (_shown(args.file), _shown(str(e).split(": ", 1)[-1])),
                  file=sys.stderr)
        return 1
    if args.ranked:
        return _verify_ranked(args, ld, verdict(ld))
    if args.json:
        print(json.dumps(verdict(ld)))
    else:
        print("%s: OK: %s" % (_shown(args.file), _shown(summary(ld))))
        if ld.torn:
            print("%s: note: %s" % (_shown(args.file), _shown(ld.torn)))
    return 0


def _verify_ranked(args, ld, out):
    import json
    from bgboard.ranked import verify_ranked
    with open(ld.path, encoding="utf-8") as f:
        res = verify_ranked(f.read())
    out.update(res.to_json())
    out["ok"] = res.ok
    out["error"] = res.error
    if args.json:
        print(json.dumps(out))
    elif res.ok:
        won = ("won %d point(s), the bot had %d pips left" % (res.points, res.opponent_pips)
               if res.points else "lost")
        who = " by %s (%s)" % (res.name, res.country) if res.name else ""
        print(_shown("%s: OK: ranked game against the level-%d bot, %s%s%s"
                     % (args.file, res.level, won, who,
                        ", ticket %s" % res.ticket if res.ticket else ", no ticket")))
    else:
        print("%s: INVALID: %s" % (_shown(args.file), _shown(res.error)), file=sys.stderr)
    return 0 if res.ok else 1


def _export(args):
    import os
    from bgboard import chouette
    from bgboard.games import EXPORTERS, ExportRefused, FileError, gnubg_setting, load, summary
    try:
        path = _archived(args.file)
        if chouette.is_chouette_file(path):
            return chouette.export(args)
        ld = load(path, jacoby=args.jacoby)
        text = EXPORTERS[args.format](ld)
    except (FileError, ExportRefused) as e:
        print("bgboard export: %s" % _shown(e), file=sys.stderr)
        return 1
    if ld.torn:
        print("bgboard export: note: %s: %s" % (_shown(args.file), _shown(ld.torn)),
              file=sys.stderr)
    to_file = args.output and args.output != "-"
    if to_file:
        if os.path.isdir(args.output):
            print("bgboard export: %s is a folder; give a file name (-o FILE)" % args.output,
                  file=sys.stderr)
            return 1
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print("bgboard export: cannot write %s: %s" % (args.output, e.strerror),
                  file=sys.stderr)
            return 1
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:         # `export ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    print("bgboard export: wrote %s (.%s): %s" % (args.output if to_file else "standard output",
                                                   args.format, _shown(summary(ld))),
          file=sys.stderr)
    setting = gnubg_setting(ld) if args.format == "mat" else None
    if setting:
        print("bgboard export: in GNU Backgammon, `%s` before `import mat` (a .mat cannot say "
              "the rules; .sgf does)" % setting, file=sys.stderr)
    return 0


def _selfplay(args):
    import datetime
    import os
    import random
    from bgcore.match import Rules, MATCH, MONEY, NOCUBE
    from bgboard.games import play_record
    if args.chouette is not None:
        from bgboard.chouette import selfplay
        return selfplay(args)
    if (args.games is None) == (args.match is None):
        print("bgboard selfplay: give either --games N or --match N", file=sys.stderr)
        return 2
    if args.ranked:
        from bgboard.ranked import run_selfplay
        return run_selfplay(args)
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    players = ("Bot%dA" % args.level, "Bot%dB" % args.level)
    stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    if args.match is not None:
        rules = Rules(MATCH, args.match)
        count, stem = 1, "match"
    else:
        rules = Rules(MONEY if args.cube else NOCUBE)
        count, stem = args.games, "game"
    for i in range(count):
        text = play_record(rules, rng, players, start=stamp, level=args.level)
        path = os.path.join(args.out, "%s-%03d.bgr" % (stem, i + 1))
        with open(path, "w") as f:
            f.write(text)
        print(path)
    return 0


def _render(args):
    from bgboard.render import run
    return run(args.source, move=args.move, output=args.output)


def _vboard(args):
    from bgboard.vboard import runner
    extra = {}
    if args.fetch:
        if args.chip != "rp2040":
            print("bgboard vboard: --fetch goes with --chip rp2040", file=sys.stderr)
            return 2
        extra["fetch"] = True
    return runner(args.chip)(args.link, flash=args.flash, heap=args.heap,
                             install_profile=args.install, pid_file=args.pid_file, **extra)


def _soak(args):
    from bgboard.soak import run
    return run(cuts=args.cuts, lines=args.lines, keys=args.keys, seed=args.seed,
               minutes=args.minutes, fill=not args.no_fill, work=args.work,
               boards=args.boards, chip=args.chip)


def _sim(args):
    from bgboard.sim import run
    return run(flash=args.flash, profile=args.profile, heap=args.heap, fresh=args.new,
               chip=args.chip)


def _hw(args):
    from bgboard.hw import run_check
    return run_check(args.profiles)


def _board_command(run, *args, **kw):
    """Run a board command; a problem with the port or the board is one clear line, exit 1."""
    from bgboard.link import LinkError
    from bgboard.names import BadName
    try:
        return run(*args, **kw)
    except (LinkError, BadName) as e:
        print("bgboard: %s" % _shown(e), file=sys.stderr)
        return 1


def _devices(args):
    from bgboard.devices import run
    return _board_command(run, ports=args.port)


def _flash(args):
    from bgboard.flashing import run
    return _board_command(run, port=args.port, target=args.target, profile=args.profile,
                          firmware=args.firmware)


def _logs(args):
    from bgboard import logs
    if args.logs_command == "list":
        return _board_command(logs.run_list, args.port)
    return _board_command(logs.run_pull, args.port, out=args.out, delete=args.delete)


def _watch(args):
    from bgboard.watch import run
    return _board_command(run, args.port, once=args.once, demo=args.demo)


def _games(args):
    from bgboard.games_table import run_games
    return run_games(args.dir)


def _board(args):
    from bgboard.ranked import run_board
    return run_board(args.dir, level=args.level)


def _archived(path):
    """A FILE argument: the path itself, or a record's name in the local archive ('0003.bgr',
    'BOARD/0003.bgr'); a FileError naming every board's copy when several boards have one."""
    import os
    if os.path.exists(path):
        return path
    from bgboard.archive import archive_root, find_record
    found = find_record(path)
    if found:
        return str(found)
    root = archive_root()
    if os.sep not in path and root.is_dir():
        hits = sorted(d / path for d in root.iterdir() if (d / path).is_file())
        if len(hits) > 1:
            from bgboard.games import FileError
            raise FileError(path, "in the archive of %d boards: give one of %s"
                            % (len(hits), ", ".join(h.parent.name + "/" + h.name
                                                    for h in hits)))
    return path


def build_parser():
    from bgcore import __version__
    from bgboard.vboard import DEFAULT_HEAP
    p = argparse.ArgumentParser(prog="bgboard", description="The LED backgammon board's host tool.")
    p.add_argument("--version", action="version", version="bgboard %s" % __version__,
                   help="print the version and stop")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser("demo", help="two bots play a game on a text board")
    d.add_argument("--seed", type=int, default=None, metavar="N",
                   help="dice seed (default: random)")
    d.add_argument("--delay", type=float, default=0.4, metavar="SECONDS",
                   help="seconds between plays (default 0.4)")
    d.add_argument("--games", type=int, default=1, metavar="N", help="how many games (default 1)")
    d.set_defaults(func=_demo)

    v = sub.add_parser("verify", help="replay a game record, .mat, .sgf or JSON and check every "
                       "move")
    v.add_argument("file", metavar="FILE", help="a native record (.bgr), a .mat or .sgf file, "
                   "or bgboard's JSON; or an archived record's name (0003.bgr, BOARD/0003.bgr)")
    v.add_argument("--jacoby", action="store_true", help="money .mat: apply the Jacoby rule")
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.add_argument("--ranked", action="store_true", help="a ranked game: re-derive the dice "
                   "from the revealed seed and every bot play, points and pips by the replay")
    v.set_defaults(func=_verify)

    e = sub.add_parser("export", help="convert a record or .mat to .mat, .sgf or JSON",
                       description="Convert a game record (or a .mat, .sgf or JSON file) for GNU "
                       "Backgammon: .sgf carries the rules it was played under; a .mat cannot, "
                       "so export names the gnubg setting to import it with, and refuses games "
                       "a .mat cannot carry (beavers, automatic doubles).")
    e.add_argument("file", metavar="FILE", help="a native record (.bgr), a .mat, .sgf or JSON "
                   "file, or an archived record's name (0003.bgr, BOARD/0003.bgr)")
    e.add_argument("--format", required=True, choices=["mat", "sgf", "json"],
                   help="mat: Jellyfish/gnubg .mat (import mat); sgf: gnubg's own format (load "
                   "match); json: bgboard's JSON")
    e.add_argument("-o", "--output", metavar="FILE",
                   help="output file (default: standard output)")
    e.add_argument("--jacoby", action="store_true", help="money .mat: apply the Jacoby rule")
    e.set_defaults(func=_export)

    sp = sub.add_parser("selfplay", help="bot against bot, writing native records")
    g = sp.add_mutually_exclusive_group()
    g.add_argument("--games", type=int, metavar="N", help="this many single games, one file each "
                   "(with --chouette: games in the chouette)")
    g.add_argument("--match", type=int, metavar="N", help="one match to this many points")
    sp.add_argument("--cube", action="store_true", help="with --games: money play with the cube")
    sp.add_argument("--chouette", type=int, metavar="N", help="a chouette of N bots (3-8)")
    sp.add_argument("--cubes", choices=["single", "multiple"], default="single",
                    help="with --chouette: one cube for the team or one per member")
    sp.add_argument("--level", type=int, default=6, choices=range(1, 7),
                    help="bot level (default 6)")
    sp.add_argument("--seed", type=int, default=None, metavar="N",
                    help="seed of the dice and the bots (default: random)")
    sp.add_argument("--ranked", action="store_true", help="ranked games (with --games): a "
                    "person against the --level bot, through the board's ranked code path")
    sp.add_argument("--person-level", type=int, default=6, choices=range(1, 7),
                    help="--ranked: the bot level that plays the person's side")
    sp.add_argument("--name", metavar="NAME",
                    help="--ranked: the name written after a win (A-Z 0-9 space - .)")
    sp.add_argument("--country", metavar="CC",
                    help="--ranked: the ISO 3166-1 alpha-2 country after a win")
    sp.add_argument("--server", metavar="URL", help="--ranked: play on tickets from this "
                    "leaderboard server, as a board registered there (the laptop registers once)")
    sp.add_argument("--out", required=True, metavar="DIR", help="directory for the records")
    sp.set_defaults(func=_selfplay)

    vb = sub.add_parser("vboard", help="a virtual board: MicroPython on a pty, littlefs flash")
    vb.add_argument("--link", required=True, metavar="PATH",
                    help="path of the serial port to create (a symlink)")
    vb.add_argument("--flash", metavar="IMAGE",
                    help="littlefs flash image (default: LINK.img; new = blank board)")
    vb.add_argument("--heap", default=DEFAULT_HEAP, metavar="SIZE",
                    help="MicroPython heap size (default %s)" % DEFAULT_HEAP)
    vb.add_argument("--install", metavar="PROFILE", help="first put the firmware and this "
                    "board profile (hardware/profiles/NAME.json or a path) on the image")
    vb.add_argument("--pid-file", metavar="FILE",
                    help="keep the MicroPython process id here (kill -9 it to "
                    "cut the power)")
    from bgboard.vboard import CHIPS, DEFAULT_CHIP
    vb.add_argument("--chip", choices=sorted(CHIPS), default=DEFAULT_CHIP,
                    help="the kind of virtual board (default %s: MicroPython's unix port; "
                    "rp2040: MicroPython's rp2 firmware on an emulated RP2040)" % DEFAULT_CHIP)
    vb.add_argument("--fetch", action="store_true", help="with --chip rp2040: first download "
                    "the official RPI_PICO firmware into the user's cache (mpflash; internet)")
    vb.set_defaults(func=_vboard)

    sm = sub.add_parser("sim", help="play on a virtual board drawn in the terminal")
    sm.add_argument("--flash", metavar="IMAGE",
                    help="flash image (default: ~/.local/share/bgboard/sim.img)")
    sm.add_argument("--profile", default="reference", metavar="PROFILE",
                    help="board profile (default: reference)")
    sm.add_argument("--heap", default=DEFAULT_HEAP, metavar="SIZE",
                    help="MicroPython heap size (default %s)" % DEFAULT_HEAP)
    sm.add_argument("--new", action="store_true", help="start from a blank flash (forget games)")
    sm.add_argument("--chip", choices=sorted(CHIPS), default=DEFAULT_CHIP,
                    help="the virtual board's kind: unix (MicroPython's unix port, default) or "
                    "rp2040 (the rp2 firmware on the emulated chip, at chip speed)")
    sm.set_defaults(func=_sim)

    b = sub.add_parser("bench", help="benchmarks that print figures",
                       description="Benchmarks that print figures (ratios in the same run), "
                       "one sub-command each with its own options.")
    bench = b.add_subparsers(dest="what", metavar="BENCHMARK", required=True)

    def benchmark(name, text):
        one = bench.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        one.set_defaults(func=_bench)
        return one

    def seed(one, what="dice"):
        one.add_argument("--seed", type=int, default=2026, metavar="N",
                         help="%s seed (default 2026)" % what)

    br = benchmark("rules", "how fast the rules core lists legal plays (CPython, MicroPython) "
                   "against gnubg-nn and gym-backgammon, on one corpus")
    br.add_argument("--pairs", type=int, metavar="N",
                    help="(position, roll) pairs in the corpus (default 3000)")
    seed(br, "corpus")
    bb = benchmark("bot", "the bot's strength and speed: levels against pubeval and each "
                   "other, error against gnubg-nn, cube decisions analysed by GNU Backgammon")
    bb.add_argument("--pairs", type=int, metavar="N", help="duplicate dice pairs for level 6 "
                    "against pubeval (default 5000 = 10,000 games; 0: only the cube part)")
    seed(bb)
    bb.add_argument("--levels", type=int, nargs="+", choices=range(1, 7), metavar="L",
                    help="which levels (default 1-6)")
    bb.add_argument("--level-pairs", type=int, default=1000, metavar="N",
                    help="duplicate pairs against pubeval for levels 1-5 (default 1000; 0: "
                    "skip)")
    bb.add_argument("--ladder-pairs", type=int, default=1000, metavar="N",
                    help="duplicate pairs for each level against the one below (default 1000; "
                    "0: skip)")
    bb.add_argument("--error-games", type=int, default=300, metavar="N",
                    help="games of play whose positions measure the error rate (default 300)")
    bb.add_argument("--cube-matches", type=int, default=20, metavar="N",
                    help="5- and 7-point matches of level 6 against itself that GNU "
                    "Backgammon analyses (default 20 of each; 0: skip)")
    bb.add_argument("--money-games", type=int, default=50, metavar="N",
                    help="money games of level 6 against itself for the same analysis "
                    "(default 50)")
    bb.add_argument("--cube-marks", action="store_true",
                    help="list each cube decision GNU Backgammon marks very bad, with its "
                    "chances and the bot's")
    bl = benchmark("logs", "pulling records over the protocol, against mpremote fs cp")
    bl.add_argument("--port", metavar="PORT",
                    help="the board (default: a virtual board of its own)")
    bc = benchmark("chip", "the firmware on the emulated RP2040, in emulated time")
    bc.add_argument("--levels", type=int, nargs="+", choices=range(1, 7), metavar="L",
                    help="bot levels to time (default 6)")
    seed(bc)
    bc.add_argument("--no-demo", action="store_true",
                    help="skip the demo game (the watchdog-feed gaps)")
    bc.add_argument("--before", metavar="REV", help="also measure the firmware of git revision "
                    "REV, printed beside this tree's (before / after)")
    bz = benchmark("resume", "a long record and a full flash on the board: the resume's time "
                   "and watchdog-feed gaps, littlefs's operations, the boot after a power cut "
                   "(unix port and emulated RP2040)")
    bz.add_argument("--games", type=int, metavar="N",
                    help="games in the money session resumed (default 30)")
    bz.add_argument("--seed", type=int, metavar="S", help="the session's dice and bots (default 30)")
    bz.add_argument("--no-chip", action="store_true", help="the unix port only")
    bz.add_argument("--before", metavar="REV", help="also measure the firmware of git revision "
                    "REV, printed beside this tree's (before / after)")
    bd = benchmark("leaderboard", "ranked submissions the leaderboard server verifies per second")
    bd.add_argument("--games", type=int, metavar="N",
                    help="ranked records to submit (default 40)")
    seed(bd)
    bt = benchmark("tutor", "a person's wait for the tutor's check of a play on the emulated "
                   "RP2040")
    bt.add_argument("--turns", type=int, default=12, metavar="N",
                    help="the person's plays to key (default 12)")
    bt.add_argument("--rolls", type=int, default=30, metavar="N",
                    help="rolls whose parts are timed on their own (default 30; 0: skip)")
    bt.add_argument("--think", type=int, default=400, metavar="MS",
                    help="emulated ms from the dice shown to the first key (default 400)")
    bt.add_argument("--gap", type=int, default=250, metavar="MS",
                    help="emulated ms between a step shown and the next key (default 250)")
    seed(bt)
    sk = sub.add_parser("soak", help="power cuts, garbage lines and key mashing against a "
                        "virtual board; prints figures")
    sk.add_argument("--cuts", type=int, default=1000, metavar="N",
                    help="power cuts (kill -9 of the board; default 1000)")
    sk.add_argument("--lines", type=int, default=100000, metavar="N",
                    help="garbage lines on the serial port (default 100000)")
    sk.add_argument("--keys", type=int, default=100000, metavar="N",
                    help="random key presses (default 100000)")
    sk.add_argument("--seed", type=int, metavar="S", help="the soak's random seed, the "
                    "virtual boards' dice too (default: a new one, printed)")
    sk.add_argument("--minutes", type=float, metavar="M",
                    help="stop after M minutes with the figures so far")
    sk.add_argument("--no-fill", action="store_true", help="skip filling the flash with "
                    "records (years of games, then a pull with --delete)")
    sk.add_argument("--boards", type=int, default=1, metavar="B", help="share the work among "
                    "B virtual boards run side by side (default 1)")
    sk.add_argument("--work", metavar="DIR", help="keep the flash image, the board's log and "
                    "the pulled records here (default: a temporary folder)")
    sk.add_argument("--chip", choices=["rp2040"], help="soak the emulated RP2040 (MicroPython's "
                    "rp2 port on rp2040js; about 4x slower than real time) instead of the unix "
                    "port: its watchdog's feed gaps in chip time")
    sk.set_defaults(func=_soak)
    rd = sub.add_parser("render", help="draw a position or a record's move as an SVG picture")
    rd.add_argument("source", metavar="POSITION_ID|RECORD", help="a gnubg Position ID, or a "
                    "game record (a file or an archived record's name)")
    rd.add_argument("--move", type=int, metavar="N",
                    help="a record's move (1 = before the first move)")
    rd.add_argument("-o", "--output", metavar="FILE",
                    help="the SVG file (default: standard output)")
    rd.set_defaults(func=_render)

    from bgboard.leaderboard.commands import add_parser as _leaderboard_parser
    _leaderboard_parser(sub)

    dv = sub.add_parser("devices", help="the connected boards, with firmware and board id")
    dv.add_argument("--port", action="append", metavar="PORT",
                    help="ask this port only (repeatable)")
    dv.set_defaults(func=_devices)

    fl = sub.add_parser("flash", help="put the firmware on a board (staged, verified)")
    fl.add_argument("--port", metavar="PORT",
                    help="the board's serial port (default: the only board found)")
    fl.add_argument("--target", choices=["rp2040", "rp2350", "unix"],
                    help="the board's chip (default: what the board says it is)")
    fl.add_argument("--profile", metavar="PROFILE",
                    help="board profile to install (hardware/profiles/NAME.json "
                    "or a path; default: keep the board's, else reference)")
    fl.add_argument("--firmware", help=argparse.SUPPRESS)   # another firmware tree (tests)
    fl.set_defaults(func=_flash)

    lg = sub.add_parser("logs", help="game records on a board: list them, pull them")
    lg_sub = lg.add_subparsers(dest="logs_command", metavar="SUBCOMMAND", required=True)
    for name, text in (("list", "the records on the board"),
                       ("pull", "copy the records off the board, verified, into the archive")):
        lp = lg_sub.add_parser(name, help=text)
        lp.add_argument("--port", metavar="PORT",
                        help="the board's serial port (default: the only board)")
        if name == "pull":
            lp.add_argument("--out", metavar="DIR", help="put the records in DIR (one file "
                            "each) instead of the archive")
            lp.add_argument("--delete", action="store_true", help="remove each record from "
                            "the board once its local copy is verified")
        lp.set_defaults(func=_logs)

    wt = sub.add_parser("watch", help="a board's LED panel and game events, live")
    wt.add_argument("--port", metavar="PORT",
                    help="the board's serial port (default: the only board)")
    wt.add_argument("--once", action="store_true", help="draw the first frame and stop")
    wt.add_argument("--demo", type=int, default=0, metavar="N", help="have the board play N "
                    "bot games (level 6) and watch them to their end")
    wt.set_defaults(func=_watch)

    gm = sub.add_parser("games", help="the archived game records as a table")
    gm.add_argument("dir", nargs="?", metavar="DIR",
                    help="a folder of records (default: the archive)")
    gm.set_defaults(func=_games)

    bd = sub.add_parser("board", help="the best ranked wins per bot level in the archive")
    bd.add_argument("dir", nargs="?", metavar="DIR",
                    help="a folder of records (default: the archive)")
    bd.add_argument("--level", type=int, choices=range(1, 7), help="only this level")
    bd.set_defaults(func=_board)

    hw = sub.add_parser("hw", help="the board's hardware: check a board profile")
    hw_sub = hw.add_subparsers(dest="hw_command", metavar="SUBCOMMAND", required=True)
    hc = hw_sub.add_parser("check", help="validate board profiles: pins, LED map, keys, power")
    hc.add_argument("profiles", nargs="+", metavar="PROFILE",
                    help="a name in hardware/profiles (reference, minimal) or a path")
    hc.set_defaults(func=_hw)
    _describe(p)
    return p


def _describe(parser):
    """Each sub-command's help page opens with what it does: its one-line help, unless it has a
    description of its own."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                text = helps.get(name)
                if not sub.description and text:
                    sub.description = text[0].upper() + text[1:] + "."
                _describe(sub)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`bgboard logs list | head`): no traceback, and none at exit
        # when Python flushes stdout
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
