"""The host tool's side of the leaderboard: `bgboard leaderboard register | tickets | submit`.
Talks JSON over HTTP (the standard library's urllib: no server packages needed to submit), keeps
each board's key and what was already submitted in one file in the user's data directory."""

import hashlib
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

from bgboard.archive import archive_root
from bgboard.paths import data_dir

TIMEOUT = 60.0


class ClientError(Exception):
    """One line for the user: what went wrong talking to the server."""


def state_path():
    return data_dir() / "leaderboard.json"


def load_state():
    try:
        with open(state_path()) as f:
            state = json.load(f)
    except FileNotFoundError:
        return {"default": None, "servers": {}}
    except ValueError:
        raise ClientError("%s is damaged (not JSON); move it away to start afresh" % state_path())
    state.setdefault("default", None)
    state.setdefault("servers", {})
    return state


def save_state(state):
    path = state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    tmp.replace(path)


def _server(state, url):
    url = (url or state.get("default") or "").rstrip("/")
    if not url:
        raise ClientError("no server given: use --server URL (register once, and later "
                          "commands use that server)")
    return url, state["servers"].setdefault(url, {"boards": {}, "submitted": {}})


def call(url, path, body=None, content_type="application/json"):
    """POST (or GET without a body) to the server; returns (HTTP status, JSON answer).
    Refusals (4xx) are answers; an unreachable server or a 5xx is a ClientError."""
    data = None
    if body is not None:
        data = json.dumps(body).encode() if content_type == "application/json" else body
    req = urllib.request.Request(url + path, data=data, method="POST" if data is not None
                                 else "GET", headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = {"error": raw.decode("utf-8", "replace").strip()[:200] or e.reason}
        if e.code >= 500:
            raise ClientError("the server %s failed (HTTP %d): %s" % (url, e.code,
                                                                       answer.get("error")))
        return e.code, answer
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise ClientError("cannot reach the leaderboard server %s (%s)" % (url, reason))


def _board_hello(port):
    from bgboard.devices import find_port
    from bgboard.link import Board
    port = find_port(port)
    b = Board(port)
    try:
        info = b.hello()
    except Exception:
        b.close()
        raise
    return b, info


def run_register(port, server, display=None):
    state = load_state()
    url, entry = _server(state, server)
    b, info = _board_hello(port)
    b.close()
    board_id = info.get("board", "")
    status, answer = call(url, "/api/boards", {"board_id": board_id,
                                              "display": display or board_id})
    if status != 201:
        raise ClientError("the server refused to register board %s: %s"
                          % (board_id, answer.get("error")))
    entry["boards"][board_id] = answer["key"]
    state["default"] = url
    save_state(state)
    print("registered board %s on %s (its key is kept in %s)" % (board_id, url, state_path()))
    return 0


def fetch_tickets(url, board_id, key, nonce_commits):
    """Tickets from the server, one per nonce commitment: [{"id", "secret", "nonce_commit"}]."""
    status, answer = call(url, "/api/tickets", {"board_id": board_id, "key": key,
                                               "nonce_commits": nonce_commits})
    if status != 201:
        raise ClientError("the server gave no tickets for board %s: %s"
                          % (board_id, answer.get("error")))
    return answer["tickets"]


def laptop_tickets(server, nonces):
    """(board id, [(ticket id, secret bytes)]): tickets for games this laptop plays as a board
    of its own (`bgboard selfplay --ranked --server URL`), one per nonce, registered on first
    use under a random board id kept in the state file."""
    import secrets
    state = load_state()
    url, entry = _server(state, server)
    board_id = entry.get("laptop")
    if not board_id or board_id not in entry["boards"]:
        board_id = "laptop-" + secrets.token_hex(6)
        status, answer = call(url, "/api/boards", {"board_id": board_id,
                                                  "display": "selfplay " + board_id})
        if status != 201:
            raise ClientError("the server refused to register %s: %s"
                              % (board_id, answer.get("error")))
        entry["boards"][board_id] = answer["key"]
        entry["laptop"] = board_id
        save_state(state)
    out = []
    for i in range(0, len(nonces), 50):
        part = nonces[i:i + 50]
        got = fetch_tickets(url, board_id, entry["boards"][board_id],
                            [hashlib.sha256(n).hexdigest() for n in part])
        out += [(t["id"], bytes.fromhex(t["secret"])) for t in got]
    return board_id, out


ASK_MAX = 20        # nonces a board hands out per TICKETS ASK (docs/protocol.md)


def _ask(board, n):
    """TICKETS ASK n: [(slot, nonce hash)] from the board."""
    from bgboard.link import LinkError
    first = board.request("TICKETS ASK %d" % n)
    if first != "TICKETS ASK %d" % n:
        raise LinkError("the board did not hand out nonces: %s" % first)
    out = []
    for _ in range(n):
        words = board.body_line().split()
        if len(words) != 3 or words[0] != "NONCE":
            raise LinkError("the board sent %r instead of a NONCE line" % " ".join(words))
        out.append((words[1], words[2]))
    return out


def run_tickets(port, server, count):
    """Nonce hashes from the board, a ticket for each from the server, each ticket onto its
    nonce's slot on the board."""
    from bgboard.link import LinkError
    if not 1 <= count <= 50:
        raise ClientError("--count must be 1-50 (a board keeps at most 50 tickets)")
    state = load_state()
    url, entry = _server(state, server)
    b, info = _board_hello(port)
    with b:
        board_id = info.get("board", "")
        key = entry["boards"].get(board_id)
        if not key:
            raise ClientError("board %s is not registered on %s (bgboard leaderboard register "
                              "--server %s)" % (board_id, url, url))
        put = 0
        while put < count:
            slots = _ask(b, min(ASK_MAX, count - put))
            got = fetch_tickets(url, board_id, key, [h for _slot, h in slots])
            for (slot, h), t in zip(slots, got):
                if t["nonce_commit"] != h:
                    raise ClientError("the server answered a ticket for another nonce")
                answer = b.request("TICKETS ADD %s %s %s" % (slot, t["id"], t["secret"]))
                if not answer.startswith("OK TICKETS ADD"):
                    raise LinkError("board %s refused ticket %s: %s" % (board_id, t["id"],
                                                                         answer))
                put += 1
        ready = b.request("TICKETS")
    print("put %d ticket(s) from %s on board %s (%s)" % (put, url, board_id,
                                                         " ".join(ready.split()[1:2])))
    return 0


def _files(files, archive):
    out = [Path(f) for f in files]
    if archive:
        root = archive_root()
        if root.is_dir():
            out += sorted(p for p in root.rglob("*.bgr") if p.is_file())
    return out


def _ranked(text):
    first = text.split("\n", 1)[0]
    return " ranked=1" in first.rsplit("|", 1)[0] + " "


def run_submit(files, archive, server, out=None):
    from bgboard.progress import Progress
    out = out or sys.stdout
    state = load_state()
    url, entry = _server(state, server)
    done = entry["submitted"]
    paths = _files(files, archive)
    if not paths:
        raise ClientError("no records to submit: name FILES or use --archive")
    todo, skipped, unranked = [], 0, 0
    for p in paths:
        try:
            body = p.read_bytes()
        except OSError as e:
            print("%s: cannot read: %s" % (p, e.strerror), file=out)
            continue
        digest = hashlib.sha256(body).hexdigest()
        if digest in done:
            skipped += 1
        elif not _ranked(body.decode("utf-8", "replace")):
            unranked += 1
        else:
            todo.append((p, body, digest))
    bar = Progress("submitting", len(todo), unit="records")
    accepted = rejected = 0
    try:
        for i, (p, body, digest) in enumerate(todo):
            status, answer = call(url, "/api/games", body, content_type="text/plain")
            if status == 429:
                print("\n%s: %s; run submit again later" % (p, answer.get("error")), file=out)
                break
            if answer.get("status") in ("accepted", "duplicate"):
                accepted += 1
                done[digest] = "game %s" % answer.get("id")
                if answer.get("status") == "accepted":
                    rank = answer.get("rank")
                    print("\n%s: accepted: game %s, level %s%s" % (
                        p, answer.get("id"), answer.get("level"),
                        ", rank %d" % rank if rank else " (not a win)"), file=out)
            else:
                rejected += 1
                done[digest] = "rejected: %s" % answer.get("error")
                print("\n%s: rejected: %s" % (p, answer.get("error")), file=out)
            bar.update(i + 1)
    finally:
        save_state(state)
    bar.finish()
    print("%d accepted, %d rejected, %d submitted before, %d not ranked" % (
        accepted, rejected, skipped, unranked), file=out)
    return 0 if not rejected else 1
