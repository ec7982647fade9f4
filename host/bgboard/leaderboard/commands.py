"""`bgboard leaderboard serve | register | tickets | submit`: the sub-commands' options and
what each runs (kept here so that cli.py only registers the group)."""

import os
import sys


def serve(db=None, host="127.0.0.1", port=8080, workers=1, quiet=False):
    """Run the server in the foreground (uvicorn; WORKERS processes share the database)."""
    import sqlalchemy as sa
    import uvicorn
    from bgboard.leaderboard.app import DB_ENV
    from bgboard.leaderboard.db import default_url, engine_for
    url = db or default_url()
    try:
        engine_for(url).dispose()          # the schema, once, before any worker starts
    except sa.exc.SQLAlchemyError as e:
        print("bgboard leaderboard serve: cannot open the database %s: %s"
              % (sa.engine.make_url(url).render_as_string(hide_password=True),
                 str(e).splitlines()[0]), file=sys.stderr)
        return 1
    os.environ[DB_ENV] = url
    if not quiet:
        print("leaderboard on http://%s:%d/ (database %s)" % (
            host, port, sa.engine.make_url(url).render_as_string(hide_password=True)),
            flush=True)
    uvicorn.run("bgboard.leaderboard.app:factory", factory=True, host=host, port=port,
                workers=workers if workers > 1 else None, log_level="warning",
                access_log=False)
    return 0


def _run(args):
    from bgboard.leaderboard.client import ClientError
    from bgboard.link import LinkError
    try:
        if args.lb_command == "serve":
            return serve(args.db, args.host, args.port, args.workers)
        from bgboard.leaderboard import client
        if args.lb_command == "register":
            return client.run_register(args.port, args.server, args.name)
        if args.lb_command == "tickets":
            return client.run_tickets(args.port, args.server, args.count)
        return client.run_submit(args.files, args.archive, args.server)
    except (ClientError, LinkError) as e:
        print("bgboard leaderboard: %s" % e, file=sys.stderr)
        return 1


def add_parser(sub):
    lb = sub.add_parser("leaderboard", help="the leaderboard: run a server, register a board, "
                        "fetch tickets, submit ranked games")
    s = lb.add_subparsers(dest="lb_command", metavar="SUBCOMMAND", required=True)
    sv = s.add_parser("serve", help="run a leaderboard server")
    sv.add_argument("--db", metavar="URL", help="database URL (default: a SQLite file in the "
                    "data directory; postgresql+psycopg://USER:PASS@HOST/DB for PostgreSQL)")
    sv.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                    help="address to listen on (127.0.0.1)")
    sv.add_argument("--port", type=int, default=8080, metavar="N", help="port to listen on (8080)")
    sv.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (1)")
    rg = s.add_parser("register", help="register the board with a server (once)")
    rg.add_argument("--port", metavar="PORT",
                    help="the board's serial port (default: the only board)")
    rg.add_argument("--server", required=True, metavar="URL", help="the server's URL")
    rg.add_argument("--name", metavar="NAME", help="the board's display name (default: its id)")
    tk = s.add_parser("tickets", help="fetch server tickets and put them on the board")
    tk.add_argument("--port", metavar="PORT",
                    help="the board's serial port (default: the only board)")
    tk.add_argument("--server", metavar="URL",
                    help="the server's URL (default: the one registered with)")
    tk.add_argument("--count", type=int, default=10, metavar="N", help="how many tickets (10)")
    sb = s.add_parser("submit", help="submit ranked game records to the server")
    sb.add_argument("files", nargs="*", metavar="FILE", help="records (.bgr)")
    sb.add_argument("--archive", action="store_true", help="every record in the archive")
    sb.add_argument("--server", metavar="URL",
                    help="the server's URL (default: the one registered with)")
    for p in (sv, rg, tk, sb):
        p.set_defaults(func=_run)
