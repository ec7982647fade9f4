"""The protocol client (bgboard.protocol) without a board: an in-memory transport plays the
board's side of docs/protocol.md, handing its answers out a few bytes at a time as a serial
port does. Answers matched to their requests by word, `!` lines kept aside, LOGS and GET across
several lines, a board that restarts or falls silent in the middle of a GET, a board stopped at
MicroPython's prompt."""

import binascii
import hashlib

import pytest

from bgboard import protocol
from bgboard.protocol import Client, Disconnected, Garbled, LinkError
from bgboard.transport import MemoryTransport

HELLO = "HELLO bgboard proto=1 fw=9.9.9 board=00aa11bb22cc33dd profile=reference hal=virtual"
RECORD = bytes(range(256)) * 2 + b"END 1 2 single|0badf00d\n"      # 537 bytes, 6 D lines


class FakeBoard:
    """The board's side: answers each request line written to the transport. `script` maps a
    request word to a function giving the answer's lines (a test replaces entries); `before`
    lines go out ahead of the next answer (a late answer, a WATCH event)."""

    def __init__(self, files=None, piece=5):
        self.files = files or {"0001.bgr": RECORD}
        self.link = MemoryTransport(self.on_write, piece=piece)
        self.pending = b""
        self.before = []
        self.requests = []
        self.script = {"HELLO": lambda w: [HELLO], "STATE": lambda w: ["STATE view=menu demo=0"],
                       "LOGS": self.logs, "GET": self.get,
                       "DEL": lambda w: ["OK DEL %s" % w[1]]}

    def on_write(self, link, data):
        self.pending += data
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            words = line.decode().split()
            if not words:
                continue
            self.requests.append(line.decode())
            out = self.before + self.script.get(words[0], lambda w: ["ERR unknown no command "
                                                                     "%s (HELLO, ...)" % w[0]])(words)
            self.before = []
            link.feed(b"".join(x.encode() + b"\r\n" for x in out))

    def logs(self, words):
        out = ["LOGS %d" % len(self.files)]
        for name, data in sorted(self.files.items()):
            out.append("LOG %s %d %s" % (name, len(data), hashlib.sha256(data).hexdigest()))
        return out

    def get(self, words, upto=None):
        name, offset = words[1], int(words[2]) if len(words) > 2 else 0
        data = self.files[name]
        out = ["FILE %s %d %s" % (name, len(data), hashlib.sha256(data).hexdigest())]
        for at in range(offset, len(data) if upto is None else upto, 96):
            b64 = binascii.b2a_base64(data[at:at + 96], newline=False).decode()
            out.append("D %d %s" % (at, b64))
        return out + ["END %s %d" % (name, len(data))]


def collect(client, name, offset=0):
    got = bytearray()
    size, digest = client.get(name, offset, sink=got.extend)
    return bytes(got), size, digest


def test_an_answer_arriving_in_pieces_is_one_line():
    board = FakeBoard(piece=3)
    c = Client(board.link)
    assert c.request("STATE") == "STATE view=menu demo=0"
    assert c.hello() == protocol.parse_fields(HELLO.split()[2:]) and c.info["fw"] == "9.9.9"


def test_an_answer_is_matched_to_its_request_by_word():
    board = FakeBoard()
    c = Client(board.link)
    # a late second answer to HELLO, and a complaint about an earlier line cut short, come
    # before the answer to STATE: neither is taken for it
    board.before = [HELLO, "ERR unknown no command LLO (HELLO, ...)"]
    assert c.request("STATE") == "STATE view=menu demo=0"
    assert c.stray == [HELLO, "ERR unknown no command LLO (HELLO, ...)"]
    # an error about the request itself is its answer
    assert c.request("FROB") .startswith("ERR unknown no command FROB")
    board.script["KEY"] = lambda w: ["NO KEY %s no checker there" % w[1]]
    board.before = ["OK DEL 0001.bgr"]
    assert c.request("KEY P5") == "NO KEY P5 no checker there"


def test_watch_lines_are_kept_aside_in_answers_and_multi_line_answers():
    board = FakeBoard(files={"0001.bgr": RECORD, "0002.bgr": b"BGR 1|00000000\n"})
    c = Client(board.link)
    logs = board.logs
    board.script["LOGS"] = lambda w: [logs(w)[0], "!EV ROLL 0 5 2", *logs(w)[1:2], "!TEXT a|b",
                                      *logs(w)[2:]]
    board.before = ["!LED 48 00ff00"]
    got = c.logs()
    assert got == {"0001.bgr": (len(RECORD), hashlib.sha256(RECORD).hexdigest(), False),
                   "0002.bgr": (15, hashlib.sha256(b"BGR 1|00000000\n").hexdigest(), False)}
    get = board.get
    board.script["GET"] = lambda w: [x for line in get(w) for x in (line, "!EV MOVE 1 8/5 6/5")]
    data, size, digest = collect(c, "0001.bgr")
    assert data == RECORD and size == len(RECORD)
    assert c.events == ["!LED 48 00ff00", "!EV ROLL 0 5 2", "!TEXT a|b"] + \
        ["!EV MOVE 1 8/5 6/5"] * (len(get(["GET", "0001.bgr"])) - 1)


def test_a_board_restarting_in_the_middle_of_a_get_loses_nothing():
    board = FakeBoard()
    c = Client(board.link)
    get = board.get
    # the board restarts after three D lines: its boot message instead of the fourth
    board.script["GET"] = lambda w: get(w, upto=3 * 96)[:-1] + ["MPY: soft reboot"]
    got = bytearray()
    with pytest.raises(Garbled, match="near byte"):
        c.get("0001.bgr", 0, sink=got.extend)
    # only chunks a following line confirmed were handed on: a sound prefix
    assert 0 < len(got) < len(RECORD) and RECORD.startswith(bytes(got))
    board.script["GET"] = get
    rest, size, digest = collect(c, "0001.bgr", len(got))
    assert bytes(got) + rest == RECORD and hashlib.sha256(RECORD).hexdigest() == digest
    assert board.requests[-1] == "GET 0001.bgr %d" % len(got)


def test_a_board_falling_silent_or_going_away_is_a_disconnect(monkeypatch):
    monkeypatch.setattr(protocol, "DATA_TIMEOUT", 0.3)
    board = FakeBoard()
    c = Client(board.link)
    get = board.get
    board.script["GET"] = lambda w: get(w)[:3]              # then nothing
    got = bytearray()
    with pytest.raises(Disconnected, match="stopped answering"):
        c.get("0001.bgr", 0, sink=got.extend)
    assert bytes(got) == RECORD[:96]
    board.link.hang_up()
    with pytest.raises(Disconnected, match="went away"):
        c.request("STATE")


def test_a_damaged_get_line_is_garbled_and_refusals_are_said():
    board = FakeBoard()
    c = Client(board.link)
    get = board.get
    board.script["GET"] = lambda w: [x.replace("D 192 ", "D 191 ") for x in get(w)]
    with pytest.raises(Garbled):
        collect(c, "0001.bgr")
    board.script["GET"] = lambda w: ["ERR nofile no file %s on the board" % w[1]]
    with pytest.raises(LinkError, match="refused GET 0009.bgr: ERR nofile"):
        collect(c, "0009.bgr")
    board.script["DEL"] = lambda w: ["ERR busy %s is the record of the game in progress" % w[1]]
    with pytest.raises(LinkError, match="did not delete 0001.bgr: ERR busy"):
        c.delete("0001.bgr")


def test_hello_restarts_a_board_left_at_micropythons_prompt():
    board = FakeBoard()
    at_prompt = [True]

    def hello(words):
        return [HELLO] if not at_prompt[0] else []

    board.script["HELLO"] = hello
    real_write = board.on_write

    def on_write(link, data):
        if at_prompt[0]:
            if b"\x04" in data:                       # Ctrl-D: a soft reset runs main.py
                at_prompt[0] = False
                link.feed(b"MPY: soft reboot\r\n")
            else:
                link.feed(b"Traceback (most recent call last):\r\nNameError: HELLO\r\n>>> ")
            return
        real_write(link, data)

    board.link.responder = on_write
    c = Client(board.link)
    assert c.hello(timeout=5)["board"] == "00aa11bb22cc33dd"
    assert b"\x04" in board.link.sent and b"\x03" not in board.link.sent


def test_no_answer_to_hello_names_the_port():
    c = Client(MemoryTransport(lambda link, data: None))
    with pytest.raises(LinkError, match="no answer to HELLO on memory within 1 s"):
        c.hello(timeout=1)


def test_a_firmware_that_stops_at_boot_is_named_with_its_error():
    """The soak's board whose firmware could not load its bot at boot: the soft reset HELLO
    makes runs main.py again, which stops on the same error before MicroPython's banner; the
    message gives that error, not 'flash it'."""
    def on_write(link, data):
        if b"\x04" in data:
            link.feed(b"MPY: soft reboot\r\nTraceback (most recent call last):\r\n"
                      b'  File "main.py", line 31, in <module>\r\n'
                      b"MemoryError: memory allocation failed, allocating 10721 bytes\r\n"
                      b"MicroPython v1.28.0 on 2026-07-05; linux version\r\n"
                      b"Type \"help()\" for more information.\r\n>>> ")
        else:
            link.feed(b"Traceback (most recent call last):\r\nNameError: HELLO\r\n>>> ")

    c = Client(MemoryTransport(on_write))
    with pytest.raises(LinkError, match="the bgboard firmware stopped at boot: MemoryError: "
                                        "memory allocation failed, allocating 10721 bytes$"):
        c.hello(timeout=2)
