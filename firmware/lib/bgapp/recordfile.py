# Reading a record file back (bgapp.journal's, loaded only while it reads one): Fed, the reader
# that goes through a long record a block at a time feeding the watchdog (the replay at power-up,
# the pips view's check of a chouette, the index of PULLED marks), and the replay of the record in
# progress at power-up (Journal.resume), which cuts off a last line torn by a power cut. Off the
# heap between power-ups: a long session's board keeps only what writes its record.

import os

from bgcore.record import Writer
from bgapp.journal import _OPENING


class Fed:
    """A record file (opened "rb") read line by line for bgcore.record's reader, a block at a
    time (MicroPython's own readline reads a byte at a time: two thirds of a replay's time on
    the unix port), feeding the watchdog every _FEED_LINES lines and noting, as the lines go by,
    the check of the last line and of the one before it and whether the lines beyond the
    opening hold a move (a chouette's replay at power-up; the index of PULLED marks)."""

    def __init__(self, f, feed):
        self.f = f
        self.feed = feed
        self.n = 0
        self.last = self.before = ""   # the checks of the last line read and the one before it
        self.played = 0               # a line before the last one holds more than the opening
        self.last_played = 0          # the last line does
        self.block = b""              # the block read last, and where its next line starts
        self.at = 0
        self.pos = 0                  # the file offset of the next line
        self.last_at = 0              # and of the last line read (the first time)

    def _raw(self):
        # the next line's bytes (with its b"\n"), or what is left without one at the end
        block, at = self.block, self.at
        i = block.find(b"\n", at)
        if i >= 0:
            self.at = i + 1
            return block[at:i + 1]
        piece = block[at:]
        while True:
            more = self.f.read(_BLOCK)
            if not more:
                self.block, self.at = b"", 0
                return piece
            i = more.find(b"\n")
            if i >= 0:
                self.block, self.at = more, i + 1
                return piece + more[:i + 1]
            piece += more

    def readline(self):
        self.n += 1
        if self.n % _FEED_LINES == 0:
            self.feed()
        raw = self._raw()
        if raw:
            self.last_at = self.pos
        self.pos += len(raw)
        try:
            line = str(raw, "utf-8")
        except UnicodeError:          # not text: a line that fails its check where it is
            line = "?\n" if raw.endswith(b"\n") else "?"
        if line:
            bar = line.rfind("|")
            self.before = self.last
            self.last = line[bar + 1:bar + 9] if bar > 0 else ""
            self.played |= self.last_played
            self.last_played = 1 if bar > 0 and line[0] not in _OPENING else 0
        return line


_BLOCK = 256      # bytes read at a time
_FEED_LINES = 8       # (a chouette's replay applies the rules to every line: on the emulated
                      # RP2040 32 lines of rules take about 1 s)


def resume(j, name):
    """Replay record `name` and reopen it for appending. Returns (Replay, or a Chouette for
    a chouette's record, header info, note);
    note says when a torn last line was cut off. Raises RecordError / OSError. The file is
    read once with the chain checked, then its last game again with the rules
    (bgcore.resume; a torn last line costs a pass more, which cuts it off); the watchdog is
    fed all along."""
    j.close()
    path = j.path(name)
    feed = j.hal.feed
    with open(path, "rb") as f:
        f.readline()
        chouette = f.readline().startswith(b"CHOUETTE ")
        f.seek(0)
        if chouette:
            from bgcore.chouette import replay as replay_chouette
            fed = Fed(f, feed)
            rep, info, torn = replay_chouette(fed, False)
            if torn:
                last, played, torn_at = fed.before, fed.played, fed.last_at
            else:
                last, played, torn_at = fed.last, fed.played | fed.last_played, None
        else:
            from bgcore.resume import replay_last_game     # (shed after: bgapp.app)
            out = []
            rep, info, torn = replay_last_game(f, feed, _OPENING, out)
            last, played, torn_at = out
    if torn:
        _cut_torn(j, path, torn_at)
    j.played = played
    j.name = name
    j.writer = Writer(last)
    j.f = open(path, "a")
    return rep, info, torn

def _cut_torn(j, path, keep):
    # the file rewritten with its first `keep` bytes, without its torn last line (copy, then
    # rename) so that appending continues the chain
    tmp = path + ".tmp"
    feed = j.hal.feed
    buf = bytearray(_BLOCK)
    with open(path, "rb") as src, open(tmp, "wb") as dst:
        while keep > 0:
            k = src.readinto(buf)
            if not k:
                break
            k = min(k, keep)
            dst.write(buf if k == _BLOCK else buf[:k])
            keep -= k
            feed()
    j.hal.sync()
    os.rename(tmp, path)
    j.hal.sync()
