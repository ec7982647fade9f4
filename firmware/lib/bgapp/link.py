# The serial protocol server: text lines on the USB serial port (MicroPython's REPL stdio).
# Reads what has arrived without blocking, answers one line per request (or a counted block),
# and streams events and LED frames as lines beginning with "!" while WATCH is on. It never sends
# byte 0x03 and never reads it: Ctrl-C still reaches the interpreter. See docs/protocol.md.

import binascii
import sys

from micropython import const

PROTO = const(1)
MAX_LINE = const(120)
_KEYS = ("BAR", "OFF", "OK", "UNDO", "DOUBLE", "HINT", "MENU", "LEFT", "RIGHT", "SELECT",
         "BACK", "PIPS", "RESIGN")


def key_name_ok(name):
    if name in _KEYS:
        return True
    return (len(name) in (2, 3) and name[0] == "P" and name[1:].isdigit()
            and 1 <= int(name[1:]) <= 24)


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
        self.hal.feed()         # (a read may hold many short requests: a feed after each)

    def request(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0].upper()
        args = words[1:]
        try:
            h = _COMMANDS.get(cmd)
            if h is not None:
                h(self, args)
            elif cmd in _MORE:
                try:
                    from bgapp.link_more import HANDLERS
                    HANDLERS[cmd](self, args)
                finally:
                    HANDLERS = None
                    sys.modules.pop("bgapp.link_more", None)
                    pkg = sys.modules.get("bgapp")
                    if pkg and hasattr(pkg, "link_more"):
                        delattr(pkg, "link_more")
            else:
                self.send("ERR unknown no command %s (HELLO, STATE, KEY, LOGS, GET, DEL, PULLED, "
                          "WATCH, DEMO, FAST, TICKETS)" % cmd[:20])
        except MemoryError:
            self.app.unsettled = True       # (a KEY's event may be recorded: App.settle)
            try:
                self.send("ERR memory out of memory while answering %s" % cmd)
            except MemoryError:
                self.hal.write(_NO_MEMORY)
        except OSError as e:
            self.app.unsettled = True
            self.send("ERR io %s: %s" % (cmd, e))
        except Exception as e:
            self.app.unsettled = True
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

    def _watch(self, args):
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            self.send("ERR args WATCH takes on or off")
            return
        self.watching = args[0].lower() == "on"
        self.send("OK WATCH %s" % args[0].lower())
        if self.watching:
            self.app.dirty = True      # the current frame follows at once


def _fast(self, args):
    if len(args) != 1 or args[0].lower() not in ("on", "off"):
        self.send("ERR args FAST takes on or off")
        return
    self.app.fast = args[0].lower() == "on"
    self.send("OK FAST %s" % args[0].lower())


_COMMANDS = {"HELLO": Link._hello, "STATE": Link._state, "KEY": Link._key, "WATCH": Link._watch,
             "FAST": _fast}
# the requests a game does not need, in bgapp.link_more: loaded for one request, then dropped
_MORE = ("LOGS", "GET", "DEL", "PULLED", "DEMO", "TICKETS")
