"""The `bgboard` command: one entry point, one sub-command per job."""

import argparse
import sys


def _demo(args):
    from bgboard.demo import run_demo
    return run_demo(seed=args.seed, delay=args.delay, games=args.games)


def _bench(args):
    if args.what == "rules":
        from bgboard.bench_rules import run
        return run(pairs=args.pairs, seed=args.seed)
    print("bgboard bench: unknown benchmark %r (choose: rules)" % args.what, file=sys.stderr)
    return 2


def build_parser():
    p = argparse.ArgumentParser(prog="bgboard", description="The LED backgammon board's host tool.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser("demo", help="two bots play a game on a text board")
    d.add_argument("--seed", type=int, default=None, help="dice seed (default: random)")
    d.add_argument("--delay", type=float, default=0.4, help="seconds between plays")
    d.add_argument("--games", type=int, default=1, help="how many games")
    d.set_defaults(func=_demo)

    b = sub.add_parser("bench", help="benchmarks that print figures")
    b.add_argument("what", choices=["rules"], help="what to measure")
    b.add_argument("--pairs", type=int, default=3000, help="(position, roll) pairs in the corpus")
    b.add_argument("--seed", type=int, default=2026, help="corpus seed")
    b.set_defaults(func=_bench)
    return p


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


if __name__ == "__main__":
    sys.exit(main())
