"""The laptop's side of the board's serial protocol (docs/protocol.md) over pyserial: open the
port (exclusively: a second program on the same port is refused, not interleaved), handshake
with HELLO, send one request and read its answer, list and fetch records (GET with an offset,
so a broken transfer goes on where it stopped). Never sends byte 0x03."""

import binascii
import errno
import os
import time


CHUNK_MAX = 96         # file bytes in one D line at most
DATA_TIMEOUT = 3.0      # seconds of silence in the middle of a GET that mean the board is gone


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


def open_port(port, timeout=0.2):
    """pyserial on PORT, exclusively. Raises NoBoard or PortBusy with a message naming the port."""
    import serial
    try:
        return serial.serial_for_url(str(port), timeout=timeout, exclusive=True)
    except serial.SerialException as e:
        text = str(e)
        err = getattr(e, "errno", None)
        if err in (errno.EAGAIN, errno.EBUSY) or "exclusively lock" in text or "busy" in text:
            raise PortBusy("port %s is busy: another program holds it (a terminal, mpremote, "
                           "bgboard watch?); close that program and try again" % port)
        if err in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or not os.path.exists(str(port)):
            raise NoBoard("no board on %s (the port does not exist: is the board plugged in?)"
                          % port)
        raise LinkError("cannot open %s: %s" % (port, text))


def parse_fields(words):
    return dict(w.split("=", 1) for w in words if "=" in w)


class Board:
    """A protocol session with one board. Lines starting with '!' (WATCH) are kept in
    `events` while waiting for an answer."""

    def __init__(self, port, timeout=0.2):
        self.port = str(port)
        self.ser = open_port(port, timeout)
        self.events = []
        self.buf = b""
        self.hello_line = None
        self.info = {}

    def close(self):
        try:
            self.ser.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- lines
    def write(self, line):
        data = line.encode("ascii") + b"\n"
        assert b"\x03" not in data
        try:
            self.ser.write(data)
        except Exception as e:
            raise Disconnected("the board on %s went away while sending (%s)" % (self.port, e))

    def readline(self, timeout=10.0):
        """One line (without its end), or Disconnected after `timeout` seconds of silence."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if time.monotonic() > deadline:
                raise Disconnected("the board on %s stopped answering" % self.port)
            try:
                self.buf += self.ser.read(self.ser.in_waiting or 1)
            except Exception as e:
                raise Disconnected("the board on %s went away (%s)" % (self.port, e))
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r").decode("ascii", "replace")

    def answer(self, timeout=10.0):
        while True:
            line = self.readline(timeout)
            if line.startswith("!"):
                self.events.append(line)
            elif line:
                return line

    def request(self, line, timeout=10.0):
        self.write(line)
        return self.answer(timeout)

    # -- session
    def hello(self, timeout=15.0):
        """HELLO until the board answers (it may be booting, or stopped at MicroPython's prompt:
        then it is soft-reset once); returns HELLO's fields. Raises LinkError when something
        answers that is not bgboard firmware."""
        deadline = time.monotonic() + timeout
        seen = b""
        restarted = False
        while time.monotonic() < deadline:
            if not restarted and b">>> " in seen:
                # MicroPython's prompt: the firmware was stopped (mpremote, Ctrl-C). Ctrl-D at
                # an empty prompt is a soft reset, which runs main.py again
                self.ser.write(b"\x04")
                restarted = True
                seen = b""
                time.sleep(0.3)
            try:
                self.ser.write(b"\nHELLO\n")
            except Exception as e:
                raise Disconnected("the board on %s went away (%s)" % (self.port, e))
            end = time.monotonic() + 0.5
            while time.monotonic() < end:
                try:
                    line = self.ser.readline()
                except Exception as e:
                    raise Disconnected("the board on %s went away (%s)" % (self.port, e))
                seen = (seen + line)[-400:]
                text = line.rstrip(b"\r\n").decode("ascii", "replace")
                if text.startswith("HELLO bgboard"):
                    time.sleep(0.05)
                    self.ser.reset_input_buffer()
                    self.buf = b""
                    self.hello_line = text
                    self.info = parse_fields(text.split()[2:])
                    return self.info
        if restarted or b">>>" in seen or b"MicroPython" in seen or b"Traceback" in seen:
            raise LinkError("the board on %s runs MicroPython but not the bgboard firmware "
                            "(flash it: bgboard flash --port %s)" % (self.port, self.port))
        raise LinkError("no answer to HELLO on %s within %d s (is it a bgboard?)"
                        % (self.port, timeout))

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
        out = {}
        for _ in range(int(w[1])):
            line = self.answer()
            p = line.split()
            if len(p) < 4 or p[0] != "LOG" or not p[2].isdigit() or len(p[3]) != 64:
                raise Garbled("unexpected LOGS line: %r" % line[:80])
            out[p[1]] = (int(p[2]), p[3], "open" in p[4:])
        return out

    def get(self, name, offset=0, sink=None, progress=None):
        """GET NAME from OFFSET: each chunk's bytes go to sink(bytes) in order, a chunk only once
        the next line confirms where it ended. Returns (size, sha256) of the whole file as the
        board gives them. A line that does not fit (damaged on the way) raises Garbled, after
        everything sunk so far was sound: GET again from there."""
        head = self.request("GET %s %d" % (name, offset))
        w = head.split()
        if w[:1] == ["ERR"]:
            raise LinkError("the board refused GET %s: %s" % (name, head))
        if len(w) != 4 or w[0] != "FILE" or w[1] != name or not w[2].isdigit():
            self.drain()
            raise Garbled("unexpected answer to GET %s: %r" % (name, head[:80]))
        size, digest = int(w[2]), w[3]
        at = offset           # where the pending chunk starts
        pending = None
        while True:
            line = self.answer(DATA_TIMEOUT)
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
            if chunk is None or not chunk or len(chunk) > CHUNK_MAX:
                if p[0] != "END":
                    self.drain()
                raise Garbled("GET %s: a damaged line near byte %d" % (name, at))
            if pending is not None:
                sink and sink(pending)
                progress and progress(end, size)
            at, pending = end, chunk

    def drain(self, quiet=0.3):
        """Read and drop whatever the board is still sending, until it is quiet."""
        self.buf = b""
        last = time.monotonic()
        while time.monotonic() - last < quiet:
            try:
                data = self.ser.read(self.ser.in_waiting or 1)
            except Exception as e:
                raise Disconnected("the board on %s went away (%s)" % (self.port, e))
            if data:
                last = time.monotonic()

    def delete(self, name):
        ans = self.request("DEL %s" % name)
        if ans != "OK DEL %s" % name:
            raise LinkError("the board did not delete %s: %s" % (name, ans))
