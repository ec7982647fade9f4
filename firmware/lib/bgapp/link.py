# The serial protocol server: text lines on the USB serial port (MicroPython's REPL stdio).
# Reads what has arrived without blocking, answers one line per request (or a counted block),
# and streams events and LED frames as lines beginning with "!" while WATCH is on. It never sends
# byte 0x03 and never reads it: Ctrl-C still reaches the interpreter. See docs/protocol.md.

import binascii
import hashlib
import os

from micropython import const

PROTO = const(1)
MAX_LINE = const(120)
CHUNK = const(96)          # file bytes per D line (128 characters of base64)
_KEYS = ("BAR", "OFF", "OK", "UNDO", "DOUBLE", "HINT", "MENU", "LEFT", "RIGHT", "SELECT",
         "BACK", "PIPS", "RESIGN")


def key_name_ok(name):
    if name in _KEYS:
        return True
    return (len(name) in (2, 3) and name[0] == "P" and name[1:].isdigit()
            and 1 <= int(name[1:]) <= 24)


def _name_ok(name):
    if not name or len(name) > 40 or name[0] == ".":
        return False
    for c in name:
        if not (c.isalpha() or c.isdigit() or c in "._-"):
            return False
    return True


_NO_MEMORY = b"ERR memory out of memory while answering\r\n"   # made at import: sent when
                                                                # nothing more can be allocated


class Link:
    def __init__(self, hal, app):
        self.hal = hal
        self.app = app
        self.buf = bytearray(MAX_LINE)   # the line being read (preallocated: no heap per byte)
        self.n = 0                # its length so far
        self.skipping = False     # an over-long line is being discarded up to its end
        self.bad = False          # the line holds a byte that is not printable text
        self.watching = False

    # ---- output ------------------------------------------------------------------------------
    def send(self, line):
        self.hal.write(line.encode() + b"\r\n")

    def event(self, text):
        if self.watching:
            self.send("!" + text)

    def frame(self, brightness, frame):
        if self.watching:
            self.hal.write(b"!LED %d " % brightness)
            self.hal.write(binascii.hexlify(frame))
            self.hal.write(b"\r\n")

    # ---- input -------------------------------------------------------------------------------
    # One answer per request, whatever comes: every line that is not blank is answered once, in
    # order (an answer, or ERR toolong / binary / memory). Nothing is dropped on the board: the
    # serial port is flow-controlled (a Pico's USB holds what the board has not read, and the
    # host's writes wait), and the board reads on while input is waiting (poll's result).
    def poll(self):
        """Read and answer what has arrived; True if anything did (more may be waiting)."""
        data = self.hal.read()
        if not data:
            return False
        buf = self.buf
        for b in data:
            if b == 10 or b == 13:
                self._end()
            elif self.skipping:
                continue
            elif self.n >= MAX_LINE:
                self.skipping = True
            elif (b < 32 or b > 126) and b != 9:
                self.bad = True
            else:
                buf[self.n] = b
                self.n += 1
        return True

    def _end(self):
        n = self.n
        skipping, bad = self.skipping, self.bad
        self.n = 0
        self.skipping = self.bad = False
        try:
            if skipping:
                self.send("ERR toolong a line has at most %d characters" % MAX_LINE)
            elif bad:
                self.send("ERR binary a line holds bytes that are not printable text")
            elif n:
                self.request(self.buf[:n].decode())
        except MemoryError:
            self.hal.write(_NO_MEMORY)

    def request(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0].upper()
        args = words[1:]
        try:
            h = _COMMANDS.get(cmd)
            if h is None:
                self.send("ERR unknown no command %s (HELLO, STATE, KEY, LOGS, GET, DEL, WATCH, "
                          "DEMO, FAST, TICKETS)" % cmd[:20])
                return
            h(self, args)
        except MemoryError:
            try:
                self.send("ERR memory out of memory while answering %s" % cmd)
            except MemoryError:
                self.hal.write(_NO_MEMORY)
        except OSError as e:
            self.send("ERR io %s: %s" % (cmd, e))
        except Exception as e:
            self.send("ERR internal %s: %r" % (cmd, e))

    # ---- commands ----------------------------------------------------------------------------
    def _hello(self, args):
        a = self.app
        for arg in args:            # HELLO time=...: the host's date and time, for the records
            if arg.startswith("time="):
                from bgapp import clock
                why = clock.set_from(arg[5:])
                if why:
                    self.send("ERR args " + why)
                    return
        self.send("HELLO bgboard proto=%d fw=%s board=%s profile=%s hal=%s"
                  % (PROTO, a.FW, self.hal.board_id(), a.profile.get("name", "-"),
                     a.profile.get("hal", "-")))

    def _state(self, args):
        self.send("STATE " + self.app.state_text())

    def _key(self, args):
        long = len(args) == 2 and args[1].lower() == "long"
        if len(args) != 1 and not long:
            self.send("ERR args KEY takes a key name and, for a long press, long: "
                      "e.g. KEY P13, KEY SELECT long")
            return
        name = args[0].upper()
        if not key_name_ok(name):
            self.send("ERR badkey %s is not a key (P1-P24, BAR, OFF, OK, UNDO, DOUBLE, HINT, "
                      "MENU, LEFT, RIGHT, SELECT, BACK, PIPS, RESIGN)" % args[0][:20])
            return
        # the same input layer as the board's keys: a long press's meaning, the cursor
        lk = self.app.input.remote(name, long)
        why = None
        if lk:
            why = self.app.press(lk)
        else:
            self.app.dirty = True             # the cursor moved: draw it
        name = name + " long" if long else name
        if why:
            self.send("NO KEY %s %s" % (name, why))
        else:
            self.send("OK KEY %s" % name)

    def _logs(self, args):
        j = self.app.journal
        names = j.records()
        self.send("LOGS %d" % len(names))
        for n in names:
            size, digest = self._digest(j.path(n))
            self.send("LOG %s %d %s%s" % (n, size, digest,
                                          " open" if n == j.name and j.f else ""))

    def _digest(self, path):
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
                self.hal.feed()           # LOGS hashes every record: feed inside
        return size, binascii.hexlify(h.digest()).decode()

    def _get(self, args):
        if not 1 <= len(args) <= 2:
            self.send("ERR args GET takes a record name and an optional offset")
            return
        name = args[0]
        if not _name_ok(name):
            self.send("ERR args %r is not a file name" % name[:40])
            return
        path = self.app.journal.path(name)
        try:
            size, digest = self._digest(path)
        except OSError:
            self.send("ERR nofile no file %s on the board" % name)
            return
        off = 0
        if len(args) == 2:
            if not args[1].isdigit() or int(args[1]) > size:
                self.send("ERR args offset %s is not a number from 0 to %d" % (args[1][:20], size))
                return
            off = int(args[1])
        self.send("FILE %s %d %s" % (name, size, digest))
        buf = bytearray(CHUNK)
        with open(path, "rb") as f:
            f.seek(off)
            while off < size:
                k = f.readinto(buf)
                if not k:
                    break
                self.hal.write(b"D %d " % off)
                self.hal.write(binascii.b2a_base64(buf[:k] if k < CHUNK else buf))  # ends \n
                off += k
                self.hal.feed()
        self.send("END %s %d" % (name, off))

    def _del(self, args):
        if len(args) != 1 or not _name_ok(args[0]):
            self.send("ERR args DEL takes one file name")
            return
        j = self.app.journal
        name = args[0]
        if name == j.name or name == j.settings.get("current"):
            self.send("ERR busy %s is the record of the game in progress" % name)
            return
        if name == "settings.json":
            self.send("ERR busy settings.json is not a record")
            return
        try:
            os.remove(j.path(name))
        except OSError:
            self.send("ERR nofile no file %s on the board" % name)
            return
        self.hal.sync()
        self.send("OK DEL %s" % name)

    def _watch(self, args):
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            self.send("ERR args WATCH takes on or off")
            return
        self.watching = args[0].lower() == "on"
        self.send("OK WATCH %s" % args[0].lower())
        if self.watching:
            self.app.dirty = True      # the current frame follows at once

    def _demo(self, args):
        if not args or len(args) > 2 or not args[0].isdigit() or not 1 <= int(args[0]) <= 999 \
                or (len(args) == 2 and args[1].lower() != "fast"):
            self.send("ERR args DEMO takes a number of games (1-999) and optionally fast")
            return
        fast = len(args) == 2
        why = self.app.start_demo(int(args[0]), fast)
        if why:
            self.send("NO DEMO %s" % why)
        else:
            self.send("OK DEMO %d%s" % (int(args[0]), " fast" if fast else ""))


def _fast(self, args):
    if len(args) != 1 or args[0].lower() not in ("on", "off"):
        self.send("ERR args FAST takes on or off")
        return
    self.app.fast = args[0].lower() == "on"
    self.send("OK FAST %s" % args[0].lower())


def _tickets(self, args):
    # the tickets' code leaves the heap after the answer (unless a ranked game holds it): a
    # stream of TICKETS lines must not grow the heap
    import sys
    had = [m for m in _TICKETS_CODE if m in sys.modules]
    try:
        _tickets_answer(self, args)
    finally:
        for m in _TICKETS_CODE:
            if m not in had and m in sys.modules:
                del sys.modules[m]
                pkg, name = m.split(".")
                if hasattr(sys.modules.get(pkg), name):
                    delattr(sys.modules[pkg], name)


_TICKETS_CODE = ("bgapp.tickets", "bgcore.rankfields")


def _tickets_answer(self, args):
    # server tickets for ranked games (docs/protocol.md, docs/leaderboard.md)
    from bgapp.tickets import Tickets, MAX_ASK
    t = Tickets(self.hal)
    sub = args[0].upper() if args else ""
    if not args:
        ready, asked = t.status()
        self.send("TICKETS ready=%d asked=%d board=%s" % (ready, asked, self.hal.board_id()))
    elif sub == "ASK" and len(args) == 2 and args[1].isdigit() and 1 <= int(args[1]) <= MAX_ASK:
        try:
            made = t.ask(int(args[1]))
        except ValueError as e:
            self.send("NO TICKETS %s" % e)
            return
        self.send("TICKETS ASK %d" % len(made))
        for slot, digest in made:
            self.send("NONCE %d %s" % (slot, digest))
    elif sub == "ADD" and len(args) == 4:
        from bgcore.rankfields import check_ticket_id
        slot, tid, secret = args[1], args[2], args[3].lower()
        try:
            check_ticket_id(tid)
        except ValueError as e:
            self.send("ERR args %s" % e)
            return
        if not slot.isdigit() or len(secret) != 32 or \
                any(c not in "0123456789abcdef" for c in secret):
            self.send("ERR args TICKETS ADD takes a slot number, a ticket id and a secret of "
                      "32 hex digits")
            return
        why = t.add(slot, tid, secret)
        if why:
            self.send("NO TICKETS %s" % why)
        else:
            self.send("OK TICKETS ADD %s %s" % (slot, tid))
    else:
        self.send("ERR args TICKETS takes nothing, ASK <1-%d>, or ADD <slot> <id> <secret>"
                  % MAX_ASK)


_COMMANDS = {"HELLO": Link._hello, "STATE": Link._state, "KEY": Link._key, "LOGS": Link._logs,
             "GET": Link._get, "DEL": Link._del, "WATCH": Link._watch, "DEMO": Link._demo,
             "FAST": _fast, "TICKETS": _tickets}
