"""The leaderboard server against SQLite and a real PostgreSQL: tickets, submissions replayed
before they count, the pages, and each abuse the issue lists (forged, spliced, reused or foreign
tickets, hostile names, huge bodies, a burst, the server killed inside a submission)."""

import html
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from markupsafe import escape

from leaderboard_kit import (BACKENDS, Api, SeededTokens, chained, fresh_db, payloads,  # noqa: F401
                             pg_cluster, ranked)


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    return fresh_db(request.param, tmp_path, request)


@pytest.fixture
def api(db_url, request, monkeypatch):
    from bgboard.leaderboard import service
    monkeypatch.setattr(service, "secrets", SeededTokens(request.node.originalname))
    a = Api(db_url)
    yield a
    a.app.state.engine.dispose()


def test_wins_are_ranked_by_points_then_pips_and_counted_once(api):
    key = api.register("B1", "Ann's board")
    tickets = api.tickets("B1", key, 12)
    texts = [ranked(tickets, name="ANN", minute=1)[0], ranked(tickets, name="BOB", minute=2)[0],
             ranked(tickets, name="CY", minute=3)[0]]
    # all three at once, from three clients: each replayed whole (bgcore is not re-entrant)
    answers = [None] * 3
    threads = [threading.Thread(target=lambda i=i: answers.__setitem__(i, api.submit(texts[i])))
               for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [s for s, _a in answers] == [201] * 3, answers
    answers = [a for _s, a in answers]
    from bgboard.ranked import verify_ranked
    want = sorted(((verify_ranked(t).points, verify_ranked(t).opponent_pips, i)
                   for i, t in enumerate(texts)), key=lambda x: (-x[0], -x[1], x[2]))
    board = api.level(1)
    assert [(e["points"], e["opponent_pips"]) for e in board] == [w[:2] for w in want]
    assert [e["name"] for e in board] == [("ANN", "BOB", "CY")[w[2]] for w in want]
    assert {e["games_played"] for e in board} == {12}     # 12 tickets issued = 12 played
    # the same record again: answered with the same game and its place now, counted once
    for t, a in zip(texts, answers):
        status, again = api.submit(t)
        assert status == 200 and again["status"] == "duplicate" and again["id"] == a["id"]
        assert board[again["rank"] - 1]["id"] == a["id"]
    assert len(api.level(1)) == 3
    # a loss is accepted (its ticket is spent) but is not on the board
    status, lost = api.submit(ranked(tickets, win=False)[0])
    assert status == 201 and lost["won"] is False and lost["rank"] is None
    assert len(api.level(1)) == 3


def test_forged_records_and_misused_tickets_are_rejected(api):
    k1, k2 = api.register("B1"), api.register("B2")
    t1 = api.tickets("B1", k1, 10)
    t2 = api.tickets("B2", k2, 4)
    good, used = ranked(t1)
    lines = payloads(good)

    def refused(text, pattern):
        status, a = api.submit(text)
        assert status == 422 and a["status"] == "rejected", a
        assert re.search(pattern, a["error"]), a["error"]

    # a changed die, chained again as a forger would: the dice come from the seed
    i = next(i for i, p in enumerate(lines) if p.startswith("ROLL 0"))
    w = lines[i].split()
    w[2] = str(w[2] == "6" and 5 or int(w[2]) + 1)
    refused(chained(lines[:i] + [" ".join(w)] + lines[i + 1:]),
            r"^game 1 move \d+: dice .* are not the ones the seed gives")
    # a line spliced in from another game: its check does not chain
    other = ranked(t1, win=None)[0].splitlines(keepends=True)
    spliced = good.splitlines(keepends=True)
    spliced[5] = other[5]
    if spliced[5] != good.splitlines(keepends=True)[5]:
        refused("".join(spliced), r"^line 6: integrity check failed")
    # a game made up on a laptop, no ticket
    refused(ranked(None, win=None)[0], r"without a server ticket")
    # a ticket the server never issued (made-up id and secret)
    refused(ranked([("f00d" * 5, bytes(16), bytes(32))], win=None)[0], r"unknown ticket f00d")
    # another board's ticket, in a record from B1
    refused(ranked(t2, board="B1", win=None)[0], r"issued to another board, not B1")
    # the right ticket with a nonce the board did not commit to when it was issued
    tid, secret, _nonce = t1[0]
    refused(ranked([(tid, secret, bytes(range(32)))], win=None)[0],
            r"nonce is not the one the board committed")
    # the right ticket and nonce with a secret of one's own (a seed one could try in advance)
    tid, _secret, nonce = t1[1]
    refused(ranked([(tid, bytes(16), nonce)], win=None)[0],
            r"reveals a secret for ticket %s that is not the ticket's" % tid)
    # the ticket used twice: the first game counts, a second game on it does not
    status, a = api.submit(good)
    assert status == 201
    refused(ranked([used], name="EVE", win=None)[0], r"already used by game %d" % a["id"])
    assert [e["name"] for e in api.level(1)] == ["ANN"]


def test_bad_bodies_get_one_line_answers(api):
    key = api.register("B1")
    from bgboard.leaderboard.service import MAX_RECORD_BYTES
    for body, status, pattern in [
            (b"", 400, r"not a bgboard game record"),
            (b"\xff\xfe\x00garbage", 400, r"not UTF-8 text \(byte 0\)"),
            (b"hello world\n", 400, r"not a bgboard game record"),
            (b"BGR 1 mode=nocube|00000000\n", 400, r"line 1 is not a checked BGR header"),
            (b"x" * (MAX_RECORD_BYTES + 1), 413, r"at most %d" % MAX_RECORD_BYTES)]:
        r = api.http.post("/api/games", content=body)
        assert r.status_code == status and re.search(pattern, r.json()["error"]), r.text
    big = api.http.post("/api/games", content=b"x" * (10 << 20))
    assert big.status_code == 413
    for path, body, status, pattern in [
            ("/api/tickets", b"{not json", 400, r"not JSON"),
            ("/api/tickets", b"[1, 2]", 400, r"JSON object"),
            ("/api/tickets", b'{"board_id": "B1", "key": "nope", "nonce_commits": ["%s"]}'
             % (b"a" * 64), 403, r"wrong key for board B1"),
            ("/api/tickets", b'{"board_id": "B9", "key": "x", "nonce_commits": ["%s"]}'
             % (b"a" * 64), 404, r"B9 is not registered"),
            ("/api/tickets", b'{"board_id": "B1", "key": "%s", "nonce_commits": ["xyz"]}'
             % key.encode(), 400, r"commitment 1 is not 64 lower-case hex"),
            ("/api/tickets", b'{"board_id": "B1", "key": "%s", "nonce_commits": []}'
             % key.encode(), 400, r"1-50 commitments"),
            ("/api/boards", b'{"board_id": "B1", "display": "again"}', 409, r"already registered"),
            ("/api/boards", b'{"board_id": "a b", "display": "x"}', 400, r"board id must be"),
            ("/api/boards", b'{"board_id": "B3", "display": "' + b"y" * 20000 + b'"}', 413,
             r"at most 16384")]:
        r = api.http.post(path, content=body)
        assert r.status_code == status and re.search(pattern, r.json()["error"]), (path, r.text)
    # a board cannot hoard tickets: at most 200 unused at once
    for _ in range(4):
        api.tickets("B1", key, 50)
    r = api.http.post("/api/tickets", json={"board_id": "B1", "key": key,
                                            "nonce_commits": ["b" * 64]})
    assert r.status_code == 429 and "already holds 200 unused tickets" in r.json()["error"]
    assert api.http.get("/level/7").status_code == 404
    assert api.http.get("/game/999").status_code == 404
    assert api.http.get("/api/level/0").status_code == 404


HOSTILE = {
    "html": "<script>alert('x')</script>&amp;",
    "sql": "Robert'); DROP TABLE games;--",
}
REFUSED = {
    "control": ("bell\x07 board", r"control or invisible character \(U\+0007\)"),
    "rtl": ("abc\u202egnp.exe", r"right-to-left or other direction override \(U\+202E\)"),
    "isolate": ("x\u2067y", r"direction override \(U\+2067\)"),
    "huge": ("n" * 10240, r"10240 characters long; at most 40"),
    "empty": ("   ", r"display name is empty"),
}


def test_hostile_names_are_refused_or_shown_as_text(api):
    for i, (kind, (name, pattern)) in enumerate(sorted(REFUSED.items())):
        r = api.http.post("/api/boards", json={"board_id": "R%d" % i, "display": name})
        assert r.status_code == 400 and re.search(pattern, r.json()["error"]), (kind, r.text)
    keys = {kind: api.register("H%d" % i, name) for i, (kind, name) in enumerate(HOSTILE.items())}
    status, a = api.submit(ranked(api.tickets("H0", keys["html"], 4), board="H0")[0])
    assert status == 201
    page = api.http.get("/game/%d" % a["id"]).text
    assert str(escape(HOSTILE["html"])) in page                     # shown as text ...
    assert api.http.get("/game/%d?move=\u00b2" % a["id"]).text == page  # an odd move: the first
    assert "<script>alert" not in page                              # ... never as markup
    csp = api.http.get("/game/%d" % a["id"]).headers["content-security-policy"]
    assert "script-src 'self'" in csp                               # nor run if it were
    status, b = api.submit(ranked(api.tickets("H1", keys["sql"], 4), board="H1",
                                  name="BOBBY")[0])
    assert status == 201
    assert str(escape(HOSTILE["sql"])) in api.http.get("/game/%d" % b["id"]).text
    assert len(api.level(1)) == 2                                   # the table is still there
    # a name inside a record is the board's: replay refuses anything outside A-Z 0-9 space - .
    lines = payloads(ranked(api.tickets("H0", keys["html"], 4), board="H0")[0])
    i = next(i for i, p in enumerate(lines) if p.startswith("NAME "))
    status, c = api.submit(chained(lines[:i] + ["NAME <B>X"] + lines[i + 1:]))
    assert status == 422 and "not allowed in a name" in c["error"]


def test_a_burst_from_one_board_is_limited(api, monkeypatch):
    from bgboard.leaderboard import service
    monkeypatch.setattr(service, "RATE_LIMIT", 5)
    # (an hour's window: the burst is surely inside it however slowly a loaded machine submits)
    monkeypatch.setattr(service, "RATE_WINDOW", 3600.0)
    key = api.register("B1")
    text = ranked(api.tickets("B1", key, 4))[0]
    got = [api.submit(text)[0] for _ in range(8)]
    assert got[:5] == [201, 200, 200, 200, 200] and got[5:] == [429] * 3
    status, a = api.submit(text)
    assert status == 429 and "too many submissions from board B1" in a["error"]
    k2 = api.register("B2")                                         # other boards go on
    assert api.submit(ranked(api.tickets("B2", k2, 4), board="B2")[0])[0] == 201


def test_pages_show_the_boards_a_game_and_a_player(api):
    from bgboard import render
    key = api.register("B1", "Kiwi board")
    tickets = api.tickets("B1", key, 8)
    texts = [ranked(tickets, name="ANN", country="NZ")[0],
             ranked(tickets, level=2, name="O.NEIL-2", country="IE")[0]]
    ids = [api.submit(t)[1]["id"] for t in texts]
    index = api.http.get("/").text
    assert index.count('class="entry"') == 2 and "\U0001F1F3\U0001F1FF" in index   # NZ flag
    level2 = api.http.get("/level/2").text
    assert "O.NEIL-2" in level2 and "ANN" not in level2 and 'title="Ireland"' in level2
    page = api.http.get("/game/%d" % ids[0]).text
    frames, _names = render.frames(texts[0])
    moves = re.findall(r'<span class="play">([^<]*)</span>', page)
    assert moves == [html.escape(f.move) for f in frames]
    svg = api.http.get("/game/%d/move/%d.svg" % (ids[0], len(frames)))
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert 'data-position="%s"' % frames[-1].pos.id() in svg.text
    assert api.http.get("/game/%d/move/%d.svg" % (ids[0], len(frames) + 1)).status_code == 404
    player = api.http.get("/player/O.NEIL-2-IE").text
    assert "O.NEIL-2" in player and "/game/%d" % ids[1] in player
    assert 'class="entry"' not in api.http.get("/player/NOBODY-IE").text


def _serve(db_url, port, env=None):
    return subprocess.Popen([sys.executable, "-m", "bgboard.cli", "leaderboard", "serve",
                             "--db", db_url, "--port", str(port)],
                            env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)


def _wait_up(proc, port, deadline=60):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        assert proc.poll() is None, proc.stdout.read().decode()
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/api/level/1" % port, timeout=5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not come up")


def test_server_killed_inside_a_submission_counts_nothing(db_url, tmp_path):
    from bgboard.leaderboard.client import call
    from bgboard.leaderboard.pgtemp import free_port
    from bgboard.leaderboard.service import PAUSE_ENV
    api = Api(db_url)
    key = api.register("B1")
    text = ranked(api.tickets("B1", key, 4))[0]
    api.app.state.engine.dispose()
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    marker = tmp_path / "in-transaction"
    proc = _serve(db_url, port, {PAUSE_ENV: str(marker)})
    try:
        _wait_up(proc, port)
        errors = []
        sender = threading.Thread(target=lambda: errors.append(
            _try(call, url, "/api/games", text.encode(), "text/plain")))
        sender.start()
        end = time.monotonic() + 60
        while not marker.exists():                     # the game's row is written, not committed
            assert time.monotonic() < end and proc.poll() is None
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
        sender.join(60)
        from bgboard.leaderboard.client import ClientError
        assert len(errors) == 1 and isinstance(errors[0], ClientError), errors
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
    # nothing counted: no game, the ticket unused, so the same record is accepted now
    api = Api(db_url)
    try:
        assert api.level(1) == []
        status, a = api.submit(text)
        assert status == 201 and a["status"] == "accepted" and a["rank"] == 1
    finally:
        api.app.state.engine.dispose()


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception as e:       # the connection dies with the server: that is the point
        return e
