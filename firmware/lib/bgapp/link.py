# The serial protocol server: text lines on the USB serial port (MicroPython's REPL stdio).
# Reads what has arrived without blocking, answers one line per request (or a counted block),
# and streams events and LED frames as lines beginning with "!" while WATCH is on. It never sends
# byte 0x03 and never reads it: Ctrl-C still reaches the interpreter. See docs/protocol.md.
# Every line goes out in ONE write (a power cut never splits a line from its end, so a line is
# never joined to the next boot's HELLO), built in buffers that are kept (the line's, add();
# the frame's): a long session's heap, free in small pieces, need not find a line-sized block.

import binascii
import gc
import sys

from micropython import const

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
_HEX_PIECE = const(64)  # a frame's bytes hexlified at a time into its line (128 characters)
_RESERVE = const(2048)  # the emergency reserve: room in one piece kept for the answers


class Link:
    def __init__(self, hal, app):
        self.hal = hal
        self.app = app
        self.buf = bytearray(MAX_LINE)   # the line being read (preallocated: no heap per byte)
        self.n = 0                # its length so far
        self.skipping = False     # an over-long line is being discarded up to its end
        self.bad = False          # the line holds a byte that is not printable text
        self.watching = False
        # the line being written (an answer or an event): built piece by piece (add) in a
        # buffer that grows to the longest line's size and is kept (STATE's: ~700 bytes in an
        # 8-player chouette), no string of the whole line made (STATE's grew by copies)
        self.obuf = bytearray(0)
        self.on = 0
        self.led = None           # the !LED line's buffer while WATCH is on (1.5 KB)
        # The emergency reserve: a block kept in one piece while nothing needs it. A long
        # session's heap has tens of KB free in small pieces and may have no 600 bytes in a row
        # (a littlefs file for an import or an open, a module's code): the reserve is let go
        # (let_go) before each request and each key (the collection of an allocation that finds
        # no room frees it) and after the loop's own work ran out (App.fault), and taken again
        # after the answer or the pass, after a collection: the block let go is free again then
        # and the new one takes its place. (Taken again at once, it landed beside the old one,
        # still uncollected, and walked up the heap; on the chip it came to rest where a word of
        # native code reads as its address, and the conservative collector kept the block let
        # go for good: 2 KB at 0x20039000, the Thumb pair str r0,[sp]; movs r0,#3.)
        self.reserve = None
        self.owed = True          # let go since the last retake: the next one collects first
        self.retake()

    # ---- the emergency reserve (let go: the next allocation that finds no room collects it) ---
    def let_go(self):
        """Let the reserve go: its room is the next allocations' once collected."""
        self.reserve = None
        self.owed = True

    def retake(self):
        """Take the reserve again if the heap has the room in one piece (else at the next
        call), after a collection the first time since it was let go."""
        if self.reserve is None:
            if self.owed:
                self.owed = False
                gc.collect()
            try:
                self.reserve = bytearray(_RESERVE)
            except MemoryError:
                pass

    # ---- output ------------------------------------------------------------------------------
    def add(self, piece):
        """Append a str (encoded: UTF-8) or bytes piece to the line being written."""
        b = piece.encode() if isinstance(piece, str) else piece
        n = self.on
        end = n + len(b)
        if end > len(self.obuf):
            bigger = bytearray(end + 128)
            bigger[:n] = memoryview(self.obuf)[:n]
            self.obuf = bigger
        self.obuf[n:end] = b
        self.on = end

    def line(self):
        """The line built, ended with CR LF (a view of the buffer; the next line starts)."""
        self.add(b"\r\n")
        n = self.on
        self.on = 0
        return memoryview(self.obuf)[:n]

    def send(self, line):
        self.on = 0               # (a line cut short by MemoryError is dropped, never sent)
        self.add(line)
        self.hal.write(self.line())

    def event(self, text):
        if self.watching:
            self.send("!" + text)

    def frame(self, brightness, frame):
        """Send a frame's !LED line if WATCH is on; False if it could not be made (out of
        memory: nothing was sent, the caller sends it later)."""
        if not self.watching:
            return True
        n = len(frame)
        try:
            if self.led is None:
                self.led = bytearray(11 + 2 * n)
            buf = memoryview(self.led)
            head = b"!LED %d " % brightness
            at = len(head)
            buf[:at] = head
            src = memoryview(frame)
            for i in range(0, n, _HEX_PIECE):
                h = binascii.hexlify(src[i:i + _HEX_PIECE])
                buf[at:at + len(h)] = h
                at += len(h)
        except MemoryError:
            return False
        buf[at:at + 2] = b"\r\n"
        self.hal.write(buf[:at + 2])
        return True

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
        self.let_go()           # (the answer may use the reserve's room)
        try:
            if skipping:
                self.send("ERR toolong a line has at most %d characters" % MAX_LINE)
            elif bad:
                self.send("ERR binary a line holds bytes that are not printable text")
            elif n:
                self.request(self.buf[:n].decode())
        except MemoryError:
            self.hal.write(_NO_MEMORY)
        self.retake()
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
    def _state(self, args):
        self.on = 0
        self.add(b"STATE ")
        self.app.state_into(self.add)
        self.hal.write(self.line())

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
        self.led = None           # (the !LED line's buffer: made by the next frame, kept
                                  # while WATCH is on)
        self.send("OK WATCH %s" % args[0].lower())
        if self.watching:
            self.app.dirty = True      # the current frame follows at once


_COMMANDS = {"STATE": Link._state, "KEY": Link._key, "WATCH": Link._watch}
# the requests a game does not need, in bgapp.link_more: loaded for one request, then dropped
_MORE = ("HELLO", "FAST", "LOGS", "GET", "DEL", "PULLED", "DEMO", "TICKETS")
