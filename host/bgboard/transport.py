"""Byte transports for the protocol client (bgboard.protocol): a serial port through pyserial
(a Pico's USB serial port, or the pty of a virtual board of any kind), and an in-memory pipe
for tests. A transport has a `name`, read(timeout) -> bytes (b"" when nothing came; an
exception when the link is gone), write(bytes), fileno() (None when it cannot be selected on)
and close()."""

import errno
import os
import select
import threading
import time

from bgboard.protocol import LinkError, NoBoard, PortBusy


def open_port(port, timeout=0.2):
    """pyserial on PORT, exclusively (a second program on the same port is refused, not
    interleaved). Raises NoBoard or PortBusy with a message naming the port."""
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


class SerialTransport:
    """A serial port (a device path or a pyserial URL), opened exclusively."""

    def __init__(self, port, timeout=0.2):
        self.name = str(port)
        self.ser = open_port(port, timeout)
        try:
            self.fd = self.ser.fileno()
        except Exception:          # a pyserial URL without a file descriptor
            self.fd = None

    def fileno(self):
        return self.fd

    def read(self, timeout):
        ser = self.ser
        n = ser.in_waiting
        if not n and self.fd is not None:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return b""
        # with a descriptor ready, pyserial's read raises when the device is gone
        return ser.read(n or ser.in_waiting or 1)

    def write(self, data):
        self.ser.write(data)

    def close(self):
        self.ser.close()


class MemoryTransport:
    """Both ends of an in-memory link: the client's side is the transport interface; the test's
    side is feed(bytes) (what the board sends) and `sent` (what the client wrote). A RESPONDER
    function, called with each write, plays the board. At most `piece` bytes come out of one
    read, so lines arrive in pieces as they do over a serial port. hang_up() makes reads fail
    once the fed bytes are taken, as a pulled cable does."""

    name = "memory"

    def __init__(self, responder=None, piece=7):
        self.responder = responder
        self.piece = piece
        self.sent = bytearray()
        self.incoming = bytearray()
        self.gone = False
        self.cond = threading.Condition()

    def feed(self, data):
        with self.cond:
            self.incoming += data
            self.cond.notify_all()

    def hang_up(self):
        with self.cond:
            self.gone = True
            self.cond.notify_all()

    def fileno(self):
        return None

    def read(self, timeout):
        with self.cond:
            end = time.monotonic() + timeout
            while not self.incoming and not self.gone:
                left = end - time.monotonic()
                if left <= 0:
                    return b""
                self.cond.wait(left)
            if not self.incoming:
                raise OSError(errno.EIO, "the link is gone")
            data = bytes(self.incoming[:self.piece])
            del self.incoming[:self.piece]
            return data

    def write(self, data):
        if self.gone:
            raise OSError(errno.EIO, "the link is gone")
        self.sent += data
        if self.responder:
            self.responder(self, bytes(data))

    def close(self):
        self.gone = True
