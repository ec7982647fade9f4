"""What the leaderboard does, apart from HTTP: register a board, issue its tickets, accept or
reject a submitted record (replayed by bgcore through `bgboard.ranked.verify_ranked`, counted in
one transaction), and read the boards back for the pages. Every function takes an engine and
keeps nothing between calls, so any number of workers can share one database."""

import hashlib
import hmac
import secrets
import threading
import time
import unicodedata

import sqlalchemy as sa

from bgboard.leaderboard.db import attempts, boards, games, tickets, writer

LEVELS = (1, 2, 3, 4, 5, 6)
MAX_RECORD_BYTES = 64 * 1024      # a ranked single game is a few KB; anything bigger is refused
MAX_TICKETS_PER_REQUEST = 50
MAX_OPEN_TICKETS = 200            # unused tickets a board may hold at once
RATE_WINDOW = 60.0                # seconds
RATE_LIMIT = 30                   # submissions per board per window
DISPLAY_MAX = 40                  # characters in a board's display name
BOARD_ID_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
# characters that change how the text around them is shown: the bidirectional overrides,
# embeddings and isolates (U+202A-U+202E, U+2066-U+2069) and the invisible marks
_BIDI = {chr(c) for c in list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))}


class Refused(Exception):
    """A request the server turns down: `status` (HTTP code) and a one-line reason."""

    def __init__(self, status, reason, **extra):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.extra = extra


# ---- names -------------------------------------------------------------------------------

def check_display(name):
    """A board's display name as given, or Refused naming what is wrong with it. Markup and
    quotes are allowed (the pages escape them); invisible and direction-changing characters
    are not, so that what a page shows is what was typed."""
    if not isinstance(name, str) or not name.strip():
        raise Refused(400, "the display name is empty")
    if len(name) > DISPLAY_MAX:
        raise Refused(400, "the display name is %d characters long; at most %d"
                      % (len(name), DISPLAY_MAX))
    for ch in name:
        if ch in _BIDI:
            raise Refused(400, "the display name holds a right-to-left or other direction "
                               "override (U+%04X)" % ord(ch))
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise Refused(400, "the display name holds a control or invisible character "
                               "(U+%04X)" % ord(ch))
    return name.strip()


def check_board_id(board_id):
    if (not isinstance(board_id, str) or not 1 <= len(board_id) <= 64
            or not set(board_id) <= BOARD_ID_CHARS):
        raise Refused(400, "the board id must be 1-64 letters, digits, '-', '_', '.', ':'")
    return board_id


def _key_hash(key):
    return hashlib.sha256(key.encode()).hexdigest()


# ---- boards and tickets ------------------------------------------------------------------

def register(engine, board_id, display):
    """Register a board; returns its key (to be kept by its owner, shown once). A board
    registers once: a second registration is refused (the key proves ownership)."""
    check_board_id(board_id)
    display = check_display(display)
    key = secrets.token_hex(16)
    with writer(engine).begin() as c:
        if c.execute(sa.select(boards.c.board_id).where(boards.c.board_id == board_id)).first():
            raise Refused(409, "board %s is already registered" % board_id)
        c.execute(boards.insert().values(board_id=board_id, display=display,
                                         key_hash=_key_hash(key), registered=time.time()))
    return key


def _owner(c, board_id, key):
    row = c.execute(sa.select(boards.c.key_hash).where(boards.c.board_id == board_id)).first()
    if row is None:
        raise Refused(404, "board %s is not registered (bgboard leaderboard register)" % board_id)
    if not isinstance(key, str) or not hmac.compare_digest(row.key_hash, _key_hash(key)):
        raise Refused(403, "wrong key for board %s" % board_id)


def _is_hex(text, n):
    return isinstance(text, str) and len(text) == n and all(c in "0123456789abcdef" for c in text)


def issue_tickets(engine, board_id, key, nonce_commits):
    """New single-use tickets for a registered board, one per nonce commitment (the hex
    SHA-256 of the nonce the board drew for the game that will use it). Each counts as a game
    played from now on. Returns [{"id", "secret", "nonce_commit"}]."""
    if (not isinstance(nonce_commits, list)
            or not 1 <= len(nonce_commits) <= MAX_TICKETS_PER_REQUEST):
        raise Refused(400, "nonce_commits must list 1-%d commitments" % MAX_TICKETS_PER_REQUEST)
    for i, nc in enumerate(nonce_commits):
        if not _is_hex(nc, 64):
            raise Refused(400, "nonce commitment %d is not 64 lower-case hex digits" % (i + 1))
    if len(set(nonce_commits)) != len(nonce_commits):
        raise Refused(400, "the same nonce commitment is listed twice")
    count = len(nonce_commits)
    with writer(engine).begin() as c:
        _owner(c, board_id, key)
        unused = c.execute(sa.select(sa.func.count()).select_from(tickets).where(
            tickets.c.board_id == board_id, tickets.c.game_id.is_(None))).scalar()
        if unused + count > MAX_OPEN_TICKETS:
            raise Refused(429, "board %s already holds %d unused tickets; at most %d"
                          % (board_id, unused, MAX_OPEN_TICKETS))
        now = time.time()
        out = [dict(id=secrets.token_hex(10), secret=secrets.token_hex(16), nonce_commit=nc)
               for nc in nonce_commits]
        c.execute(tickets.insert(), [dict(ticket=t["id"], secret=t["secret"],
                                          nonce_commit=t["nonce_commit"], board_id=board_id,
                                          issued=now) for t in out])
    return out


# ---- submission --------------------------------------------------------------------------

class Verdict:
    """What the ranked replay found (all figures from the replay)."""
    FIELDS = ("ok", "error", "level", "points", "opponent_pips", "name", "country", "board",
              "ticket", "ticket_secret", "nonce_commit", "won")

    def __init__(self, **kw):
        for f in self.FIELDS:
            setattr(self, f, kw.get(f))


# bgcore reuses preallocated module-level buffers (it is made for a 240 KB heap), so one process
# replays one record at a time; the GIL would serialise the work anyway, and workers (processes)
# are what scale
_BGCORE = threading.Lock()


def with_bgcore(fn, *args):
    """fn(*args) while no other thread of this process runs bgcore."""
    with _BGCORE:
        return fn(*args)


def replay_ranked(text):
    """The ranked replay of `bgboard verify --ranked`, as a Verdict."""
    from bgboard.ranked import verify_ranked
    v = with_bgcore(verify_ranked, text)
    get = v.get if isinstance(v, dict) else (lambda k: getattr(v, k, None))
    out = Verdict(**{f: get(f) for f in Verdict.FIELDS})
    if out.won is None:
        out.won = bool(out.ok and (out.points or 0) > 0)
    return out


def header_fields(text):
    """The header's fields (board id, start) of a record's first line, checked by its own
    line check; Refused when the text is not a bgboard record at all."""
    from bgcore.record import RecordError, Writer, parse_header
    first = text.split("\n", 1)[0].rstrip("\r")
    bar = first.rfind("|")
    if bar <= 0 or Writer().line(first[:bar]) != first + "\n":
        raise Refused(400, "not a bgboard game record (line 1 is not a checked BGR header)")
    try:
        _rules, info = parse_header(first[:bar])
    except RecordError as e:
        raise Refused(400, "line 1: %s" % e.reason)
    return info


def decode_record(body):
    if len(body) > MAX_RECORD_BYTES:
        raise Refused(413, "the record is %d bytes; at most %d" % (len(body), MAX_RECORD_BYTES))
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(400, "the record is not UTF-8 text (byte %d)" % e.start)


def note_attempt(engine, board_id, now=None):
    """Count a submission from BOARD_ID; Refused (429) beyond RATE_LIMIT in RATE_WINDOW."""
    now = time.time() if now is None else now
    with writer(engine).begin() as c:
        recent = c.execute(sa.select(sa.func.count()).select_from(attempts).where(
            attempts.c.board_id == board_id, attempts.c.at > now - RATE_WINDOW)).scalar()
        if recent >= RATE_LIMIT:
            raise Refused(429, "too many submissions from board %s: at most %d a minute"
                          % (board_id, RATE_LIMIT))
        c.execute(attempts.insert().values(board_id=board_id, at=now))
        c.execute(attempts.delete().where(attempts.c.at < now - 10 * RATE_WINDOW))


def _existing(c, digest):
    return c.execute(sa.select(games.c.id, games.c.level, games.c.won)
                     .where(games.c.sha256 == digest)).first()


def rank_of(c, game_id):
    """1-based rank of an accepted win on its level's board (None for a loss)."""
    g = c.execute(sa.select(games).where(games.c.id == game_id)).first()
    if g is None or not g.won:
        return None
    better = sa.or_(games.c.points > g.points,
                    sa.and_(games.c.points == g.points, games.c.opponent_pips > g.opponent_pips),
                    sa.and_(games.c.points == g.points, games.c.opponent_pips == g.opponent_pips,
                            games.c.id < g.id))
    n = c.execute(sa.select(sa.func.count()).select_from(games).where(
        games.c.level == g.level, games.c.won.is_(True), better)).scalar()
    return n + 1


def _answer(c, game_id, status):
    g = c.execute(sa.select(games.c.level, games.c.won, games.c.points, games.c.opponent_pips,
                            games.c.name, games.c.country).where(games.c.id == game_id)).first()
    return dict(status=status, id=game_id, level=g.level, won=bool(g.won), points=g.points,
                opponent_pips=g.opponent_pips, name=g.name, country=g.country,
                rank=rank_of(c, game_id))


# where a test may stop the server inside a submission's transaction (see tests): the path of
# a file to create, after which the worker waits to be killed
PAUSE_ENV = "BGBOARD_LEADERBOARD_PAUSE_IN_TRANSACTION"


def submit(engine, body, replay=None):
    """One record (bytes) submitted: returns the answer as a dict (status accepted or
    duplicate, with the rank), or raises Refused with the first violation."""
    import os
    text = decode_record(body)
    info = header_fields(text)
    board_id = info.get("board", "")
    if board_id in ("", "-"):
        raise Refused(422, "the record names no board (header board=)")
    check_board_id(board_id)
    note_attempt(engine, board_id)
    digest = hashlib.sha256(body).hexdigest()
    with engine.connect() as c:
        seen = _existing(c, digest)
        if seen:
            return _answer(c, seen.id, "duplicate")
    v = (replay or replay_ranked)(text)
    if not v.ok:
        raise Refused(422, v.error or "the record does not replay")
    if not v.ticket:
        raise Refused(422, "the game was played without a server ticket (bgboard leaderboard "
                           "tickets puts tickets on the board before a ranked game)")
    if v.board != board_id:
        raise Refused(422, "the replay's board %s differs from the header's %s"
                      % (v.board, board_id))
    try:
        with writer(engine).begin() as c:
            q = sa.select(tickets).where(tickets.c.ticket == v.ticket)
            if engine.dialect.name == "postgresql":
                q = q.with_for_update()
            t = c.execute(q).first()
            if t is None:
                raise Refused(422, "unknown ticket %s: this server never issued it"
                              % v.ticket)
            if t.board_id != board_id:
                raise Refused(422, "ticket %s was issued to another board, not %s"
                              % (v.ticket, board_id))
            if t.game_id is not None:
                raise Refused(422, "ticket %s was already used by game %d"
                              % (v.ticket, t.game_id))
            if not hmac.compare_digest(t.secret, v.ticket_secret or ""):
                raise Refused(422, "the record reveals a secret for ticket %s that is not the "
                                   "ticket's" % v.ticket)
            if t.nonce_commit != v.nonce_commit:
                raise Refused(422, "the record's nonce is not the one the board committed to "
                                   "when ticket %s was issued" % v.ticket)
            gid = c.execute(games.insert().values(
                sha256=digest, ticket=v.ticket, board_id=board_id, level=int(v.level),
                won=bool(v.won), points=int(v.points or 0),
                opponent_pips=int(v.opponent_pips or 0), name=str(v.name or "")[:64],
                country=str(v.country or "")[:2].upper(), played=str(info.get("start", "-"))[:32],
                submitted=time.time(), record=text)).inserted_primary_key[0]
            if os.environ.get(PAUSE_ENV):
                with open(os.environ[PAUSE_ENV], "w") as f:
                    f.write("in transaction\n")
                while True:
                    time.sleep(1)
            c.execute(tickets.update().where(tickets.c.ticket == v.ticket)
                      .values(game_id=gid))
    except sa.exc.IntegrityError:
        # the same record, or its ticket, was counted by another worker in the meantime
        with engine.connect() as c:
            seen = _existing(c, digest)
            if seen:
                return _answer(c, seen.id, "duplicate")
        raise Refused(422, "ticket %s was already used" % v.ticket)
    with engine.connect() as c:
        return _answer(c, gid, "accepted")


# ---- reading the boards ------------------------------------------------------------------

def _played_counts(c, board_ids):
    if not board_ids:
        return {}
    rows = c.execute(sa.select(tickets.c.board_id, sa.func.count()).where(
        tickets.c.board_id.in_(list(board_ids))).group_by(tickets.c.board_id))
    return dict(rows.all())


def _order():
    return (games.c.points.desc(), games.c.opponent_pips.desc(), games.c.id)


def board(engine, level, limit=100):
    """The ranked wins at LEVEL, best first: dicts with rank, id, name, country, points,
    opponent_pips, played (games played by its board), date, board."""
    with engine.connect() as c:
        rows = c.execute(sa.select(games.c.id, games.c.name, games.c.country, games.c.points,
                                   games.c.opponent_pips, games.c.played, games.c.board_id,
                                   boards.c.display)
                         .join(boards, boards.c.board_id == games.c.board_id)
                         .where(games.c.level == level, games.c.won.is_(True))
                         .order_by(*_order()).limit(limit)).all()
        counts = _played_counts(c, {r.board_id for r in rows})
    return [dict(rank=i + 1, id=r.id, name=r.name, country=r.country, points=r.points,
                 opponent_pips=r.opponent_pips, games_played=counts.get(r.board_id, 0),
                 date=r.played.replace("T", " ")[:16], board=r.display)
            for i, r in enumerate(rows)]


def player(engine, name, country):
    """A player's accepted games (wins and losses), newest first, with each win's rank."""
    with engine.connect() as c:
        rows = c.execute(sa.select(games.c.id, games.c.level, games.c.won, games.c.points,
                                   games.c.opponent_pips, games.c.played)
                         .where(games.c.name == name, games.c.country == country)
                         .order_by(games.c.id.desc()).limit(200)).all()
        return [dict(id=r.id, level=r.level, won=bool(r.won), points=r.points,
                     opponent_pips=r.opponent_pips, date=r.played.replace("T", " ")[:16],
                     rank=rank_of(c, r.id)) for r in rows]


def game(engine, game_id):
    with engine.connect() as c:
        g = c.execute(sa.select(games, boards.c.display)
                      .join(boards, boards.c.board_id == games.c.board_id)
                      .where(games.c.id == game_id)).first()
        if g is None:
            return None
        out = dict(g._mapping)
        out["rank"] = rank_of(c, game_id)
        return out
