"""The laptop's side of the board's serial protocol (docs/protocol.md), over any byte transport
(bgboard.transport: pyserial for a Pico or a virtual board, an in-memory pipe in the tests).

It frames lines (an answer may arrive in pieces, ending in \\r\\n or \\n), keeps the unsolicited
`!` lines (WATCH) apart from answers, and matches each answer to its request by the request's
own word: a late HELLO answer is never taken for the answer to STATE. LOGS and GET answers span
several lines; GET resumes at an offset and hands on a chunk only once the next line confirms
where it ended. It never sends byte 0x03 (Ctrl-C would stop the firmware); a board stopped at
MicroPython's prompt is restarted with Ctrl-D."""

import binascii
import time

from bgboard.safetext import for_terminal

CHUNK_MAX = 96           # file bytes in one D line at most
DATA_TIMEOUT = 3.0       # seconds of silence in the middle of a GET that mean the board is gone
ANSWER_TIMEOUT = 10.0    # seconds to wait for the answer to a request
STRAY_KEPT = 20          # lines that answered no request, kept for a message
# bounds on what a board can send (docs/protocol.md, "Bounds and names")
LINE_MAX = 8192          # bytes in one line with its end
EVENTS_KEPT = 64         # `!` lines kept while waiting (the oldest are dropped)
EVENTS_IN_A_ROW = 1000   # `!` lines in a row while one answer is awaited: more is a fault
RECORD_MAX = 1441792     # bytes in a record: a Pico's whole filesystem (352 blocks of 4 KB)
LOGS_MAX = 352           # records a board lists at most (a 4 KB block each at least)
DRAIN_MAX_BYTES = 65536  # what drain() drops at most before the board counts as flooding
DRAIN_MAX_SECONDS = 2.0


class LinkError(Exception):
    """Something the user must hear about the port or the board, said in plain words."""


class PortBusy(LinkError):
    pass


class NoBoard(LinkError):
    pass


class Disconnected(LinkError):
    pass


class Garbled(LinkError):
    """A line arrived damaged (bytes lost on the way); the request can be made again."""


class Flooded(LinkError):
    """The board passed a bound (docs/protocol.md): a line too long, too many `!` lines, a
    record too large, no end to its sending. Not worth asking again."""


def parse_fields(words):
    """`key=value` words as a dict (other words are left out)."""
    return dict(w.split("=", 1) for w in words if "=" in w)


# the first word of the answer to a request, where it is not the request's word itself
_ANSWER_WORD = {"GET": "FILE"}


def answers(request_word, line):
    """Whether LINE can be the answer to a request starting with REQUEST_WORD: `HELLO ...` to
    HELLO, `FILE ...` to GET, `OK KEY ...`/`NO KEY ...` to KEY, `ERR ...` to anything but
    `ERR unknown no command X` only to X."""
    words = line.split(" ", 5)
    head = words[0]
    if head == "ERR":
        return not (len(words) > 4 and words[1] == "unknown" and words[4] != request_word)
    if head in ("OK", "NO"):
        return len(words) > 1 and words[1] == request_word
    return head == _ANSWER_WORD.get(request_word, request_word)


class Client:
    """A protocol session with one board over TRANSPORT (an object with read(timeout) -> bytes,
    write(bytes), close(), a `name` and fileno() or None). `!` lines met while waiting for an
    answer are kept in `events`; lines that answer no request in `stray`."""

    def __init__(self, transport, name=None):
        self.transport = transport
        self.name = name or getattr(transport, "name", "the link")
        self.buf = b""
        self.seen = b""           # the last bytes received, raw (MicroPython's prompt has no end)
        self.events = []          # the last EVENTS_KEPT `!` lines
        self.stray = []
        self.hello_line = None
        self.info = {}

    def close(self):
        try:
            self.transport.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def fileno(self):
        return self.transport.fileno()

    # -- bytes and lines
    def write_raw(self, data):
        assert b"\x03" not in data, "byte 0x03 is Ctrl-C: it would stop the firmware"
        try:
            self.transport.write(data)
        except Exception as e:
            raise Disconnected("the board on %s went away while sending (%s)" % (self.name, e))

    def send(self, line):
        """Send one request line (no answer read)."""
        self.write_raw(line.encode("ascii") + b"\n")

    def _fill(self, timeout):
        try:
            data = self.transport.read(timeout)
        except Exception as e:
            raise Disconnected("the board on %s went away (%s)" % (self.name, e))
        if data:
            self.buf += data
            self.seen = (self.seen + data)[-400:]
            if len(self.buf) - (self.buf.rfind(b"\n") + 1) > LINE_MAX:
                self._too_long()
        return data

    def _too_long(self):
        self.buf = b""
        raise Flooded("the board on %s sent a line longer than %d bytes" % (self.name, LINE_MAX))

    def _keep_event(self, line):
        self.events.append(line)
        if len(self.events) > EVENTS_KEPT:
            del self.events[:-EVENTS_KEPT]

    def has_line(self):
        return b"\n" in self.buf

    def _take_line(self):
        line, self.buf = self.buf.split(b"\n", 1)
        if len(line) >= LINE_MAX:
            self._too_long()
        return line.rstrip(b"\r").decode("ascii", "replace")

    def next_line(self, timeout):
        """The next whole line (without its end), or None when none came within TIMEOUT. Once
        the time is up, what has already arrived is still taken (one look without waiting): a
        laptop that was busy elsewhere for the whole wait has not heard a silent board."""
        deadline = time.monotonic() + timeout
        looked = False
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                if looked:
                    return None
                looked, left = True, 0.0
            self._fill(min(left, 0.2))
        return self._take_line()

    def readline(self, timeout=ANSWER_TIMEOUT):
        """One line, or Disconnected after TIMEOUT seconds of silence."""
        line = self.next_line(timeout)
        if line is None:
            raise Disconnected("the board on %s stopped answering" % self.name)
        return line

    def lines(self, timeout=0.0):
        """Every whole line that has arrived, waiting up to TIMEOUT for the first bytes when
        none is there yet (for event loops: sim, watch)."""
        if b"\n" not in self.buf:
            self._fill(timeout)
        out = []
        while b"\n" in self.buf:
            out.append(self._take_line())
        return out

    def body_line(self, timeout=ANSWER_TIMEOUT):
        """The next line of a multi-line answer within TIMEOUT: `!` lines are kept aside (a
        window of EVENTS_KEPT; they do not extend the wait, and more than EVENTS_IN_A_ROW of
        them in a row is a fault), blank ones skipped."""
        deadline = time.monotonic() + timeout
        bangs = 0
        while True:
            line = self.readline(max(0.0, deadline - time.monotonic()))
            if line and not line.startswith("!"):
                return line
            if line:
                self._keep_event(line)
                bangs += 1
            if bangs > EVENTS_IN_A_ROW or time.monotonic() > deadline:
                raise Flooded("the board on %s sent %d '!' or blank lines in a row (in %.1f s) "
                              "instead of an answer" % (self.name, bangs,
                                                        time.monotonic() - deadline + timeout))

    def answer(self, word, timeout=ANSWER_TIMEOUT):
        """The answer to the request WORD: `!` lines are kept in `events`, lines that cannot
        answer it (a late answer to an earlier request, boot noise) in `stray`."""
        deadline = time.monotonic() + timeout
        others = 0
        while True:
            try:
                line = self.body_line(max(0.0, deadline - time.monotonic()))
            except Disconnected:
                if not others:
                    raise
                line = None     # the time ran out between two of the other lines
            if line is not None and answers(word, line):
                return line
            if line is not None:
                others += 1
                self.stray = (self.stray + [line])[-STRAY_KEPT:]
            if line is None or time.monotonic() > deadline:   # other lines, never the answer
                raise Flooded("the board on %s sent other lines for %d s but no answer to %s"
                              % (self.name, timeout, word))

    def request(self, line, timeout=ANSWER_TIMEOUT):
        """Send LINE and return its answer."""
        self.send(line)
        return self.answer(line.split(" ", 1)[0].upper(), timeout)

    def drain(self, quiet=0.3):
        """Read and drop whatever the board is still sending, until it is quiet for QUIET s;
        a board still sending after DRAIN_MAX_BYTES or DRAIN_MAX_SECONDS is a fault."""
        self.buf = b""
        start = last = time.monotonic()
        dropped = 0
        while time.monotonic() - last < quiet:
            data = self._fill(quiet)
            self.buf = b""
            if data:
                dropped += len(data)
                last = time.monotonic()
                if dropped > DRAIN_MAX_BYTES or last - start > DRAIN_MAX_SECONDS:
                    raise Flooded("the board on %s does not stop sending (%d bytes in %.1f s "
                                  "after a damaged line)" % (self.name, dropped, last - start))

    # -- session
    def hello(self, timeout=15.0):
        """HELLO until the board answers (it may be booting, or stopped at MicroPython's prompt:
        then it is soft-reset once); returns HELLO's fields. Raises LinkError when something
        answers that is not bgboard firmware."""
        deadline = time.monotonic() + timeout
        self.seen = b""
        restarted = False
        while time.monotonic() < deadline:
            if not restarted and b">>> " in self.seen:
                # MicroPython's prompt: the firmware was stopped (mpremote, Ctrl-C). Ctrl-D at
                # an empty prompt is a soft reset, which runs main.py again
                self.write_raw(b"\x04")
                restarted = True
                self.seen = b""
                self.next_line(0.3)        # the reboot's first line, if it comes at once
            # with the laptop's date and time: the board has no clock of its own, and its
            # records' start= come from it
            self.write_raw(b"\nHELLO time=%s\n" % time.strftime("%Y-%m-%dT%H:%M:%S").encode())
            end = min(deadline, time.monotonic() + 0.5)
            while True:
                line = self.next_line(max(0.0, end - time.monotonic()))
                if line is None:
                    break
                if line.startswith("HELLO bgboard"):
                    self.hello_line = line
                    self.info = parse_fields(line.split()[2:])
                    return self.info
                if line.startswith("!"):
                    self._keep_event(line)
                if time.monotonic() > end:      # lines keep coming, none of them HELLO's
                    break
        seen = self.seen
        if restarted or b">>>" in seen or b"MicroPython" in seen or b"Traceback" in seen:
            raise LinkError("the board on %s runs MicroPython but not the bgboard firmware "
                            "(flash it: bgboard flash --port %s)" % (self.name, self.name))
        raise LinkError("no answer to HELLO on %s within %d s (is it a bgboard?)"
                        % (self.name, timeout))

    # -- records
    def logs(self, tries=3):
        """{name: (size, sha256, open)} of the records on the board (asked again when the
        answer arrives damaged)."""
        for attempt in range(tries):
            try:
                return self._logs()
            except Garbled:
                if attempt == tries - 1:
                    raise
                self.drain()

    def _logs(self):
        head = self.request("LOGS")
        w = head.split()
        if len(w) != 2 or w[0] != "LOGS" or not w[1].isdigit():
            raise Garbled("unexpected answer to LOGS: %r" % head[:80])
        if int(w[1]) > LOGS_MAX:
            raise Flooded("the board on %s lists %s records, more than its flash can hold (%d)"
                          % (self.name, w[1][:20], LOGS_MAX))
        out = {}
        self.marked = set()       # the records the board says are marked pulled (PULLED)
        for _ in range(int(w[1])):
            line = self.body_line()
            p = line.split()
            if len(p) < 4 or p[0] != "LOG" or not p[2].isdigit() or len(p[3]) != 64:
                raise Garbled("unexpected LOGS line: %r" % line[:80])
            out[p[1]] = (int(p[2]), p[3], "open" in p[4:])
            if "pulled" in p[4:]:
                self.marked.add(p[1])
        return out

    def get(self, name, offset=0, sink=None, progress=None):
        """GET NAME from OFFSET: each chunk's bytes go to sink(bytes) in order, a chunk only once
        the next line confirms where it ended. Returns (size, sha256) of the whole file as the
        board gives them. A line that does not fit (damaged on the way, or the board restarted)
        raises Garbled after everything sunk so far was sound: GET again from there."""
        head = self.request("GET %s %d" % (name, offset))
        w = head.split()
        if w[:1] == ["ERR"]:
            raise LinkError("the board refused GET %s: %s" % (name, for_terminal(head, 200)))
        if len(w) != 4 or w[1] != name or not w[2].isdigit():
            self.drain()
            raise Garbled("unexpected answer to GET %s: %r" % (name, head[:80]))
        size, digest = int(w[2]), w[3]
        if size > RECORD_MAX:
            raise Flooded("%s: the board declares %d bytes, more than a board's flash holds "
                          "(%d)" % (name, size, RECORD_MAX))
        at = offset           # where the pending chunk starts
        pending = None
        while True:
            line = self.body_line(DATA_TIMEOUT)
            p = line.split(" ", 2)
            end = at + (len(pending) if pending is not None else 0)
            if p[0] == "END" and line == "END %s %d" % (name, end) and end == size:
                if pending:
                    sink and sink(pending)
                    progress and progress(end, size)
                return size, digest
            chunk = None
            if len(p) == 3 and p[0] == "D" and p[1] == str(end):
                try:
                    chunk = binascii.a2b_base64(p[2])
                except (binascii.Error, ValueError):
                    chunk = None
            if chunk is None or not chunk or len(chunk) > CHUNK_MAX or end + len(chunk) > size:
                if p[0] != "END":
                    self.drain()
                raise Garbled("GET %s: a damaged line near byte %d" % (name, at))
            if pending is not None:
                sink and sink(pending)
                progress and progress(end, size)
            at, pending = end, chunk

    def pulled(self, name, digest):
        """Mark record NAME as pulled and verified (its sha256 DIGEST): the board may then
        delete it when its flash runs low. True when marked; False when the board did not
        (its record differs now, or its firmware has no PULLED)."""
        ans = self.request("PULLED %s %s" % (name, digest))
        return ans == "OK PULLED %s" % name

    def delete(self, name):
        ans = self.request("DEL %s" % name)
        if ans != "OK DEL %s" % name:
            raise LinkError("the board did not delete %s: %s" % (name, for_terminal(ans, 200)))
