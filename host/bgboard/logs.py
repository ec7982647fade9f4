"""`bgboard logs list|pull`: game records off a board over the serial protocol (LOGS, GET, DEL).
A record counts only once its bytes hash to the sha256 the board gives; until then it is a
NAME.part file beside where it belongs, and the next GET starts at its length, so a pull broken
by a disconnect goes on where it stopped (within the same run after a reconnect, or on the next
run). `--delete` removes a record from the board only after the local file, read back from disk,
matches the board's sha256; without it, each such record is marked pulled on the board (PULLED),
which may then delete it when its flash runs low (BAR in the board's menu)."""

import os
import sys
import time
from pathlib import Path

from bgboard import archive, names
from bgboard.devices import find_port
from bgboard.link import Board, Disconnected, Garbled, LinkError
from bgboard.progress import Progress
from bgboard.protocol import RECORD_MAX, Flooded
from bgboard.safetext import for_terminal

RECONNECT_SECONDS = 30
RECONNECTS_MAX = 3        # reconnects while fetching one record
GARBLED_MAX = 50          # damaged lines while fetching one record
TRANSFER_SECONDS = 60     # a record's whole transfer: this long, and one second more per KB
TRANSFER_MIN_RATE = 1024  # (a Pico over USB sends tens of KB a second)


def _say(text):
    print(text, file=sys.stderr)


def refusal(name, size):
    """Why the record NAME of SIZE bytes is not taken from a board (None when it is fine)."""
    try:
        names.record_name(name)
    except names.BadName as e:
        return str(e)
    if size > RECORD_MAX:
        return "record %s declares %d bytes, more than a board's flash holds (%d)" % (
            name, size, RECORD_MAX)
    return None


def run_list(port=None):
    port = find_port(port)
    with Board(port) as b:
        info = b.hello()
        logs = b.logs()
    try:
        folder = archive.board_dir(info.get("board", ""))
        bad_id = None
    except names.BadName as e:
        folder, bad_id = None, str(e)
    print("board %s (fw %s) on %s: %d record(s)" % (
        for_terminal(info.get("board"), 40), for_terminal(info.get("fw"), 40), port, len(logs)))
    refused = 0
    for name, (size, digest, is_open) in sorted(logs.items()):
        why = refusal(name, size)
        if why:
            status = "refused: " + why
            refused += 1
        elif is_open:
            status = "being written"
        elif folder is not None and archive.place_for(folder, name, digest)[1]:
            status = "archived"
        else:
            status = "not pulled"
        print("  %-14s %8d  %s  %s" % (for_terminal(name, 60), size, for_terminal(digest[:16]),
                                       status))
    if bad_id:
        _say("bgboard logs list: %s: this board's records cannot be archived" % bad_id)
    return 1 if bad_id else 0


class Puller:
    """One pull: the board's records into FOLDER, verified, resumable, then optionally deleted."""

    def __init__(self, port, out=None, delete=False, show=True, only=None):
        self.port = port
        self.out = out
        self.delete = delete
        self.show = show
        self.only = only          # these record names only (default: all)
        self.board = None
        self.info = {}
        self.bytes = 0            # bytes received over the link in this run
        self.seconds = 0.0        # time spent receiving them
        self.pulled = []          # (name, local path) verified in this run
        self.kept = []            # already in the folder (verified by sha256)
        self.deleted = []
        self.marked = []          # marked pulled on the board (PULLED), when not deleted
        self.refused = []         # why a record was not taken (its name, its size)

    def connect(self, patient=False):
        """Open the port and handshake; with `patient`, keep trying for RECONNECT_SECONDS (the
        board may be rebooting or re-plugged)."""
        deadline = time.monotonic() + (RECONNECT_SECONDS if patient else 0)
        while True:
            try:
                if self.board:
                    self.board.close()
                    self.board = None
                self.board = self.open_board(self.port)
                info = self.board.hello()
                if self.info and info.get("board") != self.info.get("board"):
                    raise LinkError("a different board (%s) answered on %s after the reconnect"
                                    % (info.get("board"), self.port))
                self.info = info
                return
            except LinkError as e:
                if time.monotonic() > deadline or "different board" in str(e):
                    raise
                time.sleep(0.5)

    def open_board(self, port):
        return Board(port)

    def folder(self):
        if self.out:
            return Path(self.out)
        return archive.board_dir(self.info.get("board", ""))

    def fetch(self, name, size, digest, dest, bar):
        """Bring NAME into DEST (verified). Returns True once the file is in place."""
        part = dest.parent / (dest.name + ".part")     # as named, not resolved: a link is seen
        names.inside(dest.parent, part.name)
        garbled = reconnects = 0
        give_up = time.monotonic() + TRANSFER_SECONDS + size / TRANSFER_MIN_RATE

        def in_time():
            if time.monotonic() > give_up:
                raise Flooded("%s: the transfer of %d bytes takes longer than %d s; what arrived "
                              "is kept in %s" % (name, size, give_up - started, part))
        started = time.monotonic()
        resumed_at = None         # where the last reconnect resumed
        for attempt in range(2):
            have = 0
            if os.path.lexists(part):
                # resumed only when it is a plain file of at most the record's size
                if part.is_symlink() or not part.is_file():
                    raise LinkError("%s is not a plain file (a link or a folder): not resumed "
                                    "from; move it away and pull again" % part)
                have = part.stat().st_size
                if have > size:
                    part.unlink()
                    have = 0
            while have < size:
                t0 = time.monotonic()
                try:
                    with open(part, "ab") as f:
                        def sink(chunk, f=f):
                            in_time()
                            f.write(chunk)
                            f.flush()
                            bar.add(len(chunk))
                        self.board.get(name, have, sink=sink)
                        os.fsync(f.fileno())
                except Garbled as e:
                    got = part.stat().st_size
                    self.bytes += got - have
                    self.seconds += time.monotonic() - t0
                    garbled += 1
                    if garbled > GARBLED_MAX:
                        raise LinkError("%s: the line keeps arriving damaged (%s)" % (name, e))
                    have = got
                    in_time()
                    continue
                except Disconnected as e:
                    got = part.stat().st_size
                    self.bytes += got - have
                    self.seconds += time.monotonic() - t0
                    reconnects += 1
                    if reconnects > RECONNECTS_MAX or got == resumed_at:
                        raise LinkError("%s: given up at byte %d of %d after %d reconnect(s)%s "
                                        "(%s); what arrived is kept in %s" % (
                                            name, got, size, reconnects - 1,
                                            ", the last one bringing no new byte"
                                            if got == resumed_at else "", e, part))
                    resumed_at = got
                    _say("\n%s: connection lost at byte %d of %d (%s); reconnecting ..."
                         % (name, got, size, e))
                    self.connect(patient=True)
                    now = self.board.logs().get(name)
                    if not now or now[1] != digest:
                        raise LinkError("%s changed on the board during the pull" % name)
                    have = got
                    continue
                got = part.stat().st_size
                self.bytes += got - have
                self.seconds += time.monotonic() - t0
                have = got
            if archive.sha256_file(part) == digest:
                os.replace(part, dest)
                return True
            # a stale or damaged partial file: start this record again, once
            _say("%s: the bytes do not match the board's sha256; fetching it again" % name)
            bar.add(-(part.stat().st_size))
            part.unlink()
        raise LinkError("%s: fetched twice and still not matching the board's sha256 %s"
                        % (name, digest))

    def run(self):
        try:
            return self._run()
        finally:
            # the port goes free whatever happened (found by the soak: a pull stopped by a power
            # cut kept its port open, and the next flash found it busy)
            if self.board:
                self.board.close()
                self.board = None

    def _run(self):
        self.connect()
        logs = self.board.logs()
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        todo, busy = [], []
        for name, (size, digest, is_open) in sorted(logs.items()):
            if self.only is not None and name not in self.only:
                continue
            why = refusal(name, size)
            if why:
                self.refused.append(why)
                continue
            if is_open:
                busy.append(name)
                continue
            dest, present = archive.place_for(folder, name, digest)
            if present:
                self.kept.append((name, dest, digest))
            else:
                todo.append((name, size, digest, dest))
        bar = Progress("pull %d record(s)" % len(todo), sum(t[1] for t in todo))
        if not self.show:
            bar.out = open(os.devnull, "w")
        for name, size, digest, dest in todo:
            self.fetch(name, size, digest, dest, bar)
            self.pulled.append((name, dest, digest))
        if todo:
            bar.finish(self.rate_note())
        marked = getattr(self.board, "marked", set())
        for name, dest, digest in self.kept + self.pulled:
            # read the local copy back from disk: only a verified copy lets the board's go
            if archive.sha256_file(dest) != digest:
                raise LinkError("%s: the local copy %s does not match the board's sha256; "
                                "not %s on the board" % (
                                    name, dest, "deleted" if self.delete else "marked pulled"))
            if self.delete:
                self.board.delete(name)
                self.deleted.append(name)
            elif name not in marked and self.board.pulled(name, digest):
                self.marked.append(name)      # the board may delete it when its flash is full
        for name in busy:
            _say("%s is being written (a game in progress): it is pulled once it is finished"
                 % name)
        return folder

    def rate_note(self):
        if self.seconds <= 0:
            return ""
        return "(%.1f KB/s)" % (self.bytes / 1024 / self.seconds)


def run_pull(port=None, out=None, delete=False):
    port = find_port(port)
    p = Puller(port, out=out, delete=delete)
    try:
        folder = p.run()
    except Disconnected as e:
        _say("bgboard logs pull: %s; what arrived is kept: run the same command again to go on"
             % e)
        return 1
    except names.BadName as e:
        _say("bgboard logs pull: %s" % e)
        return 1
    print("%d record(s) pulled (%d bytes received), %d already there, %d deleted from the "
          "board%s; in %s" % (len(p.pulled), p.bytes, len(p.kept), len(p.deleted),
                              ", %d marked pulled on it" % len(p.marked) if p.marked else "",
                              folder))
    for name, dest, _ in p.pulled:
        print("  %s -> %s" % (name, dest))
    for why in p.refused:
        _say("bgboard logs pull: refused: %s" % why)
    return 1 if p.refused else 0
