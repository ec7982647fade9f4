# Run by MicroPython: the board's protocol server (bgapp.link.Link) fed the items of a corpus
# (argv[1]: one hex line per item, each read at one poll), with a HAL and an application that
# take every request; prints, one JSON list a line, the answer lines each item produced, then
# {"reserve": [[item, address], ...]}: where the link's emergency reserve was after the first
# item and after each item that moved it.
import json
import sys
import binascii

from bgapp.link import Link


class Hal:
    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.data = b""
        self.out = bytearray()

    def read(self):
        d = self.data
        self.data = b""
        return d

    def write(self, b):
        self.out += b

    def feed(self):
        pass

    def sync(self):
        pass

    def board_id(self):
        return "0123456789abcdef"


class Input:
    def remote(self, name, long=False):
        return name


class Journal:
    name = ""
    f = None
    settings = {"current": ""}

    def records(self):
        return []

    def path(self, name):
        return DATA + "/" + name


class App:
    FW = "fuzz"
    profile = {"name": "reference", "hal": "virtual"}
    dirty = False

    def __init__(self):
        self.input = Input()
        self.journal = Journal()

    def state_into(self, add):
        add("view=menu demo=0")

    def press(self, key):
        return None if key != "HINT" else "no hint now"

    def start_demo(self, n, fast):
        return "not in this test"


DATA = sys.argv[2]
hal = Hal(DATA)
link = Link(hal, App())
places = []        # (kept short: a list of every item's would fragment the heap it measures)
item = 0
with open(sys.argv[1]) as f:
    for line in f:
        hal.data = binascii.unhexlify(line.strip())
        link.poll()
        at = id(link.reserve) if link.reserve is not None else None
        if not places or places[-1][1] != at:
            places.append((item, at))
        item += 1
        text = bytes(hal.out).decode()
        hal.out = bytearray()
        print(json.dumps([a for a in text.split("\r\n") if a]))
print(json.dumps({"reserve": places}))
