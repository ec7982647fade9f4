"""The leaderboard's database: its tables (SQLAlchemy Core), where the embedded SQLite file lives
by default, and opening an engine for a URL (SQLite in WAL mode, or PostgreSQL through psycopg).
The schema is created on start; nothing is kept in the process between requests."""

import sqlalchemy as sa

from bgboard.paths import data_dir

metadata = sa.MetaData()

# a registered board: its id (from HELLO), a display name, and the hash of the key that lets
# its owner fetch tickets
boards = sa.Table(
    "boards", metadata,
    sa.Column("board_id", sa.String(64), primary_key=True),
    sa.Column("display", sa.String(40), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("registered", sa.Float, nullable=False),
)

# a single-use ticket issued to a board: an issued ticket is a game played. Its id goes in the
# record's header, its secret is mixed into the game's seed and revealed at the end; the board
# sent the hash of its nonce (`nonce_commit`) before the secret came back, so it cannot try
# nonces against the secret for lucky dice. `game_id` is set, in the same transaction as the
# game's row, when a record using it is accepted
tickets = sa.Table(
    "tickets", metadata,
    sa.Column("ticket", sa.String(24), primary_key=True),
    sa.Column("secret", sa.String(32), nullable=False),
    sa.Column("nonce_commit", sa.String(64), nullable=False),
    sa.Column("board_id", sa.String(64), sa.ForeignKey("boards.board_id"), nullable=False,
              index=True),
    sa.Column("issued", sa.Float, nullable=False),
    sa.Column("game_id", sa.Integer, nullable=True, unique=True),
)

# an accepted record: every figure here is the replay's, never the record's claim
games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("sha256", sa.String(64), nullable=False, unique=True),
    sa.Column("ticket", sa.String(24), sa.ForeignKey("tickets.ticket"), nullable=False,
              unique=True),
    sa.Column("board_id", sa.String(64), sa.ForeignKey("boards.board_id"), nullable=False),
    sa.Column("level", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("opponent_pips", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("country", sa.String(2), nullable=False),
    sa.Column("played", sa.String(32), nullable=False),
    sa.Column("submitted", sa.Float, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Index("ix_games_rank", "level", "won", "points", "opponent_pips"),
)

# every submission attempt, accepted or not: the per-board rate limit counts these
attempts = sa.Table(
    "attempts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("board_id", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_attempts_board_at", "board_id", "at"),
)


def default_url():
    """The embedded database: a SQLite file in the user's data directory."""
    return "sqlite:///%s" % (data_dir() / "leaderboard.sqlite")


def engine_for(url=None):
    """An engine for URL (default: the embedded SQLite file), with the schema in place."""
    url = url or default_url()
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            from pathlib import Path
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _sqlite_setup(dbapi_conn, _record):
            # WAL: readers never wait for the writer, and a killed writer leaves the file whole;
            # pysqlite's own transaction handling is replaced by an explicit BEGIN (IMMEDIATE for
            # writers, see writer())
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _sqlite_begin(conn):
            immediate = conn.get_execution_options().get("immediate")
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
    else:
        engine = sa.create_engine(url, pool_pre_ping=True)
    create_schema(engine)
    return engine


def writer(engine):
    """The engine for a writing transaction: on SQLite it takes the write lock at BEGIN, so two
    submissions never both read a ticket as free and then race to use it (PostgreSQL locks the
    ticket's row instead)."""
    return engine.execution_options(immediate=True)


def create_schema(engine):
    """Create the tables that are missing (several workers may start at once)."""
    try:
        metadata.create_all(engine)
    except sa.exc.SQLAlchemyError:
        # another worker created them between our check and our CREATE: look again
        metadata.create_all(engine)
