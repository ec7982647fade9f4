# The serial requests a game does not need: HELLO and FAST, the records (LOGS, GET, DEL,
# PULLED), DEMO and TICKETS.
# bgapp.link loads this module for one of them and drops it after (its code stays off the heap
# while a game runs). Each handler takes the Link and the request's words. See docs/protocol.md.

import binascii
import hashlib
import os

from micropython import const

CHUNK = const(96)          # file bytes per D line (128 characters of base64)
_PROTO = const(1)          # the protocol's version (HELLO proto=)


def _name_ok(name):
    if not name or len(name) > 40 or name[0] == ".":
        return False
    for c in name:
        if not (c.isalpha() or c.isdigit() or c in "._-"):
            return False
    return True


def hello(link, args):
    a = link.app
    for arg in args:            # HELLO time=...: the host's date and time, for the records
        if arg.startswith("time="):
            from bgapp import clock
            why = clock.set_from(arg[5:])
            if why:
                link.send("ERR args " + why)
                return
    link.send("HELLO bgboard proto=%d fw=%s board=%s profile=%s hal=%s"
              % (_PROTO, a.FW, link.hal.board_id(), a.profile.get("name", "-"),
                 a.profile.get("hal", "-")))


def fast(link, args):
    w = " ".join(args).lower()
    if w not in ("on", "off"):
        link.send("ERR args FAST takes on or off")
        return
    link.app.fast = w == "on"
    link.send("OK FAST " + w)


def logs(link, args):
    j = link.app.journal
    names = j.records()
    link.send("LOGS %d" % len(names))
    from bgapp.index import lookup, BATCH      # the marks (PULLED); dropped with this module
    for i in range(0, len(names), BATCH):
        part = names[i:i + BATCH]
        marks = lookup(j, part)
        for n in part:
            size, digest = _digest(link, j.path(n))
            m = marks.get(n)
            link.send("LOG %s %d %s%s%s" % (n, size, digest,
                                            " open" if n == j.name and j.f else "",
                                            " pulled" if m and m[2] and m[1] == digest else ""))
    _drop_index()


def _drop_index():
    import sys
    sys.modules.pop("bgapp.index", None)
    pkg = sys.modules.get("bgapp")
    if pkg and hasattr(pkg, "index"):
        delattr(pkg, "index")


def _digest(link, path):
    h = hashlib.sha256()
    size = 0
    buf = bytearray(256)
    with open(path, "rb") as f:
        while True:
            k = f.readinto(buf)
            if not k:
                break
            size += k
            h.update(buf[:k] if k < 256 else buf)
            link.hal.feed()           # LOGS hashes every record: feed inside
    return size, binascii.hexlify(h.digest()).decode()


def pulled(link, args):
    """PULLED <name> <sha256>: the laptop holds this record, verified (bgboard logs pull): the
    board may delete it when its flash runs low."""
    if len(args) != 2 or not _name_ok(args[0]) or not args[0].endswith(".bgr") \
            or len(args[1]) != 64 or any(c not in "0123456789abcdef" for c in args[1]):
        link.send("ERR args PULLED takes a record name and its sha256 (64 hex digits)")
        return
    name = args[0]
    j = link.app.journal
    try:
        os.stat(j.path(name))
    except OSError:
        link.send("ERR nofile no file %s on the board" % name)
        return
    from bgapp import index
    why = index.mark(j, name, args[1], link.hal.feed)
    _drop_index()
    if why:
        link.send("NO PULLED %s %s" % (name, why))
    else:
        link.send("OK PULLED %s" % name)


def get(link, args):
    if not 1 <= len(args) <= 2:
        link.send("ERR args GET takes a record name and an optional offset")
        return
    name = args[0]
    if not _name_ok(name):
        link.send("ERR args %r is not a file name" % name[:40])
        return
    j = link.app.journal
    path = j.settings_path() if name == "settings.json" else j.path(name)
    try:
        size, digest = _digest(link, path)
    except OSError:
        link.send("ERR nofile no file %s on the board" % name)
        return
    off = 0
    if len(args) == 2:
        if not args[1].isdigit() or int(args[1]) > size:
            link.send("ERR args offset %s is not a number from 0 to %d" % (args[1][:20], size))
            return
        off = int(args[1])
    link.send("FILE %s %d %s" % (name, size, digest))
    buf = bytearray(CHUNK)
    with open(path, "rb") as f:
        f.seek(off)
        while off < size:
            k = f.readinto(buf)
            if not k:
                break
            # the D line in one write (its base64 ends in \n)
            link.hal.write(b"D %d " % off + binascii.b2a_base64(buf[:k] if k < CHUNK else buf))
            off += k
            link.hal.feed()
    link.send("END %s %d" % (name, off))


def delete(link, args):
    if len(args) != 1 or not _name_ok(args[0]):
        link.send("ERR args DEL takes one file name")
        return
    j = link.app.journal
    name = args[0]
    from bgapp.index import closed      # as PULLED has it: the record written to or to resume
    done = closed(j, name)              # stays; a finished one whose name STATE keeps may go
    _drop_index()
    if not done:
        link.send("ERR busy %s is the record of the game in progress" % name)
        return
    if name == "settings.json":
        link.send("ERR busy settings.json is not a record")
        return
    try:
        os.remove(j.path(name))
    except OSError:
        link.send("ERR nofile no file %s on the board" % name)
        return
    link.hal.sync()
    j.changed()
    link.send("OK DEL %s" % name)


def demo(link, args):
    if not args or len(args) > 2 or not args[0].isdigit() or not 1 <= int(args[0]) <= 999 \
            or (len(args) == 2 and args[1].lower() != "fast"):
        link.send("ERR args DEMO takes a number of games (1-999) and optionally fast")
        return
    fast = len(args) == 2
    why = link.app.start_demo(int(args[0]), fast)
    if why:
        link.send("NO DEMO %s" % why)
    else:
        link.send("OK DEMO %d%s" % (int(args[0]), " fast" if fast else ""))


def tickets(link, args):
    # the tickets' code leaves the heap after the answer (unless a ranked game holds it): a
    # stream of TICKETS lines must not grow the heap
    import sys
    had = [m for m in _TICKETS_CODE if m in sys.modules]
    try:
        _tickets_answer(link, args)
    finally:
        from bgapp.app import drop
        for m in _TICKETS_CODE:
            if m not in had:
                drop(m)


_TICKETS_CODE = ("bgapp.tickets", "bgcore.rankfields")


def _tickets_answer(link, args):
    # server tickets for ranked games (docs/protocol.md, docs/leaderboard.md)
    from bgapp.tickets import Tickets, MAX_ASK
    t = Tickets(link.hal)
    sub = args[0].upper() if args else ""
    if not args:
        ready, asked = t.status()
        link.send("TICKETS ready=%d asked=%d board=%s" % (ready, asked, link.hal.board_id()))
    elif sub == "ASK" and len(args) == 2 and args[1].isdigit() and 1 <= int(args[1]) <= MAX_ASK:
        try:
            made = t.ask(int(args[1]))
        except ValueError as e:
            link.send("NO TICKETS %s" % e)
            return
        link.send("TICKETS ASK %d" % len(made))
        for slot, digest in made:
            link.send("NONCE %d %s" % (slot, digest))
    elif sub == "ADD" and len(args) == 4:
        from bgcore.rankfields import check_ticket_id
        slot, tid, secret = args[1], args[2], args[3].lower()
        try:
            check_ticket_id(tid)
        except ValueError as e:
            link.send("ERR args %s" % e)
            return
        if not slot.isdigit() or len(secret) != 32 or \
                any(c not in "0123456789abcdef" for c in secret):
            link.send("ERR args TICKETS ADD takes a slot number, a ticket id and a secret of "
                      "32 hex digits")
            return
        why = t.add(slot, tid, secret)
        if why:
            link.send("NO TICKETS %s" % why)
        else:
            link.send("OK TICKETS ADD %s %s" % (slot, tid))
    else:
        link.send("ERR args TICKETS takes nothing, ASK <1-%d>, or ADD <slot> <id> <secret>"
                  % MAX_ASK)


HANDLERS = {"HELLO": hello, "FAST": fast, "LOGS": logs, "GET": get, "DEL": delete,
            "PULLED": pulled, "DEMO": demo, "TICKETS": tickets}
