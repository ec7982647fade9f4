"""A session with a board on a serial port: the protocol client (bgboard.protocol) over
pyserial (bgboard.transport). `Board(port)` is what the commands open; the protocol itself,
its errors and its framing live in bgboard.protocol."""

from bgboard.protocol import (CHUNK_MAX, DATA_TIMEOUT, Client, Disconnected, Garbled,  # noqa: F401
                              LinkError, NoBoard, PortBusy, parse_fields)
from bgboard.transport import SerialTransport, open_port  # noqa: F401


class Board(Client):
    """The protocol client on serial port PORT (opened exclusively)."""

    def __init__(self, port, timeout=0.2):
        Client.__init__(self, SerialTransport(port, timeout))
        self.port = str(port)
