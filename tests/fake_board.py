"""A hostile fake board for the tests: a small program on a pty that speaks the board's serial
protocol (docs/protocol.md: HELLO, LOGS, GET, DEL, WATCH, STATE) as a Pico would, and misbehaves
on request, as a broken or counterfeit board could (--case, list with --help). The client side
is whatever opens the link: `bgboard` with real pyserial.

    python tests/fake_board.py --link PATH --case NAME [--base DIR]

It prints READY once the link exists and serves until it is killed."""

import argparse
import base64
import hashlib
import os
import random
import select
import sys
import tty

HOSTILE_TEXT = ("\x1b]0;owned\x07"            # window title
                "\x1b]52;c;b3duZWQ=\x07"       # clipboard write (OSC 52)
                "\x1b[?1049h"                  # alternate screen
                "\x1b[3J"                      # clear the scrollback
                "\x1b]8;;http://evil.invalid/\x1b\\link"   # hyperlink
                "\u009b2J"                     # C1 CSI (UTF-8)
                "\u202etxt.exe")              # right-to-left override
# what must never reach a terminal raw (the screen's own drawing uses none of these)
HOSTILE_MARKS = ("\x1b]", "\x07", "\x1b[?1049h", "\x1b[3J", "\u009b", "\u202e", "\x9b")
GOOD_NAME = "0001.bgr"
BOARD_ID = "e6614c311b7a9f2b"

CASES = {
    "good": "a well-behaved board with one finished record",
    "name-dotdot": "LOGS names ../../escaped.bgr",
    "name-absolute": "LOGS names BASE/absolute.bgr (an absolute path)",
    "name-slash": "LOGS names sub/inner.bgr",
    "name-dot": "LOGS names .",
    "name-dotdot-bare": "LOGS names ..",
    "name-tilde": "LOGS names ~/x.bgr",
    "name-suffix": "LOGS names notes.txt (not a record)",
    "name-long": "LOGS names a 60-character record",
    "board-dotdot": "HELLO board=../../../../../esc",
    "board-absolute": "HELLO board=BASE/esc",
    "profile-path": "HELLO profile=../x/notprofile.json (a file the laptop has, not a profile)",
    "escapes": "escape sequences in every text field: fw, board, profile, hal, names, WATCH lines",
    "flood-bang": "after FILE, endless !EV lines of 1,000 characters",
    "flood-data": "after FILE, endless D lines at offset 0",
    "no-newline": "after FILE, a D line cut short without its newline, then silence (each GET)",
    "huge-size": "a record of 10 GB, its D lines coming without end",
    "long-line": "after WATCH on, one line without end (no newline)",
    "bad-led": "after WATCH on, !LED frames that are not hex, of a wrong length or brightness",
}


def good_record():
    """The one genuine record every case also offers: a bot-against-bot 1-point match."""
    from bgboard.games import play_record
    from bgcore.match import MATCH, Rules
    return play_record(Rules(MATCH, 1), random.Random(18), ("Ann", "Bob"),
                       start="2026-11-30T10:00:00", level=1).encode()


class FakeBoard:
    def __init__(self, case, base):
        self.case = case
        self.base = base
        self.good = good_record()
        self.records = {GOOD_NAME: self.good}
        hostile = {"name-dotdot": "../../escaped.bgr",
                   "name-absolute": os.path.join(base, "absolute.bgr"),
                   "name-slash": "sub/inner.bgr", "name-dot": ".", "name-dotdot-bare": "..",
                   "name-tilde": "~/x.bgr", "name-suffix": "notes.txt",
                   "name-long": "r" * 56 + ".bgr", "escapes": "e" + HOSTILE_TEXT + ".bgr"}
        if case in hostile:
            self.records[hostile[case]] = b"hostile\n"
        self.fields = {"fw": "0.1.0", "board": BOARD_ID, "profile": "reference", "hal": "virtual"}
        if case == "board-dotdot":
            self.fields["board"] = "../../../../../esc"
        elif case == "board-absolute":
            self.fields["board"] = os.path.join(base, "esc")
        elif case == "profile-path":
            self.fields["profile"] = "../x/notprofile.json"
        elif case == "escapes":
            self.fields = {k: v + HOSTILE_TEXT.replace(" ", "") for k, v in self.fields.items()}
        self.out = bytearray()      # bytes waiting to be sent
        self.stream = None          # a generator of more bytes to send, endlessly
        self.inbuf = b""

    # -- sending
    def send(self, line):
        self.out += line.encode("utf-8") + b"\r\n"

    def pending(self):
        if not self.out and self.stream is not None:
            self.out += next(self.stream)
        return bool(self.out)

    # -- requests
    def handle(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        if cmd == "HELLO":
            self.send("HELLO bgboard proto=1 " + " ".join("%s=%s" % kv for kv in
                                                          self.fields.items()))
        elif cmd == "STATE":
            self.send("STATE view=menu demo=0 settings=nocube,5,6,48")
        elif cmd == "LOGS":
            self.send("LOGS %d" % len(self.records))
            for name, data in self.records.items():
                size = 10 * 10 ** 9 if self.case == "huge-size" and name == GOOD_NAME \
                    else len(data)
                self.send("LOG %s %d %s" % (name, size, hashlib.sha256(data).hexdigest()))
        elif cmd == "GET" and len(words) in (2, 3):
            self.get(words[1], int(words[2]) if len(words) == 3 and words[2].isdigit() else 0)
        elif cmd == "DEL" and len(words) == 2:
            self.records.pop(words[1], None)
            self.send("OK DEL %s" % words[1])
        elif cmd == "WATCH" and len(words) == 2:
            self.send("OK WATCH %s" % words[1])
            if words[1] == "on":
                self.watch()
        elif cmd == "FAST":
            self.send("OK FAST %s" % " ".join(words[1:]))
        else:
            text = HOSTILE_TEXT if self.case == "escapes" else ""
            self.send("ERR unknown no command %s%s" % (cmd[:20], text))

    def get(self, name, offset):
        data = self.records.get(name)
        if data is None:
            self.send("ERR nofile %s" % name)
            return
        digest = hashlib.sha256(data).hexdigest()
        if self.case == "huge-size" and name == GOOD_NAME:
            self.send("FILE %s %d %s" % (name, 10 * 10 ** 9, digest))
            self.stream = self.endless_data(offset)
            return
        self.send("FILE %s %d %s" % (name, len(data), digest))
        if name == GOOD_NAME and self.case == "flood-bang":
            self.stream = self.endless(("!EV " + "x" * 1000 + "\r\n").encode())
            return
        first = base64.b64encode(data[offset:offset + 96]).decode()
        if name == GOOD_NAME and self.case == "flood-data":
            self.stream = self.endless(("D %d %s\r\n" % (offset, first)).encode())
            return
        if name == GOOD_NAME and self.case == "no-newline":
            self.out += ("D %d %s" % (offset, first[:50])).encode()
            return
        at = offset
        while at < len(data):
            self.send("D %d %s" % (at, base64.b64encode(data[at:at + 96]).decode()))
            at += 96
        self.send("END %s %d" % (name, len(data)))

    def watch(self):
        if self.case == "long-line":
            self.stream = self.endless(b"x" * 4096)
            return
        if self.case == "bad-led":
            for line in ("!LED 48 zzzz", "!LED 48 abc", "!LED 48 00ff", "!LED x 00",
                         "!LED 99999999999999999999 " + "00" * 768, "!LED", "!LED 48 "):
                self.send(line)
        text = HOSTILE_TEXT if self.case == "escapes" else ""
        frame = bytes((x * 16 + y) % 200 for y in range(16) for x in range(16) for _ in range(3))
        self.send("!LED 48 %s" % frame.hex())
        self.send("!TEXT menu%s|line two" % text)
        self.send("!EV ROLL 0 5 2%s" % text)
        self.send("!NO not now%s" % text)
        self.send("!ERROR fault%s" % text)

    @staticmethod
    def endless(chunk):
        block = chunk * max(1, 16384 // len(chunk))
        while True:
            yield block

    @staticmethod
    def endless_data(offset):
        chunk = bytes(range(96))
        line = base64.b64encode(chunk).decode()
        at = offset
        while True:
            out = []
            for _ in range(100):
                out.append("D %d %s\r\n" % (at, line))
                at += 96
            yield "".join(out).encode()

    # -- the pty
    def serve(self, link):
        master, slave = os.openpty()
        tty.setraw(slave)           # bytes pass as they are: no echo, no newline translation
        os.set_blocking(master, False)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(os.ttyname(slave), link)
        print("READY", flush=True)
        while True:
            want_write = [master] if self.pending() else []
            r, w, _ = select.select([master], want_write, [], 1.0)
            if r:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, InterruptedError):
                    data = b""
                except OSError:     # nobody has the port open at the moment
                    data = b""
                self.inbuf += data
                while True:
                    cut = [i for i in (self.inbuf.find(b"\n"), self.inbuf.find(b"\r")) if i >= 0]
                    if not cut:
                        break
                    i = min(cut)
                    line, self.inbuf = self.inbuf[:i], self.inbuf[i + 1:]
                    self.handle(line.decode("ascii", "replace").strip())
            if w and self.out:
                try:
                    n = os.write(master, self.out[:65536])
                    del self.out[:n]
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="cases: " + "; ".join("%s: %s" % kv
                                                              for kv in CASES.items()))
    ap.add_argument("--link", required=True, help="the port to create (a symbolic link)")
    ap.add_argument("--case", default="good", choices=sorted(CASES))
    ap.add_argument("--base", default=os.getcwd(), help="the folder absolute names point into")
    args = ap.parse_args()
    try:
        FakeBoard(args.case, args.base).serve(args.link)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
