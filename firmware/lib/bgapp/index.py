# The marks of the records the laptop pulled and verified (PULLED, docs/protocol.md), in
# /data/index.txt, loaded only for LOGS, PULLED, DEL and the flash's room (then dropped). Only a
# marked record may be deleted by the board itself when its flash runs low, and only once its
# sha256, computed again, still matches the mark. A closed record never changes (records are
# append-only, and only the record in progress is appended to).
# One line an entry, appended: "<name> <size> <sha256> 1"; the last line of a name counts; a torn
# last line is skipped; the file is written again without the lines of records no longer there
# when it holds many more lines than records. A mark is only ever trusted with the sha256 it
# names: a record deleted (DEL) and another one made later under its name is not that record.
# (The index once also kept every closed record's sha256 for LOGS and GET. Measured on the virtual
# board's full flash, a stat per record costs littlefs as much as opening and hashing a typical
# record, and appending the entries to a full flash made LOGS's longest watchdog gap 140 ms
# where hashing gave 38 ms: LOGS hashes every record, fed every 256 bytes.)

import binascii
import hashlib
import os

FILE = "index.txt"
BATCH = 32          # names looked up per pass over the file (the heap holds only these)


def closed(journal, name):
    """A record that is no longer written to (not the one in progress, nor one open)."""
    return name != journal.settings["current"] and not (name == journal.name and journal.f)


def lookup(journal, names):
    """{name: (size, sha256 hex, pulled)} of the entries of `names` (a few: see BATCH)."""
    from bgapp.journal import Fed     # (read a block at a time, the watchdog fed)
    want = set(names)
    out = {}
    try:
        f = open(journal.path(FILE), "rb")
    except OSError:
        return out
    with f:
        lines = Fed(f, journal.hal.feed)
        while True:
            line = lines.readline()
            if not line:
                break
            w = line.split()
            if len(w) == 4 and w[0] in want and line.endswith("\n") and len(w[2]) in (1, 64):
                try:
                    out[w[0]] = (int(w[1]), w[2], w[3] == "1")
                except ValueError:
                    pass
    return out


def add(journal, lines):
    """Append entries: (name, size, sha256, pulled) each."""
    if not lines:
        return
    feed = journal.hal.feed           # (a write to a full flash: journal.save_settings)
    feed()
    with open(journal.path(FILE), "a") as f:
        for name, size, digest, pulled in lines:
            f.write("%s %d %s %d\n" % (name, size, digest, 1 if pulled else 0))
    journal.hal.sync()
    feed()


def sha256(path, feed):
    """(size, sha256 hex) of a file, the watchdog fed every 256 bytes."""
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
            feed()
    return size, binascii.hexlify(h.digest()).decode()


def mark(journal, name, digest, feed):
    """PULLED: mark record `name` as pulled and verified when its sha256 is `digest`. Returns
    None, or why not."""
    if not closed(journal, name):
        return "%s is the record of the game in progress" % name
    size, now = sha256(journal.path(name), feed)
    if now != digest:
        return "%s has sha256 %s on the board, not the one given" % (name, now)
    add(journal, ((name, size, digest, True),))
    journal.offer = None
    compact(journal)
    return None


def pulled(journal):
    """(names, bytes) of the closed records marked pulled whose size still matches."""
    names = [n for n in journal.records() if closed(journal, n)]
    got = []
    total = 0
    for i in range(0, len(names), BATCH):
        known = lookup(journal, names[i:i + BATCH])
        for name in names[i:i + BATCH]:
            e = known.get(name)
            if e and e[2]:
                try:
                    size = os.stat(journal.path(name))[6]
                except OSError:
                    continue
                if size == e[0]:
                    got.append(name)
                    total += size
    return got, total


def delete_pulled(journal, feed):
    """Delete the records the laptop pulled and verified, each only when its sha256 computed
    now still matches its mark. Returns (records deleted, bytes)."""
    names, _ = pulled(journal)
    count = total = 0
    for i in range(0, len(names), BATCH):
        part = names[i:i + BATCH]
        known = lookup(journal, part)
        for name in part:
            e = known.get(name)
            path = journal.path(name)
            size, digest = sha256(path, feed)
            if not e or not e[2] or digest != e[1] or not closed(journal, name):
                continue
            os.remove(path)
            count += 1
            total += size
    journal.hal.sync()
    journal.changed()
    compact(journal)
    return count, total


def compact(journal):
    """Write the index again with the entries of the records still there, when it holds many
    more lines than records (appended entries go stale)."""
    path = journal.path(FILE)
    try:
        lines = 0
        with open(path, "rb") as f:
            buf = bytearray(256)
            while True:
                k = f.readinto(buf)
                if not k:
                    break
                lines += buf.count(b"\n", 0, k) if k < 256 else buf.count(b"\n")
    except OSError:
        return
    names = journal.records()
    if lines <= 2 * len(names) + 16:
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        for i in range(0, len(names), BATCH):
            part = names[i:i + BATCH]
            known = lookup(journal, part)
            for name in part:
                e = known.get(name)
                if e and e[0] >= 0:
                    out.write("%s %d %s %d\n" % (name, e[0], e[1], 1 if e[2] else 0))
    journal.hal.sync()
    journal.hal.feed()
    os.rename(tmp, path)
    journal.hal.sync()
    journal.hal.feed()
