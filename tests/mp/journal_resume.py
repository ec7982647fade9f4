# Run by MicroPython: the board's journal (bgapp.journal) resumes record argv[2] in folder
# argv[1] as at power-up, then appends the event argv[3]; prints the watchdog feeds made, the
# torn note and the record's lines read back.
import sys

from bgapp.journal import Journal


class Hal:
    def __init__(self, d):
        self.data_dir = d
        self.feeds = 0

    def feed(self):
        self.feeds += 1

    def sync(self):
        pass

    def board_id(self):
        return "0123456789abcdef"


hal = Hal(sys.argv[1])
j = Journal(hal)
rep, info, torn = j.resume(sys.argv[2])
j.append(sys.argv[3])
j.close()
print("feeds", hal.feeds)
print("torn", torn)
print("played", j.played)
