# The board's side of ranked games' secrets (docs/leaderboard.md): server tickets waiting to be
# used, and the seed of the ranked game in progress. They live in /ranked beside /data, where
# GET and DEL cannot reach (file names there have no '/'), in small text files written
# atomically (a temporary file, then rename).
#
#   /ranked/tickets   one line per nonce: "<slot> <nonce hex>" asked for and waiting for its
#                     ticket, or "<slot> <nonce hex> <ticket id> <secret hex>" ready to use
#   /ranked/game      "<record name> <nonce hex> <secret hex|-> <ticket id|->": the ranked game
#                     in progress, so that a power cut resumes it with the same future dice

import binascii
import hashlib
import os

MAX_ASK = 20          # nonces asked for at once
MAX_READY = 50        # tickets kept


def entropy(hal):
    """32 bytes from the board's hardware randomness (hal.seed(): the RP2040's ring oscillator
    through os.urandom), mixed with the clock."""
    h = hashlib.sha256(b"bgboard nonce")
    for _ in range(16):
        v = hal.seed()
        h.update(bytes((v >> 24 & 255, v >> 16 & 255, v >> 8 & 255, v & 255)))
    t = hal.ticks_ms()
    h.update(bytes((t >> 24 & 255, t >> 16 & 255, t >> 8 & 255, t & 255)))
    return h.digest()


def _hex(b):
    return binascii.hexlify(b).decode()


class Tickets:
    def __init__(self, hal):
        self.hal = hal
        d = hal.data_dir
        self.dir = d[:d.rfind("/")] + "/ranked"
        try:
            os.mkdir(self.dir)
        except OSError:
            pass

    # ---- files -------------------------------------------------------------------------------
    def _read(self, name):
        try:
            with open(self.dir + "/" + name) as f:
                return [ln.split() for ln in f.read().split("\n") if ln.strip()]
        except OSError:
            return []

    def _write(self, name, rows):
        path = self.dir + "/" + name
        with open(path + ".tmp", "w") as f:
            for r in rows:
                f.write(" ".join(r) + "\n")
        self.hal.sync()
        os.rename(path + ".tmp", path)
        self.hal.sync()

    # ---- tickets -----------------------------------------------------------------------------
    def rows(self):
        out = []
        for r in self._read("tickets"):
            if len(r) in (2, 4) and r[0].isdigit() and len(r[1]) == 64:
                out.append(r)
        return out

    def status(self):
        """(tickets ready, nonces waiting for a ticket)"""
        rows = self.rows()
        ready = sum(1 for r in rows if len(r) == 4)
        return ready, len(rows) - ready

    def ask(self, n):
        """n fresh nonces, replacing those still waiting: [(slot, hex SHA-256 of the nonce)]."""
        rows = [r for r in self.rows() if len(r) == 4]
        if len(rows) + n > MAX_READY:
            raise ValueError("the board keeps at most %d tickets (%d ready)"
                             % (MAX_READY, len(rows)))
        slot = 1 + max([int(r[0]) for r in self._read("tickets") if r[0].isdigit()] or [0])
        out = []
        for k in range(n):
            nonce = entropy(self.hal)
            rows.append([str(slot + k), _hex(nonce)])
            out.append((slot + k, _hex(hashlib.sha256(nonce).digest())))
        self._write("tickets", rows)
        return out

    def add(self, slot, ticket_id, secret_hex):
        """Bind a server ticket to the nonce asked for in `slot`; None, or why not."""
        rows = self.rows()
        for r in rows:
            if r[0] == slot:
                if len(r) == 4:
                    return "slot %s already holds ticket %s" % (slot, r[2])
                r.append(ticket_id)
                r.append(secret_hex)
                self._write("tickets", rows)
                return None
        return "no nonce waits in slot %s (TICKETS ASK first)" % slot

    def begin(self, record):
        """The secrets of a new ranked game to be written as `record`: the oldest ready ticket
        (nonce, secret, id), or a fresh nonce without a ticket. They are kept for the game first,
        then the ticket leaves the list; a power cut between the two leaves a ticket that the
        kept game names, which is skipped here (a ticket is never used twice)."""
        kept = self._read("game")
        used = kept[0][3] if kept and len(kept[0]) == 4 else "-"
        rows = self.rows()
        pick = None
        for r in rows:
            if len(r) == 4 and r[2] != used:
                pick = r
                break
        if pick:
            nonce, secret, tid = binascii.unhexlify(pick[1]), binascii.unhexlify(pick[3]), pick[2]
        else:
            nonce, secret, tid = entropy(self.hal), b"", ""
        self.keep_game(record, nonce, secret, tid)
        left = [r for r in rows if not (len(r) == 4 and r[2] in (tid, used))]
        if len(left) != len(rows):
            self._write("tickets", left)
        return nonce, secret, tid

    # ---- the ranked game in progress ---------------------------------------------------------
    def keep_game(self, record, nonce, secret, ticket_id):
        self._write("game", [[record, _hex(nonce), _hex(secret) if secret else "-",
                              ticket_id or "-"]])

    def game(self, record):
        """(nonce, secret, ticket id) kept for `record`, or None."""
        for r in self._read("game"):
            if len(r) == 4 and r[0] == record and len(r[1]) == 64:
                try:
                    return (binascii.unhexlify(r[1]),
                            b"" if r[2] == "-" else binascii.unhexlify(r[2]),
                            "" if r[3] == "-" else r[3])
                except ValueError:
                    return None
        return None

    def forget_game(self):
        try:
            os.remove(self.dir + "/game")
            self.hal.sync()
        except OSError:
            pass
