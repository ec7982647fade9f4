# The board's flash: game records under /data (NNNN.bgr, append-only, one event per line with a
# chained check, written before the event is shown) and settings (/data/conf/settings.json, written
# atomically: a temporary file, then rename). At power-up the record named in the settings as
# the one in progress is replayed to rebuild the state; a last line torn by a power cut is cut
# off the file before anything is appended to it. A record left with nothing but its opening
# (no move, no cube action) is removed rather than kept (bgapp.room): an empty game costs no
# flash block. Every long read (the replay at power-up and after a demo, the pips view's record
# check) goes through Fed, which feeds the watchdog every few lines: on an RP2040 a long money
# session's replay takes longer than the watchdog's 8 s. Those replays apply the rules to the
# record's last game only (bgcore.resume), the chain is checked over the whole file.

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


_CONF_ROOM = 32768    # free flash needed to make the settings' folder


class WriteFailed(Exception):
    """An event that did not reach flash (so it did not happen); the text says what to do."""


def write_failed(e):
    """The board's one-line message for a failed write (an OSError)."""
    if e.args and e.args[0] == 28:        # ENOSPC
        return ("flash full: the last action was not recorded; pull the records "
                "(bgboard logs pull --delete)")
    return "flash write failed (%s): the last action was not recorded" % e


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
        path = self.settings_path()
        tmp = path + ".tmp"
        feed = self.hal.feed  # a write to a full flash may cost walks of all its files
        feed()                # (littlefs compacting a folder, finding free blocks): the
        if not _exists(self.dir):         # watchdog fed around each step
            os.mkdir(self.dir)  # (a flash full at the first power-up had no room for it)
        with open(tmp, "w") as f:
            json.dump(self.settings, f)
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
            self._free = self._statvfs()
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
        a chouette's record, header info, note); note says when a torn last line was cut off.
        Raises RecordError / OSError. The code is bgapp.recordfile's, on the heap meanwhile."""
        from bgapp import recordfile
        try:
            return recordfile.resume(self, name)
        finally:
            recordfile = None
            forget("recordfile")

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


def forget(name):
    """bgapp.<name> off the heap (imported again when needed)."""
    import sys
    sys.modules.pop("bgapp." + name, None)
    pkg = sys.modules.get("bgapp")
    if pkg and hasattr(pkg, name):
        delattr(pkg, name)
