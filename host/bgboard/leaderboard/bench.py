"""`bgboard bench leaderboard`: how many ranked records a leaderboard server verifies and counts
per second, on SQLite and on PostgreSQL (a throwaway cluster), with 1, 2 and 4 worker
processes, next to the cost of one record's replay alone (verify_ranked in this process), all
in the same run. The records are made once (the board's ranked code path, tickets from the
server's own issuing code); each configuration gets a fresh database holding the same boards
and tickets, then every record is POSTed to a real `bgboard leaderboard serve` by 8 clients."""

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BOARDS = 8          # records are spread over boards so that the per-board rate limit is not hit
CLIENTS = 8


def _make_records(games, seed):
    """(records, boards rows, tickets rows): winning ranked records on BOARDS boards."""
    import hashlib
    import random
    import sqlalchemy as sa
    from bgboard.leaderboard import service
    from bgboard.leaderboard.db import boards, engine_for, tickets
    from bgboard.ranked import play_ranked, verify_ranked
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="bgboard-bench-")
    engine = engine_for("sqlite:///%s/issue.sqlite" % folder)
    keys = {"BENCH%d" % b: service.register(engine, "BENCH%d" % b, "bench %d" % b)
            for b in range(BOARDS)}
    records = []
    while len(records) < games:
        board = "BENCH%d" % (len(records) % BOARDS)
        nonce = rng.randbytes(32)
        t = service.issue_tickets(engine, board, keys[board],
                                  [hashlib.sha256(nonce).hexdigest()])[0]
        text = play_ranked(1 + len(records) % 6, 6, "BENCH", "NZ", nonce=nonce,
                           ticket=(t["id"], bytes.fromhex(t["secret"])),
                           person_seed=rng.randrange(1 << 30), board=board,
                           start="2026-11-30T12:00:00")
        if verify_ranked(text).points:
            records.append(text.encode())
    with engine.connect() as c:
        board_rows = [dict(r._mapping) for r in c.execute(sa.select(boards))]
        ticket_rows = [dict(r._mapping) for r in c.execute(sa.select(tickets))]
    engine.dispose()
    return records, board_rows, ticket_rows, folder


def _load(url, board_rows, ticket_rows):
    from bgboard.leaderboard.db import boards, engine_for, tickets
    engine = engine_for(url)
    with engine.begin() as c:
        c.execute(boards.insert(), board_rows)
        c.execute(tickets.insert(), ticket_rows)
    engine.dispose()


def _submit_all(base, records):
    """POST every record with CLIENTS threads; returns (seconds, accepted count, errors)."""
    from bgboard.leaderboard.client import call
    todo = list(records)
    lock = threading.Lock()
    accepted = []
    errors = []

    def work():
        while True:
            with lock:
                if not todo:
                    return
                body = todo.pop()
            try:
                status, answer = call(base, "/api/games", body, content_type="text/plain")
            except Exception as e:
                errors.append(str(e))
                continue
            if status == 201:
                accepted.append(1)
            else:
                errors.append(answer.get("error"))

    t0 = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, len(accepted), errors


def _serve(url, workers):
    from bgboard.leaderboard.pgtemp import free_port
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "leaderboard", "serve",
                             "--db", url, "--port", str(port), "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    base = "http://127.0.0.1:%d" % port
    end = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError("the server stopped: %s" % proc.stderr.read().decode()[-300:])
        try:
            with urllib.request.urlopen(base + "/api/level/1", timeout=5):
                break
        except OSError:
            if time.monotonic() > end:
                raise RuntimeError("the server did not come up in 60 s")
            time.sleep(0.1)
    return proc, base


def _stop(proc):
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def run(games=40, seed=2026, workers=(1, 2, 4), out=None):
    from bgboard.leaderboard.pgtemp import Cluster, Unavailable
    from bgboard.ranked import verify_ranked
    out = out or sys.stdout
    print("making %d winning ranked records (levels 1-6, %d boards) ..." % (games, BOARDS),
          file=out, flush=True)
    records, board_rows, ticket_rows, folder = _make_records(games, seed)
    times = []
    for body in records:
        t0 = time.perf_counter()
        res = verify_ranked(body.decode())
        times.append(time.perf_counter() - t0)
        assert res.ok, res.error
    replay_ms = statistics.median(times) * 1000
    print("replay alone (verify_ranked, this process): median %.1f ms per game, mean %.1f ms, "
          "%.1f games/s on one core" % (replay_ms, statistics.mean(times) * 1000,
                                         1000 / replay_ms), file=out)
    cluster = None
    backends = [("sqlite", None)]
    try:
        cluster = Cluster().start()
        backends.append(("postgresql", cluster))
    except (Unavailable, RuntimeError) as e:
        print("PostgreSQL skipped: %s" % e, file=out)
    results = []
    try:
        for name, pg in backends:
            for n in workers:
                if pg:
                    url = pg.create_database("bench_%d" % n)
                else:
                    url = "sqlite:///%s/bench-%d.sqlite" % (folder, n)
                _load(url, board_rows, ticket_rows)
                proc, base = _serve(url, n)
                try:
                    secs, accepted, errors = _submit_all(base, records)
                finally:
                    _stop(proc)
                rate = accepted / secs
                results.append((name, n, rate))
                print("%-10s %d worker(s): %d/%d accepted in %.2f s = %.1f submissions/s "
                      "(%.1f ms each; replay alone %.0f%% of it)%s"
                      % (name, n, accepted, len(records), secs, rate, 1000 / rate if rate else 0,
                         100 * replay_ms * rate / 1000 if rate else 0,
                         "; errors: %s" % errors[:2] if errors else ""), file=out, flush=True)
    finally:
        if cluster:
            cluster.stop()
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
    base = {name: rate for name, n, rate in results if n == 1}
    for name, n, rate in results:
        if n > 1 and base.get(name):
            print("%-10s %d workers: %.2fx one worker" % (name, n, rate / base[name]), file=out)
    if "postgresql" in base and base.get("sqlite"):
        print("postgresql / sqlite, one worker: %.2f" % (base["postgresql"] / base["sqlite"]),
              file=out)
    print("(%d cores here, load average %.1f at the end: other programs' work slows every "
          "figure alike; a worker replays one record at a time)"
          % (os.cpu_count() or 1, os.getloadavg()[0]), file=out)
    return 0
