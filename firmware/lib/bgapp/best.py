# The board's best wins: for each bot level the top 10 ranked wins on this board (name, country,
# points, the bot's pips left, date), ranked by points, then pips (more first), then the earlier
# game. Kept in /data/best.txt, a small file written atomically and ended by a check line; when
# it is missing or damaged it is rebuilt from the ranked records on flash.
#
#   BEST 1
#   <level> <points> <pips> <record> <date|-> <country> <name>     (one line per entry)
#   CHECK <first 8 hex digits of SHA-256 of the lines above>

import binascii
import hashlib
import os

TOP = 10


def _check(text):
    return binascii.hexlify(hashlib.sha256(text.encode()).digest()[:4]).decode()


def rank_key(e):
    # e = (points, pips, record, date, country, name)
    return (-e[0], -e[1], e[2])


class Best:
    def __init__(self, hal, journal):
        self.hal = hal
        self.journal = journal
        self.path = journal.dir + "/best.txt"
        self.levels = None        # level -> [entry, ...] best first, once loaded
        self.note = ""            # what happened at the last load (rebuilt and why)

    def load(self):
        """The table, read or (missing, damaged) rebuilt from the records."""
        if self.levels is not None:
            return self.levels
        why = self._read()
        if why:
            self.note = "best wins %s: rebuilt from the records" % why
            self.rebuild()
        return self.levels

    def _read(self):
        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            return "missing"
        lines = text.split("\n")
        while lines and not lines[-1]:
            lines.pop()
        if len(lines) < 2 or lines[0] != "BEST 1" or not lines[-1].startswith("CHECK "):
            return "damaged"
        body = "\n".join(lines[:-1]) + "\n"
        if lines[-1][6:] != _check(body):
            return "damaged"
        levels = {}
        try:
            for ln in lines[1:-1]:
                w = ln.split(" ", 6)
                if len(w) != 7:
                    return "damaged"
                levels.setdefault(int(w[0]), []).append(
                    (int(w[1]), int(w[2]), w[3], w[4], w[5], w[6]))
        except ValueError:
            return "damaged"
        self.levels = levels
        return None

    def _write(self):
        body = "BEST 1\n"
        for level in sorted(self.levels):
            for e in self.levels[level]:
                body += "%d %d %d %s %s %s %s\n" % ((level,) + e)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(body + "CHECK " + _check(body) + "\n")
        self.hal.sync()
        os.rename(tmp, self.path)
        self.hal.sync()

    def add(self, level, entry):
        """Put a ranked win in its level's table; returns its place (1-based, 0: not in the top)."""
        levels = self.load()
        rows = levels.setdefault(level, [])
        for e in rows:
            if e[2] == entry[2]:
                return rows.index(e) + 1     # already there (a resumed entry)
        rows.append(entry)
        rows.sort(key=rank_key)
        del rows[TOP:]
        self._write()
        return rows.index(entry) + 1 if entry in rows else 0

    def rebuild(self):
        """Read every ranked record on flash for its result (the watchdog fed between them)."""
        self.levels = {}
        for name in self.journal.records():
            found = win_of(self.journal.path(name), name)
            self.hal.feed()
            if found:
                level, entry = found
                rows = self.levels.setdefault(level, [])
                rows.append(entry)
                rows.sort(key=rank_key)
                del rows[TOP:]
        self._write()


def win_of(path, name):
    """(level, entry) for a finished, named ranked win on flash, else None. The board trusts
    its own records (each line's check still holds): the checkers are moved as the MOVE lines
    say, without generating plays, so a rebuild needs little time and heap."""
    from bgcore import Position
    from bgcore.record import checked_lines, RecordError
    info = {}
    raw = bytearray(Position.initial().raw)      # player 0's side first
    got = {}
    try:
        with open(path) as f:
            for no, payload in checked_lines(f):
                w = payload.split()
                if no == 1:
                    if " ranked=1" not in payload:
                        return None
                    for x in w:
                        k, _, v = x.partition("=")
                        info[k] = v
                elif w[0] == "MOVE":
                    side = w[1] == "1"
                    if side:
                        raw = raw[26:] + raw[:26]
                    for st in w[2:]:
                        s, _, t = st.partition("/")
                        _step(raw, int(s), int(t))
                    if side:
                        raw = raw[26:] + raw[:26]
                elif w[0] in ("END", "SEED", "NAME", "COUNTRY", "UNRANK"):
                    got[w[0]] = w
    except (OSError, RecordError, ValueError, IndexError):
        return None
    end = got.get("END")
    if "UNRANK" in got or not end or end[1] != "0" or "SEED" not in got or "NAME" not in got \
            or "COUNTRY" not in got or not info.get("level", "").isdigit():
        return None
    pips = 0
    for q in range(1, 26):
        pips += q * raw[26 + q]
    start = info.get("start", "-")
    return int(info["level"]), (int(end[2]), pips, name, start[:10] if len(start) >= 10 else "-",
                                got["COUNTRY"][1], " ".join(got["NAME"][1:]))


def _step(raw, s, t):
    # one checker of the side whose bytes come first from s to t, hitting a blot
    raw[s] -= 1
    raw[t] += 1
    if t and raw[51 - t] == 1:
        raw[51 - t] = 0
        raw[51] += 1
