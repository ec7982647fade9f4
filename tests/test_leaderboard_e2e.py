"""The leaderboard end to end with the real commands: a server (`bgboard leaderboard serve`, its
own process, SQLite), a virtual board (real MicroPython on a pty) registered with it and given
tickets over the serial protocol (TICKETS ASK / ADD), a ranked game won on the board by KEY,
pulled and submitted with `bgboard leaderboard submit` (accepted once, skipped the next time),
and the name on the level's page."""

import json
import os
import signal
import subprocess
import sys
import urllib.request

from leaderboard_kit import ranked
from test_leaderboard import _serve, _wait_up
from test_ranked_board import ANN_LEE, NZ, ranked_win, type_name
from test_vboard import Client, board, golden_image  # noqa: F401  (fixtures)


def _bgboard(env, *args):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + list(args), env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_win_on_the_board_reaches_the_page(board, tmp_path):  # noqa: F811
    """Virtual board -> registered -> tickets -> a ranked game won on the board by KEY, the
    name and country typed -> logs pull -> submit -> the name on the level's page."""
    from bgboard.leaderboard.pgtemp import free_port
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    db = "sqlite:///%s" % (tmp_path / "lb.sqlite")
    server = _serve(db, port)
    try:
        _wait_up(server, port)
        link = str(board.link)
        out = _bgboard(env, "leaderboard", "tickets", "--port", link, "--server", url)
        assert out.returncode == 1 and "is not registered on %s" % url in out.stderr
        out = _bgboard(env, "leaderboard", "register", "--port", link, "--server", url,
                       "--name", "Virtual club")
        assert out.returncode == 0, out.stderr
        again = _bgboard(env, "leaderboard", "register", "--port", link, "--server", url)
        assert again.returncode == 1 and "already registered" in again.stderr
        out = _bgboard(env, "leaderboard", "tickets", "--port", link, "--count", "8")
        assert out.returncode == 0, out.stderr
        assert "put 8 ticket(s)" in out.stdout and "ready=8" in out.stdout

        # the person's side keyed in on the board (the level-6 bot's choices), until a win
        c = Client(board.link)
        c.hello()
        assert c.cmd("FAST on") == "OK FAST on"
        st, record = ranked_win(c, 1)
        type_name(c, ANN_LEE, NZ)
        board_id = c.cmd("TICKETS").split()[3].split("=", 1)[1]
        c.ser.close()

        out = _bgboard(env, "logs", "pull", "--port", link)
        assert out.returncode == 0, out.stderr
        # the games played until the win (the board's dice: the level-1 bot wins one now and
        # then), sent in the order they were played: the lost ones count, the win is the last
        played = sorted(p.name for p in (tmp_path / "data" / "bgboard" / "archive" / board_id)
                        .glob("*.bgr"))
        assert played[-1] == record, played
        out = _bgboard(env, "leaderboard", "submit", "--archive")
        for n, name in enumerate(played[:-1], 1):
            assert "%s: accepted: game %d, level 1 (not a win)" % (name, n) in out.stdout, \
                out.stdout
        assert "%s: accepted: game %d, level 1, rank 1" % (record, len(played)) in out.stdout, \
            out.stdout
        with urllib.request.urlopen(url + "/level/1") as r:
            page = r.read().decode()
        assert "ANN LEE" in page and "Virtual club" not in page
        with urllib.request.urlopen(url + "/api/level/1") as r:
            entries = json.loads(r.read())["entries"]
        assert [(e["name"], e["country"], e["board"]) for e in entries] == [
            ("ANN LEE", "NZ", "Virtual club")]
        assert entries[0]["games_played"] == 8

        # a laptop holding one of the board's tickets and its secret still cannot use it: the
        # board's nonce for it never left the board
        from bgboard.leaderboard.db import engine_for, tickets
        import sqlalchemy as sa
        engine = engine_for(db)
        with engine.connect() as conn:
            free = conn.execute(sa.select(tickets.c.ticket, tickets.c.secret).where(
                tickets.c.board_id == board_id, tickets.c.game_id.is_(None))).first()
        engine.dispose()
        forged = ranked([(free.ticket, bytes.fromhex(free.secret), os.urandom(32))],
                        board=board_id, win=None)[0]
        path = tmp_path / "forged.bgr"
        path.write_text(forged)
        out = _bgboard(env, "leaderboard", "submit", str(path))
        assert out.returncode == 1
        assert "rejected: the record's nonce is not the one the board committed" in out.stdout
        out = _bgboard(env, "leaderboard", "submit", str(path))         # reported once
        assert out.returncode == 0 and "0 accepted, 0 rejected, 1 submitted before" in out.stdout
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def test_submit_sends_records_once_and_the_name_reaches_the_page(tmp_path, monkeypatch):
    from bgboard.leaderboard import service
    from bgboard.leaderboard.pgtemp import free_port
    from leaderboard_kit import Api, SeededTokens
    # seeded tickets, so the same games are played on every run (the server's own random
    # tickets once ran out before level 1 lost a game to level 1: CI, 3 December)
    monkeypatch.setattr(service, "secrets", SeededTokens("submit"))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    db = "sqlite:///%s" % (tmp_path / "lb.sqlite")
    api = Api(db)
    key = api.register("B1", "club")
    pool = api.tickets("B1", key, 8)
    api.app.state.engine.dispose()
    folder = tmp_path / "archive" / "B1"
    folder.mkdir(parents=True)
    (folder / "0001.bgr").write_text(ranked(pool, name="KIRI", country="NZ")[0])
    (folder / "0002.bgr").write_text(ranked(pool, win=False)[0])
    (folder / "0003.bgr").write_text(ranked(None, win=None)[0])          # no ticket
    (folder / "0004.bgr").write_text("not a record\n")
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    server = _serve(db, port)
    try:
        _wait_up(server, port)
        files = sorted(str(p) for p in folder.iterdir())
        out = _bgboard(env, "leaderboard", "submit", "--server", url, *files)
        assert "0001.bgr: accepted: game 1, level 1, rank 1" in out.stdout
        assert "0002.bgr: accepted: game 2, level 1 (not a win)" in out.stdout
        assert "0003.bgr: rejected: the game was played without a server ticket" in out.stdout
        assert "2 accepted, 1 rejected, 0 submitted before, 1 not ranked" in out.stdout
        assert out.returncode == 1
        out = _bgboard(env, "leaderboard", "submit", "--server", url, *files)
        assert "0 accepted, 0 rejected, 3 submitted before, 1 not ranked" in out.stdout
        with urllib.request.urlopen(url + "/level/1") as r:
            page = r.read().decode()
        assert "KIRI" in page
        with urllib.request.urlopen(url + "/api/level/1") as r:
            entries = json.loads(r.read())["entries"]
        assert [(e["name"], e["country"], e["games_played"]) for e in entries] == [
            ("KIRI", "NZ", 8)]
        # a laptop playing ranked games on the server's tickets, as a registered board would
        out = _bgboard(env, "selfplay", "--ranked", "--level", "1", "--games", "2", "--seed",
                       "3", "--out", str(tmp_path / "laptop"), "--server", url)
        assert out.returncode == 0, out.stderr
        made = sorted(str(p) for p in (tmp_path / "laptop").iterdir())
        out = _bgboard(env, "leaderboard", "submit", "--server", url, *made)
        assert "2 accepted, 0 rejected" in out.stdout, out.stdout
        down = _bgboard(env, "leaderboard", "submit", "--server", "http://127.0.0.1:%d"
                        % free_port(), files[0])
        assert down.returncode == 1 and "cannot reach the leaderboard server" in down.stderr
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
