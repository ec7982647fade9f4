"""`bgboard logs list|pull`: game records off a board over the serial protocol (LOGS, GET, DEL).
A record counts only once its bytes hash to the sha256 the board gives; until then it is a
NAME.part file beside where it belongs, and the next GET starts at its length, so a pull broken
by a disconnect goes on where it stopped (within the same run after a reconnect, or on the next
run). `--delete` removes a record from the board only after the local file, read back from disk,
matches the board's sha256."""

import os
import sys
import time
from pathlib import Path

from bgboard import archive
from bgboard.devices import find_port
from bgboard.link import Board, Disconnected, Garbled, LinkError
from bgboard.progress import Progress

RECONNECT_SECONDS = 30


def _say(text):
    print(text, file=sys.stderr)


def run_list(port=None):
    port = find_port(port)
    with Board(port) as b:
        info = b.hello()
        logs = b.logs()
    folder = archive.board_dir(info.get("board", "unknown"))
    print("board %s (fw %s) on %s: %d record(s)" % (info.get("board"), info.get("fw"), port,
                                                     len(logs)))
    for name, (size, digest, is_open) in sorted(logs.items()):
        if is_open:
            status = "being written"
        elif archive.place_for(folder, name, digest)[1]:
            status = "archived"
        else:
            status = "not pulled"
        print("  %-14s %8d  %s  %s" % (name, size, digest[:16], status))
    return 0


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

    def connect(self, patient=False):
        """Open the port and handshake; with `patient`, keep trying for RECONNECT_SECONDS (the
        board may be rebooting or re-plugged)."""
        deadline = time.monotonic() + (RECONNECT_SECONDS if patient else 0)
        while True:
            try:
                if self.board:
                    self.board.close()
                    self.board = None
                self.board = Board(self.port)
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

    def folder(self):
        if self.out:
            return Path(self.out)
        return archive.board_dir(self.info.get("board", "unknown"))

    def fetch(self, name, size, digest, dest, bar):
        """Bring NAME into DEST (verified). Returns True once the file is in place."""
        part = dest.with_name(dest.name + ".part")
        garbled = 0
        for attempt in range(2):
            have = part.stat().st_size if part.exists() else 0
            if have > size:
                part.unlink()
                have = 0
            while have < size:
                t0 = time.monotonic()
                try:
                    with open(part, "ab") as f:
                        def sink(chunk, f=f):
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
                    if garbled > 50:
                        raise LinkError("%s: the line keeps arriving damaged (%s)" % (name, e))
                    have = got
                    continue
                except Disconnected as e:
                    got = part.stat().st_size
                    self.bytes += got - have
                    self.seconds += time.monotonic() - t0
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
        self.connect()
        logs = self.board.logs()
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        todo, busy = [], []
        for name, (size, digest, is_open) in sorted(logs.items()):
            if self.only is not None and name not in self.only:
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
        if self.delete:
            for name, dest, digest in self.kept + self.pulled:
                # read the local copy back from disk: only a verified copy lets the board's go
                if archive.sha256_file(dest) != digest:
                    raise LinkError("%s: the local copy %s does not match the board's sha256; "
                                    "not deleted from the board" % (name, dest))
                self.board.delete(name)
                self.deleted.append(name)
        self.board.close()
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
    print("%d record(s) pulled (%d bytes received), %d already there, %d deleted from the "
          "board; in %s" % (len(p.pulled), p.bytes, len(p.kept), len(p.deleted), folder))
    for name, dest, _ in p.pulled:
        print("  %s -> %s" % (name, dest))
    return 0
