# The board's flash: game records under /data (NNNN.bgr, append-only, one event per line with a
# chained check, written before the event is shown) and settings (/data/conf/settings.json, written
# atomically: a temporary file, then rename; only what differs from the defaults, so that the
# file stays within littlefs's inline limit and a write takes no block: see save_settings). At
# power-up the record named in the settings as the one in progress is replayed to rebuild the
# state; a last line torn by a power cut is cut off the file before anything is appended to it.
# A record left with nothing but its opening (no move, no cube action) is removed rather than
# kept (bgapp.room): an empty game costs no flash block. Every long read (the replay at power-up
# and after a demo, the pips view's record check) goes through Fed, which feeds the watchdog
# every few lines: on an RP2040 a long money session's replay takes longer than the watchdog's
# 8 s. Those replays apply the rules to the record's last game only (bgcore.resume), the chain
# is checked over the whole file.

import json
import os

from bgcore.record import Writer

DEFAULTS = {
    "opponent": 6,        # bot level 1-6, or 0 for two players
    "mode": "nocube",     # nocube, money or match
    "length": 5,          # match length
    "jacoby": 1, "beavers": 0, "auto": 0,
    "confirm": 0,         # 1: a complete play is confirmed by itself (no OK needed)
    "forced": 1,          # 1: a forced play is made by itself
    "real": 0,            # 1: players roll real dice and key in the numbers
    "resign": 0,          # 1: the bot offers to resign a lost game (menu HINT)
    "tutor": 0,           # 0: off; else warn before a play or cube action that loses more
                          # millipoints than this (160, 80 or 40)
    "ranked": 0,          # 1: a new game against the bot is ranked (bgapp.rankplay)
    "bright": -1,         # -1: the profile's default
    "ch_n": 4,            # chouette set-up: players (3-8),
    "ch_cubes": "single", # single or multiple cubes,
    "ch_bots": 14,        # the seats a bot takes (bit k: seat k + 1),
    "names": "Ann Ben Cy Dee Eve Fay Gus Hal",    # the people's names, seat by seat
    "current": "",        # the record in progress
    "next": 1,            # number of the next record
    "name": "",           # the last name and country entered after a ranked win
    "country": "",
    "entry": "",          # the name entry in progress (bgapp.naming.Entry.saved())
}


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


# The first letters of the lines that only open a game (BGR, GAME, OPEN, ORDER, TUTOR, CHOUETTE;
# a chouette's C... cube lines never come before a move): a record holding nothing else is empty.
_OPENING = "BGOTC"


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


_CONF_ROOM = 32768    # free flash needed to make the settings' folder


class WriteFailed(Exception):
    """An event the record could not take: the game is back where its record is (bgapp.game);
    the text says what happened and what to do."""


class Journal:
    def __init__(self, hal):
        self.hal = hal
        self.did = getattr(hal, "did", None)    # (the virtual board names each feed gap's job)
        self.dir = hal.data_dir
        try:
            os.mkdir(self.dir)
        except OSError:
            pass
        self.conf = _exists(self.dir + "/conf")
        if not self.conf and (self._statvfs() or 0) >= _CONF_ROOM:
            try:                  # (a folder takes two blocks: on a nearly full flash the
                os.mkdir(self.dir + "/conf")    # settings stay in /data until there is room)
                self.conf = True
            except OSError:
                pass
        self.settings = dict(DEFAULTS)
        self.settings_note = None
        self._old = None      # the settings' file where boards before kept it, until moved
        self._load_settings()
        self.name = ""        # the record being written
        self.f = None
        self.writer = None
        self.played = 0       # 1: the record being written holds more than its opening
        self.listener = None  # called with each event's payload once it is on flash
        self._free = None     # free(), kept until changed()
        self.grown = 0        # bytes appended since free() last looked
        self.offer = None     # bgapp.room.offer(), kept until changed()

    # ---- settings ---------------------------------------------------------------------------
    def settings_path(self):
        """The settings' file: in a folder of its own under the records' (conf/), so that its
        atomic rewrite touches a small folder: in the records' folder, on a flash full of
        records, littlefs compacting that folder made one rewrite cost 73,000 block reads (120 ms
        of unix-port CPU, 1.3 s on the emulated RP2040); in its own, a few hundred."""
        if self.conf:
            return self.dir + "/conf/settings.json"
        return self.dir + "/settings.json"

    def _load_settings(self):
        path = self.settings_path()
        if not _exists(path):
            old = self.dir + "/settings.json"       # where boards before kept it
            if not self.conf or not _exists(old):
                return
            path = self._old = old
        try:
            with open(path) as f:
                data = json.load(f)
            for k in DEFAULTS:
                if k in data and type(data[k]) is type(DEFAULTS[k]):
                    self.settings[k] = data[k]
        except (ValueError, OSError) as e:
            self.settings_note = "settings.json unreadable (%s): defaults used" % e

    def save_settings(self):
        """The settings that differ from the defaults, as compact JSON (typically 30-120 bytes):
        a file within littlefs's inline limit (128 bytes on the virtual board's mount, 512 on
        the rp2 port's) lives in its folder's metadata and takes no block. Written whole (340
        bytes), it took a block at every write, and on a nearly full flash littlefs then
        walked every file for free blocks: 25,000 block reads a write with two blocks free
        (the soak's 81 ms of unix-port CPU late in a run, the flash filled). (A default that
        a later firmware changes applies then to the boards that kept the old one.)"""
        path = self.settings_path()
        tmp = path + ".tmp"
        s = self.settings
        changed = {}
        for k in DEFAULTS:
            if s[k] != DEFAULTS[k]:
                changed[k] = s[k]
        feed = self.hal.feed  # a write to a full flash may cost walks of all its files
        feed()                # (littlefs compacting a folder, finding free blocks): the
        if not _exists(self.dir):         # watchdog fed around each step
            os.mkdir(self.dir)  # (a flash full at the first power-up had no room for it)
        with open(tmp, "w") as f:
            json.dump(changed, f, separators=(",", ":"))  # type: ignore[call-overload]
        self.hal.sync()
        feed()
        os.rename(tmp, path)
        self.hal.sync()
        feed()
        if self._old:         # moved from the records' folder: the old file goes (a power cut
            try:              # before this leaves both, and the new one counts)
                os.remove(self._old)
            except OSError:
                pass
            self._old = None
            self.hal.sync()

    # ---- free space -------------------------------------------------------------------------
    def changed(self):
        """Files were made, grew by a block or were removed: free() looks again."""
        self._free = None
        self.grown = 0
        self.offer = None

    def free(self):
        """Bytes free on the flash that holds the records, or None when it cannot say. Kept
        until the files change (changed()): littlefs counts its blocks by walking every file,
        which on a full flash costs more than any other step of the board's."""
        if self._free is None:
            feed = self.hal.feed      # (a walk of its own between two feeds: on a full flash
            feed()                    # it is the longest single step of a request)
            if self.did:
                self.did("statvfs")
            self._free = self._statvfs()
            feed()
        return self._free

    def _statvfs(self):
        try:
            st = os.statvfs(self.dir)
        except (OSError, AttributeError):
            return None
        blocks, avail = st[2], st[4]
        if avail > blocks:    # littlefs: blocks in use beyond its size wrap free below zero
            avail = 0
        return avail * (st[1] or st[0])

    # ---- records ----------------------------------------------------------------------------
    def path(self, name):
        return self.dir + "/" + name

    def next_name(self):
        """The name the next record will get."""
        n = self.settings["next"]
        while _exists(self.path("%04d.bgr" % n)):
            n += 1
        return "%04d.bgr" % n

    def start(self, rules, players, fw, in_progress=True, extra="", start=""):
        """Open a new record and write its header; returns its name. `in_progress` records
        it in the settings as the record to resume at power-up; `extra`: more header fields
        (a ranked game's), `start`: the date and time, when the board knows them."""
        self.close()
        s = self.settings
        n = s["next"]
        name = "%04d.bgr" % n
        while _exists(self.path(name)):
            n += 1
            name = "%04d.bgr" % n
        self.name = name
        self.writer = Writer()
        self.played = 0
        self.f = open(self.path(name), "w")
        self.changed()
        if not start:
            from bgapp.clock import now     # set by the host's HELLO, if it was
            start = now()
        self._put(self.writer.header(rules, players, board=self.hal.board_id(), fw=fw,
                                     start=start, extra=extra))
        s["next"] = n + 1
        if in_progress:
            s["current"] = name
        self.save_settings()
        return name

    def append(self, payload):
        self._put(self.writer.line(payload))
        if self.did:
            self.did(payload.split(" ", 1)[0])
        if payload[0] not in _OPENING:
            self.played = 1
        if payload.startswith("MATCHEND") or payload.startswith("CHOUETTEEND"):
            self.finished()     # complete: never the one to resume
        if self.listener:
            self.listener(payload)

    def _put(self, line):
        feed = self.hal.feed      # (around the write: on flash it is the slow part of an event)
        feed()
        if self.did:
            self.did("write")
        self.f.write(line)
        self.f.flush()
        self.hal.sync()
        feed()
        self.grown += len(line)
        if self.grown >= 4096:            # a block more in use
            self.changed()

    def finish(self):
        """The record is complete: its file is closed (LOGS no longer calls it open) and its
        name stays, for STATE."""
        if self.f:
            self.f.close()
        self.f = None

    def finished(self):
        """The record being written is complete: the settings no longer name it as the one to
        resume at power-up."""
        s = self.settings
        if self.name and s["current"] == self.name:
            s["current"] = ""
            self.save_settings()

    def close(self):
        if self.f:
            try:
                self.f.close()
            except OSError:       # a write that failed (flash full): littlefs keeps the last
                pass              # synced state, the record as it was before that event
        self.f = None
        self.name = ""

    def resume(self, name):
        """Replay record `name` and reopen it for appending. Returns (Replay, or a Chouette for
        a chouette's record, header info, note);
        note says when a torn last line was cut off. Raises RecordError / OSError. The file is
        read once with the chain checked, then its last game again with the rules
        (bgcore.resume; a torn last line costs a pass more, which cuts it off); the watchdog is
        fed all along."""
        self.close()
        path = self.path(name)
        feed = self.hal.feed
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
            self._cut_torn(path, torn_at)
        self.played = played
        self.name = name
        self.writer = Writer(last)
        self.f = open(path, "a")
        return rep, info, torn

    def _cut_torn(self, path, keep):
        # the file rewritten with its first `keep` bytes, without its torn last line (copy, then
        # rename) so that appending continues the chain
        tmp = path + ".tmp"
        feed = self.hal.feed
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
        self.hal.sync()
        os.rename(tmp, path)
        self.hal.sync()

    def records(self):
        """Names of the records on flash, oldest first."""
        out = []
        try:
            names = os.listdir(self.dir)
        except OSError:       # no records' folder: a flash that was full before the first game
            return out
        for name in names:
            if name.endswith(".bgr"):
                out.append(name)
        out.sort()
        return out
