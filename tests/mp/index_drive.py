# Run by MicroPython: the board's index of closed records (bgapp.index) through the protocol's
# handlers (bgapp.link_more: LOGS, PULLED, DEL) and the menu's offer (bgapp.room), on folder
# argv[1] holding records 0001-0003.bgr, 0003 the game in progress. Prints what each step gave.
import os
import sys

from bgapp.journal import Journal
from bgapp import link_more, room


class Hal:
    def __init__(self, d):
        self.data_dir = d
        self.feeds = 0

    def feed(self):
        self.feeds += 1

    def sync(self):
        pass

    def write(self, b):
        pass


class Link:
    def __init__(self, hal, app):
        self.hal = hal
        self.app = app
        self.out = []

    def send(self, line):
        self.out.append(line)


class App:
    pass


hal = Hal(sys.argv[1])
app = App()
app.journal = j = Journal(hal)
j.settings["current"] = "0003.bgr"
link = Link(hal, app)


def ask(handler, *args):
    link.out = []
    hal.feeds = 0
    link_more.HANDLERS[handler](link, list(args))
    for line in link.out:
        print(line)
    print("feeds", hal.feeds)


ask("LOGS")
ask("LOGS")
digest = sys.argv[2]
ask("PULLED", "0001.bgr", digest)
ask("PULLED", "0002.bgr", digest)
ask("PULLED", "0003.bgr", digest)
ask("PULLED", "0009.bgr", digest)
ask("PULLED", "0001.bgr", "xyz")
ask("LOGS")
j.free = lambda: 4096
print("room", room.no_room(j))
# 0001 changed on the board after its mark, keeping its size: not deleted
with open(j.path("0001.bgr"), "r+b") as f:
    b = f.read(1)
    f.seek(0)
    f.write(b"X")
print("deleted", room.delete_pulled(j))
print("files", " ".join(sorted(os.listdir(sys.argv[1]))))
with open(j.path("0001.bgr"), "r+b") as f:
    f.write(b)
j.offer = None
print("room", room.no_room(j))
print("deleted", room.delete_pulled(j))
print("files", " ".join(n for n in sorted(os.listdir(sys.argv[1])) if n.endswith(".bgr")))
j.offer = None
print("room", room.no_room(j))
# a finished record whose file is closed and whose name the board still shows (a ranked game's
# after it is closed): LOGS lists it closed, so DEL takes it; the one to resume stays
j.name = "0002.bgr"
j.f = None
ask("DEL", "0003.bgr")
ask("DEL", "0002.bgr")
print("files", " ".join(n for n in sorted(os.listdir(sys.argv[1])) if n.endswith(".bgr")))
