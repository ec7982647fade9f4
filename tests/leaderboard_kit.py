"""What the leaderboard's tests share: a database of each kind (an SQLite file; a throwaway
PostgreSQL cluster, started once per session), a client for the server's API, and ranked
records made through the board's own code path (bgboard.ranked.play_ranked) with tickets the
server issued."""

import hashlib
import random

import pytest

from bgcore.record import Writer

BACKENDS = ("sqlite", "postgresql")
START = "2026-11-30T10:%02d:00"


@pytest.fixture(scope="session")
def pg_cluster():
    from bgboard.leaderboard.pgtemp import Cluster, Unavailable
    try:
        pg = Cluster().start()
    except Unavailable as e:
        pytest.skip(str(e))
    try:
        yield pg
    finally:
        pg.stop()


def fresh_db(kind, tmp_path, request):
    """A URL for an empty database of KIND."""
    if kind == "sqlite":
        return "sqlite:///%s" % (tmp_path / "leaderboard.sqlite")
    pg = request.getfixturevalue("pg_cluster")
    name = "lb_%s" % hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:12]
    return pg.create_database(name)


class Api:
    """The server's JSON API through Starlette's test client (the real app, the real database)."""

    def __init__(self, url):
        from starlette.testclient import TestClient
        from bgboard.leaderboard.app import build
        self.app = build(url)
        self.http = TestClient(self.app)
        self.rng = random.Random(7)

    def register(self, board_id="B1", display=None):
        r = self.http.post("/api/boards", json={"board_id": board_id,
                                                "display": display or "board " + board_id})
        assert r.status_code == 201, r.text
        return r.json()["key"]

    def tickets(self, board_id, key, n):
        """n tickets for BOARD_ID, each as (id, secret bytes, nonce): the nonce drawn here, as
        the board draws it, and only its hash sent."""
        nonces = [self.rng.randbytes(32) for _ in range(n)]
        r = self.http.post("/api/tickets", json={
            "board_id": board_id, "key": key,
            "nonce_commits": [hashlib.sha256(x).hexdigest() for x in nonces]})
        assert r.status_code == 201, r.text
        return [(t["id"], bytes.fromhex(t["secret"]), nonce)
                for t, nonce in zip(r.json()["tickets"], nonces)]

    def submit(self, text):
        r = self.http.post("/api/games", content=text.encode() if isinstance(text, str) else text)
        return r.status_code, r.json()

    def level(self, n):
        r = self.http.get("/api/level/%d" % n)
        assert r.status_code == 200
        return r.json()["entries"]


_played = {}


def _play(level, person, name, country, nonce, tid, secret, seed, board, start):
    """One ranked game and its points, remembered: the tests of both databases get the same
    tickets (see SeededTokens), so each game is played once per session."""
    from bgboard.ranked import play_ranked, verify_ranked
    key = (level, person, name, country, nonce, tid, secret, seed, board, start)
    if key not in _played:
        text = play_ranked(level, person, name, country, nonce=nonce,
                           ticket=(tid, secret) if tid else None, person_seed=seed,
                           board=board, start=start)
        _played[key] = (text, verify_ranked(text).points)
    return _played[key]


def ranked(tickets, level=1, name="ANN", country="NZ", board="B1", win=True, minute=0):
    """(text, ticket) of a finished ranked game against the level-LEVEL bot on BOARD. TICKETS
    is a list of (id, secret, nonce) from Api.tickets, used from the front (the dice follow
    from the ticket, so a ticket whose games all go the wrong way is dropped, as a player
    drops a game: it still counted as played), or None for a game without a ticket. The
    person's side is the level-6 bot for a win, level 1 for a loss; win=None takes the
    first game whatever its result."""
    pool = tickets if tickets is not None else [None] * 8
    rng = random.Random(repr((level, name, country, board, minute)))
    while pool:
        ticket = pool.pop(0)
        tid, secret, nonce = ticket if ticket else (None, None, rng.randbytes(32))
        for seed in (1, 2):
            text, points = _play(level, 1 if win is False else 6, name, country, nonce, tid,
                                 secret, seed, board, START % minute)
            if win is None or (points > 0) == win:
                return text, ticket
    raise AssertionError("the tickets ran out before a %s" % ("win" if win else "loss"))


class SeededTokens:
    """Stands in for the `secrets` module in the server's service while a test runs against
    each database, so that both issue the same ticket ids and secrets (and the same ranked
    games can be replayed against both): seeded randomness, nothing else changed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def token_hex(self, n):
        return self.rng.randbytes(n).hex()


def payloads(text):
    return [line.rsplit("|", 1)[0] for line in text.splitlines()]


def chained(lines):
    """Record text with every line check made again: a forger's best effort."""
    w = Writer()
    return "".join(w.line(p) for p in lines)
