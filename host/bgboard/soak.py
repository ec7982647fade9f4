"""`bgboard soak`: years of a family table in an hour, against a virtual board (the real firmware
on MicroPython's unix port, a real littlefs image; bgboard.vboard). Power cuts (kill -9 of the
board's MicroPython) at random instants and at named moments (a settings write, a DEL, a demo
writing its record, the boot itself, and each named step of the host's own pull and flash:
bgboard.soak_steps), garbage lines on the serial port, random key presses
through whole games in every mode and with both input schemes, and a flash filled with records
until the board refuses new ones, pulled with --delete, then played on. After every cut the
board must answer HELLO, resume the game in progress at the last event on flash (never before
the last `!EV` it announced), and every record must still replay, closed ones unchanged. At the
end every record is pulled and verified by replay (`bgboard verify`'s code), and each finished
one exported; a sample of the exports is loaded into GNU Backgammon (gnubg -q -t). Prints
figures; exits 1 with the faults found, one line each. With --chip rp2040 the board is the
emulated RP2040 (bgboard.chip) and the watchdog's gaps are the emulator's, in chip time."""

import binascii
import hashlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from bgcore import Position
from bgboard import chip, paths, protocol, soak_steps, vboard
from bgboard.follow import Follower
from bgboard.transport import SerialTransport

WATCHDOG_SCALE = 200        # an RP2040 runs this firmware about 200x slower than the unix port
CHIP_SLOW = 8               # the emulated RP2040 runs at 0.2-0.3x real time: its time limits x8
WATCHDOG_MS = 8000          # the RP2040's watchdog (bghal.rp2.WDT_TIMEOUT_MS)
BOOT_LIMIT = 30.0           # seconds a board may take to answer HELLO after a cut
ANSWER_LIMIT = 30.0         # seconds for one answer (a bot's move on a loaded machine)
BATCH = 25                  # garbage lines between two checks that each had exactly one answer
RECENT_KEPT = 12            # the board's last `!` lines said with its first !ERROR
MARK = "KEY P99"            # a request with a known answer that closes a batch
KEY_NAMES = (["P%d" % i for i in range(1, 25)]
             + ["BAR", "OFF", "OK", "UNDO", "DOUBLE", "HINT", "MENU", "PIPS",
                "LEFT", "RIGHT", "SELECT", "BACK"])
# requests with wrong arguments, odd names and offsets (each answered by one line)
WRONG = ["KEY", "KEY P25", "KEY P0", "KEY P1 short", "KEY OK long long", "KEY p1x", "KEY %s",
         "GET", "GET ../../etc/passwd", "GET .hidden", "GET a/b.bgr", "GET %s", "GET x%s",
         "GET nosuch.bgr", "GET settings.json -1", "GET settings.json 99999999",
         "GET 0001.bgr 1 2", "GET %s.bgr x", "DEL", "DEL settings.json", "DEL ../x.bgr",
         "DEL nosuch%s.bgr", "DEL a b", "DEMO", "DEMO 0", "DEMO 1000", "DEMO x", "DEMO 2 slow",
         "DEMO -1", "WATCH", "WATCH maybe", "FAST", "FAST 1", "TICKETS ASK 0", "TICKETS ASK 99",
         "TICKETS ADD 1 x y", "TICKETS ADD x T-1 00", "TICKETS FOO", "TICKETS ASK x",
         "FROB %s", "%s", "HELLO %s", "STATE %s", "state", "hello", "Key ok x", "NONCE 1",
         "OK KEY P1", "ERR x", "!EV MOVE 0 8/5", "LOG 0001.bgr 1 x"]


# bgcore keeps preallocated buffers at module level (the chip's heap is small): boards soaked side
# by side in threads take turns with it
BGCORE = threading.RLock()


class Fault(Exception):
    """Something the board must never do: the soak stops the phase and reports it."""


def board_answers(data, max_line=120):
    """How many answer lines the board owes for the bytes DATA (link.poll's framing: a line ends
    at \\n or \\r; an over-long line or one with a byte that is not printable text is answered
    with ERR, a blank one not at all)."""
    n = 0
    buf = bytearray()
    skipping = bad = False
    for b in data:
        if b in (10, 13):
            if skipping or bad:
                n += 1
            elif buf and bytes(buf).split():
                n += 1
            buf = bytearray()
            skipping = bad = False
        elif skipping:
            continue
        elif len(buf) >= max_line:
            skipping = True
            buf = bytearray()
        elif (b < 32 or b > 126) and b != 9:
            bad = True
        else:
            buf.append(b)
    return n


def replay_text(text):
    """(replay, header info, torn note) of a record's text, a chouette's too (RecordError)."""
    with BGCORE:
        return _replay_text(text)


def _replay_text(text):
    lines = text.split("\n", 2)
    if len(lines) > 1 and lines[1].startswith("CHOUETTE "):
        from bgcore.chouette import replay as replay_chouette
        ch, info, torn = replay_chouette(text)
        return ch.rep, info, torn
    from bgcore.record import replay
    return replay(text, history=False)


def events_of(text):
    """The payloads of a record's lines after its header (checks cut off; a torn line too)."""
    out = []
    for ln in text.split("\n")[1:]:
        if ln:
            out.append(ln.rsplit("|", 1)[0])
    return out


def last_lines(stray):
    """The board's last lines that answered nothing, for a fault's message: the last three, or
    from the first traceback among them (what stopped the application, before the REPL's
    answers to what came after)."""
    for i, line in enumerate(stray):
        if line.startswith("Traceback"):
            return stray[i:]
    return stray[-3:]


class Watcher(protocol.Client):
    """The protocol client, keeping every `!EV` the board announces (not only the last 64)."""

    def __init__(self, transport, soak):
        protocol.Client.__init__(self, transport)
        self.soak = soak

    def _keep_event(self, line):
        self.soak.bang(line)


class Soak:
    def __init__(self, cuts, lines, keys, seed, minutes=None, fill=True, work=None, out=None,
                 heap=vboard.DEFAULT_HEAP, say=print, image=None, chip=None):
        self.n_cuts, self.n_lines, self.n_keys = cuts, lines, keys
        self.chip = chip            # "rp2040": the emulated chip (bgboard.chip), not the unix port
        self.board = None           # its ChipBoard, run in a thread of this process
        self.slow = CHIP_SLOW if chip else 1
        self.boot_limit = BOOT_LIMIT * self.slow
        self.answer_limit = ANSWER_LIMIT * self.slow
        self.resets_seen = 0        # the chip's resets that were not the soak's power cuts
        self.chip_resets = {}       # their reasons: "timeout" (the watchdog), "forced"
        self.asked = deque(maxlen=3)  # the last requests the soak asked (STATE aside)
        self.seed = seed
        self.rng = random.Random(seed)
        self.deadline = time.monotonic() + minutes * 60 if minutes else None
        self.fill = fill
        self.heap = heap
        self.say = say
        self.tmp = None
        if work is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="bgboard-soak-")
            work = self.tmp.name
        self.work = Path(work)
        self.work.mkdir(parents=True, exist_ok=True)
        self.out = Path(out) if out else self.work / "pulled"
        self.link = self.work / "link"
        self.image = self.work / "flash.img"
        self.pid_file = self.work / "mp.pid"
        if image is not None:               # a flash image with the firmware already on it
            import shutil
            shutil.copy(image, self.image)
        self.proc = None
        self.c = None
        # what was seen
        self.faults = []
        self.announced = []       # `!EV` payloads since the last check
        self.errors = []          # `!ERROR` lines
        self.recent = []          # the board's last `!` lines (frames and text aside)
        self.known = {}           # record name -> its events at the last check
        self.sums = {}            # record name -> (size, sha256) at the last check
        self.copies = {}          # record name -> its bytes at its last fetch
        self.followers = {}       # record name -> its replay as it grows (bgboard.follow)
        self.deleted = set()      # records the soak deleted itself (after pulling them)
        self.pulled = {}          # record name -> text, pulled and checked
        self.cuts = 0
        self.cut_kinds = {}
        self.boot_times = []
        self.lost = 0
        self.announced_total = 0
        self.torn_seen = 0
        self.discarded = 0        # announced openings of games removed for holding no move
        self.lines_sent = 0
        self.line_answers = {}
        self.keys_sent = 0
        self.keys_refused = 0
        self.guided = 0
        self.feed_gap = 0         # µs of the unix port's CPU time (of emulated time on the chip)
        self.gap_what = ""        # what the board was doing in it (STATE gapwhat=)
        self.gaps = {}            # the same by phase: "years" (the flash filled), "soak"
        self.phase = "soak"
        self.heaps = []
        self.fill_note = None
        self.profile = "reference"
        self.settings = None
        self.probe_lines = 0
        self.reporting = True     # print the figures at the end (not when one of several boards)
        self.verified = None
        # the pulls cut at their named steps pull into a laptop's archive; a GET cut with every
        # record already there takes another laptop (a new folder), which fetches them all
        self.archives = self.out / "archive"
        self.laptops = 1
        self.archive = self.archives / "laptop1"
        self.archived_ok = set()  # sha256 of the records found whole there
        self.variants = None      # firmware builds flashed by the cuts at a flash's steps
        self.step_log = []        # (kind, where exactly) of each cut at a named step
        self.marked_seen = set()  # records the board listed as marked pulled (PULLED)
        self.board_deleted = 0    # marked records the board deleted itself (BAR in the menu)
        self.flash_boots = {}     # "old"/"new": the firmware a board booted after a flash cut
        self.gnubg = None         # exports loaded into GNU Backgammon: {"loaded", "failed"}
        self.gnubg_sample = GNUBG_SAMPLE

    # ---- the board -----------------------------------------------------------------------------
    def start(self, profile="reference"):
        if not self.image.exists():
            if self.chip:
                chip.install(self.image, profile)
            else:
                vboard.install(self.image, profile)
        else:
            set_profile(self.image, profile, "rp2040" if self.chip else "unix")
        self.profile = profile
        self.log = open(self.work / "vboard.log", "a")
        if self.chip:
            self.board = chip.ChipBoard(self.link, self.image, pid_file=self.pid_file,
                                        log=self.log).start()
            self._connect()
            return
        env = dict(os.environ)
        env["BGBOARD_DICE_SEED"] = str(self.seed)     # the board's dice too (bghal.virtual)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bgboard.cli", "vboard", "--link", str(self.link), "--flash",
             str(self.image), "--pid-file", str(self.pid_file), "--heap", self.heap],
            stdout=self.log, stderr=self.log, start_new_session=True, env=env)
        self._connect()

    def _connect(self):
        t0 = time.monotonic()
        while not (self.link.exists() and self.pid_file.exists()):
            if (self.proc and self.proc.poll() is not None) or (self.board and self.board.error):
                raise Fault("the virtual board did not start (see %s)" % (self.work / "vboard.log"))
            if time.monotonic() - t0 > 30:
                raise Fault("the virtual board made no link within 30 s")
            time.sleep(0.02)
        self.c = Watcher(SerialTransport(str(self.link), 0.05), self)
        self.boot(time.monotonic())

    def stop(self):
        if self.c:
            self.c.close()
            self.c = None
        if self.board:
            self.board.stop()
            self.board = None
            self.pid_file.unlink(missing_ok=True)
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def pid(self):
        try:
            return int(self.pid_file.read_text())
        except (OSError, ValueError):
            return None

    def cut(self):
        """kill -9 of the board's MicroPython (a power cut); returns once the bridge has started
        the next one, with the time of the cut."""
        while True:
            old = self.pid()
            try:
                os.kill(old, signal.SIGKILL)
                break
            except (ProcessLookupError, TypeError):
                time.sleep(0.005)          # between a soft reset and the next process
        t = time.monotonic()
        self.cuts += 1
        while self.pid() in (old, None):
            if time.monotonic() - t > self.boot_limit:
                raise Fault("the board did not come back after power cut %d" % self.cuts)
            time.sleep(0.005)
        return t

    def boot(self, since):
        """HELLO until the board answers; WATCH and FAST on. Returns the boot time."""
        # what the board sent before the cut: its last `!EV` lines
        try:
            for ln in self.c.lines(0.05):
                if ln.startswith("!"):
                    self.bang(ln)
        except protocol.LinkError:
            self.c.buf = b""
        self._hello(self.c)
        took = time.monotonic() - since
        self.ask("WATCH on", "OK WATCH on")
        self.ask("FAST on", "OK FAST on")
        return took

    def bang(self, line):
        if line.startswith("!EV "):
            self.announced.append(line[4:])
        elif line.startswith("!ERROR"):
            self.errors.append(line)
            self.fault("the application reported a fault: %s" % line[:200])
            if len(self.errors) == 1:       # what came just before the first one
                self.say("  (the board's last lines before it: %s)"
                         % " | ".join(x[:120] for x in self.recent))
        if not line.startswith("!LED") and not line.startswith("!TEXT"):
            self.recent = self.recent[-(RECENT_KEPT - 1):] + [line]

    def fault(self, text):
        self.faults.append(text)
        self.say("FAULT: %s" % text)

    def ask(self, line, expect=None, timeout=None):
        """LINE's one answer (its word matched, the `!` lines kept aside)."""
        timeout = timeout or self.answer_limit
        if line != "STATE":
            self.asked.append(line[:40])
        try:
            ans = self.c.request(line, timeout)
        except protocol.LinkError as e:
            raise Fault("no answer to %r: %s (last lines: %r)"
                        % (line, e, last_lines(self.c.stray)))
        if ans.startswith("ERR internal") or ans.startswith("ERR memory") \
                or ans.startswith("ERR io"):
            self.fault("%r answered %r" % (line, ans[:200]))
        if expect is not None and not ans.startswith(expect):
            raise Fault("%r answered %r (expected %s)" % (line, ans[:200], expect))
        return ans

    def state(self):
        ans = self.ask("STATE", "STATE ")
        st = protocol.parse_fields(ans.split()[1:])
        if self.board:
            self.chip_watchdog(st)
        if "feedgap" in st and int(st["feedgap"]) > self.gaps.get(self.phase, 0):
            self.gaps[self.phase] = int(st["feedgap"])
        if "feedgap" in st and int(st["feedgap"]) > self.feed_gap:
            self.feed_gap = int(st["feedgap"])
            self.gap_what = st.get("gapwhat", "")
            self.say("longest watchdog-feed gap so far: %d us of %s%s" % (
                self.feed_gap, "emulated chip time" if self.chip else "CPU",
                " (%s)" % st["gapwhat"] if "gapwhat" in st else ""))
        return st

    def chip_watchdog(self, st):
        """On the emulated chip: the longest gap between two writes of the watchdog's LOAD
        register since the boot, in emulated time (as STATE feedgap=, µs), and a fault for
        each time the watchdog fired (a "forced" reset is machine.reset(), which only `bgboard
        flash` calls, to start the firmware it installed)."""
        st["feedgap"] = str(self.board.stats(self.answer_limit)["max_feed_gap_ns"] // 1000)
        # (the chip names no jobs: what the soak had asked since, and whether a demo ran)
        st["gapwhat"] = "after %s%s" % (" | ".join(self.asked) or "the boot",
                                         ", a demo running" if st.get("demo", "0") != "0" else "")
        resets = [r for r in self.board.resets if r != "power cut"]
        for r in resets[self.resets_seen:]:
            self.chip_resets[r] = self.chip_resets.get(r, 0) + 1
            if r != "forced":
                self.fault("the chip reset itself (%s: the watchdog was not fed for %d ms)"
                           % (r, WATCHDOG_MS) if r == "timeout" else "the chip reset (%s)" % r)
        self.resets_seen = len(resets)

    def get(self, name, offset=0):
        parts = []
        size, digest = self.c.get(name, offset, sink=parts.append)
        return b"".join(parts), size, digest

    def fetch(self, name):
        """(bytes, size, sha256) of the record NAME as the board gives them, read on from the
        whole lines of its last fetch when the record only grew (a long chouette is 230 KB to
        read after every cut otherwise), whole when it changed in any other way."""
        old = self.copies.get(name, b"")
        keep = old[:old.rfind(b"\n") + 1]
        if keep:
            try:
                tail, size, digest = self.get(name, len(keep))
            except protocol.LinkError:      # shorter than what was kept: GET refused the offset
                tail, size, digest = b"", -1, ""
            data = keep + tail
            if len(data) == size and hashlib.sha256(data).hexdigest() == digest:
                self.copies[name] = data
                return data, size, digest
        data, size, digest = self.get(name)
        self.copies[name] = data
        return data, size, digest

    def replay(self, name, text):
        """replay_text(TEXT) of the record NAME, replaying only the lines added since its last
        replay when the text still begins with them (bgboard.follow)."""
        with BGCORE:
            return self.followers.setdefault(name, Follower()).feed(text)

    # ---- after a cut: what must hold ------------------------------------------------------------
    def check(self, note=""):
        """Every record on the board against what was known before: the old events still there,
        each announced event on flash, closed records unchanged, the game in progress resumed at
        the record's last event, the settings whole."""
        st = self.state()
        fence = len(self.announced)       # announced before this snapshot: on flash by now
        listing = self.c.logs()
        changed = {}
        for name, (size, digest, is_open) in listing.items():
            if self.sums.get(name) == (size, digest):
                continue
            data, size2, digest2 = self.fetch(name)
            if hashlib.sha256(data).hexdigest() != digest2 or len(data) != size2:
                self.fault("%s arrived damaged (its sha256 differs from the board's)" % name)
                continue
            text = data.decode("utf-8", "replace")
            try:
                rep, info, torn = self.replay(name, text)
            except Exception as e:
                self.fault("%s does not replay after a power cut%s: %s" % (name, note, e))
                self.known[name] = events_of(text)     # its events are on flash all the same
                continue
            if torn:
                self.torn_seen += 1
                if name == st.get("record") and st.get("view") == "play":
                    self.fault("%s: the game in progress kept a torn last line: %s" % (name, torn))
            evs = events_of(text)
            if torn:
                evs = evs[:-1]
            old = self.known.get(name)
            if old is not None and evs[:len(old)] != old:
                self.fault("%s changed before its end%s (%d events were known, now %d)"
                           % (name, note, len(old), len(evs)))
            if name in self.sums and old is not None and name != self.current \
                    and not self.sums_open.get(name):
                self.fault("%s was closed and changed%s" % (name, note))
            changed[name] = (rep, evs)
            self.known[name] = evs
        self.marked_seen |= getattr(self.c, "marked", set())
        for name in list(self.known):
            if name not in listing:
                self.copies.pop(name, None)
                self.followers.pop(name, None)
                evs = self.known.pop(name)
                digest = self.sums.pop(name, (0, ""))[1]
                empty = all(e[:1] in "GOTC" for e in evs)
                if name in self.marked_seen and name not in self.deleted \
                        and self._archived(name, digest, anywhere=True):
                    self.board_deleted += 1     # the board deleted a record the laptop holds
                elif name not in self.deleted and not empty:
                    self.fault("%s disappeared%s (it held %d events)" % (name, note, len(evs)))
        self.sums = {n: (s, d) for n, (s, d, o) in listing.items()}
        self.sums_open = {n: o for n, (s, d, o) in listing.items()}
        # every announced event is on flash, in order, in one of the records
        self.lost_check(fence, note)
        # the game in progress: where its record says
        name = st.get("record")
        self.current = name
        if name and st.get("view") == "play" and st.get("demo") == "0" and "pos" in st \
                and st.get("wait") == "player":
            if name not in self.known:
                self.fault("STATE names %s, which is not on the board" % name)
            else:
                try:
                    data, _, _ = self.fetch(name)
                    rep, info, torn = self.replay(name, data.decode())
                    m = rep.match
                    st2 = self.state()          # unchanged meanwhile (no key was sent)
                    same = all(st2.get(k) == st.get(k) for k in ("record", "pos", "match",
                                                                   "steps", "wait"))
                    if same and (m.pos.id(), m.match_id()) != (st["pos"], st["match"]):
                        self.fault("%s resumed at %s %s, its record ends at %s %s%s"
                                   % (name, st["pos"], st["match"], m.pos.id(), m.match_id(),
                                      note))
                except Exception as e:
                    self.fault("%s: %s" % (name, e))
        self.check_settings()
        return st

    def lost_check(self, fence, note=""):
        """The `!EV` events announced before the snapshot (the first FENCE since the last check)
        found in order in the records; the later ones wait for the next check. Each record keeps
        where its last announced event was found: an event written between the fence and the
        snapshot is in this snapshot, its `!EV` line read after the fence, and is looked for
        at the next check from there (not from the snapshot's end)."""
        evs = self.announced[:fence]
        self.announced = self.announced[fence:]
        self.announced_total += len(evs)
        if not evs:
            return
        at = self.where                     # record name -> index searched from
        order = [self.last_rec] if self.last_rec else []
        for e in evs:
            found = False
            for name in order + sorted(self.known):
                seq = self.known.get(name)
                if seq is None:
                    continue
                i = at.get(name, 0)
                try:
                    j = seq.index(e, i)
                except ValueError:
                    continue
                at[name] = j + 1
                self.last_rec = name
                order = [name]
                found = True
                break
            if not found and e[:1] in "GOTC" and e.split()[0] in (
                    "GAME", "OPEN", "ORDER", "TUTOR", "CHOUETTE"):
                self.discarded += 1         # the opening of a game left without a move
            elif not found:
                self.lost += 1
                self.fault("announced event %r is on no record's flash%s" % (e, note))

    def check_settings(self):
        try:
            data, _, _ = self.get("settings.json")
            s = json.loads(data.decode())
        except protocol.LinkError as e:
            if "nofile" in str(e) and self.settings is None:
                return                      # never written yet
            self.fault("settings.json: %s" % e)
            return
        except ValueError as e:
            self.fault("settings.json is not whole: %s" % e)
            return
        # (the file holds what differs from the defaults: bgapp.journal.save_settings)
        paths.firmware_import_path()
        from bgapp.journal import DEFAULTS
        unknown = sorted(set(s) - set(DEFAULTS))
        if unknown:
            self.fault("settings.json holds fields no firmware writes: %s" % unknown)
        s = dict(DEFAULTS, **s)
        if self.settings is not None:
            if s.get("next", 0) < self.settings.get("next", 0):
                self.fault("settings.json went back: next %s after %s"
                           % (s.get("next"), self.settings.get("next")))
        cur = s.get("current")
        if cur and cur not in self.known:
            self.fault("settings.json names %s as the game in progress: not on the board" % cur)
        self.settings = s

    # ---- what the soak does between cuts ----------------------------------------------------------
    def garbage(self):
        """One garbage item: its bytes (ending in a line end) and the answers it is owed."""
        r = self.rng
        kind = r.random()
        end = r.choice([b"\n", b"\r", b"\r\n"])
        if kind < 0.3:
            n = r.randrange(1, 160)
            data = bytes(r.choice([b for b in range(256) if b not in (3, 10, 13)])
                         for _ in range(n))
        elif kind < 0.4:
            data = bytes(r.randrange(32, 127) for _ in range(
                r.randrange(121, 3000 if r.random() < 0.1 else 400)))
        elif kind < 0.5:
            # a line without its end, which the next one ends
            data = bytes(r.randrange(32, 127) for _ in range(r.randrange(1, 80))) \
                + r.choice(WRONG).replace("%s", self.word()).encode()
        elif kind < 0.9:
            data = r.choice(WRONG).replace("%s", self.word()).encode()
        else:
            data = bytes(r.randrange(32, 127) for _ in range(r.randrange(0, 119)))
        return data + end

    def word(self):
        r = self.rng
        chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/\\~%$#"
        return "".join(r.choice(chars) for _ in range(r.randrange(1, 50)))

    def lines_batch(self, n):
        """N garbage lines sent in one go, as a program flooding the port would; their answers
        counted (each line owes one, a blank one none); then a marker that must be answered
        next (an extra answer to a garbage line would come before it)."""
        batch = []
        for _ in range(n):
            data = self.garbage()
            if b"DEL " in data.upper() and b".BGR" in data.upper():
                data = b"DEL nosuch.bgr\n"      # never a real record by chance
            batch.append(data)
        data = b"".join(batch)
        owed = board_answers(data)
        self.c.write_raw(data)
        self.lines_sent += n
        if True:
            for _ in range(owed):
                try:
                    ans = self.c.body_line(self.answer_limit)
                except protocol.LinkError as e:
                    raise Fault("no answer to the garbage line %r: %s" % (data[:60], e))
                code = " ".join(ans.split()[:2]) if ans.startswith("ERR") else ans.split()[0]
                self.line_answers[code] = self.line_answers.get(code, 0) + 1
                if ans.startswith(("ERR internal", "ERR memory", "ERR io")):
                    self.fault("the garbage line %r answered %r" % (data[:60], ans[:200]))
                if ans.split()[0] in ("LOGS", "FILE", "TICKETS") and len(ans.split()) > 1:
                    self.c.drain()              # a multi-line answer: not a garbage line's
        ans = self.ask(MARK)
        if not ans.startswith("ERR badkey P99"):
            self.fault("a garbage line got more than one answer: %r came before the marker's"
                       % ans[:200])
            self.c.drain()

    def keys(self, n):
        """N random key presses in a burst (a long one now and then), each answered in turn."""
        r = self.rng
        sent = []
        for _ in range(n):
            sent.append("KEY %s%s" % (r.choice(KEY_NAMES), " long" if r.random() < 0.1 else ""))
        self.c.write_raw("".join(k + "\n" for k in sent).encode())
        for line in sent:
            try:
                ans = self.c.answer("KEY", self.answer_limit)
            except protocol.LinkError as e:
                raise Fault("no answer to %r: %s" % (line, e))
            self.keys_sent += 1
            if ans.startswith("NO KEY"):
                self.keys_refused += 1
            elif not ans.startswith("OK KEY " + line[4:]):
                self.fault("%s answered %r" % (line, ans[:200]))

    def guide(self):
        """A key that moves the game on (a legal step, a roll, the next game): without them
        random keys seldom finish a game."""
        st = self.state()
        self.guided += 1
        r = self.rng
        view = st.get("view")
        if view != "play":
            if view == "menu" and "phase" not in st:
                key = "OK" if r.random() < 0.5 else r.choice(["P8", "P9", "P10", "P7", "P6",
                                                              "P1", "P21", "P23", "P18", "P17"])
            elif view == "name":
                key = r.choice(["OK", "OK", "P1", "P2", "UNDO"])
            else:
                key = "MENU" if view == "menu" else "UNDO"
            return self.press(key)
        if st.get("wait") == "board":
            time.sleep(0.01)
            return None
        ph = st.get("phase")
        if "warning" in st:
            return self.press("OK")
        if ph == "move" and st.get("dice", "-") != "-":
            if st.get("complete") == "1":
                return self.press("OK")
            d = st["dice"]
            done = [] if st.get("steps", "-") == "-" else st["steps"].split(",")
            with BGCORE:
                pos = Position.from_id(st["pos"])
                plays = pos.plays(int(d[0]), int(d[1]))
                fits = [tuple(p.moves) for p in plays
                        if ["%d/%d" % m for m in p.moves[:len(done)]] == done
                        and len(p.moves) > len(done)]
            if not fits:
                return self.press("UNDO")
            s, t = r.choice(fits)[len(done)]
            player = int(st.get("turn", 0))
            keys = [_point_key(s, player), _point_key(t, player)]
            for k in keys:
                self.press(k)
            return None
        if ph == "doubled":
            return self.press(r.choice(["OK", "OK", "UNDO"]))
        if ph in ("opening", "turn"):
            if self.press("OK") is not None:
                return self.press("P%d" % r.randrange(1, 7))
            return None
        return self.press("OK")

    def press(self, key):
        ans = self.ask("KEY " + key)
        if ans.startswith("NO KEY"):
            return ans
        if not ans.startswith("OK KEY"):
            self.fault("KEY %s answered %r" % (key, ans[:200]))
        return None

    # ---- cuts at named moments ------------------------------------------------------------------
    def cut_now(self, kind):
        t = self.cut()
        self.cut_kinds[kind] = self.cut_kinds.get(kind, 0) + 1
        if kind == "boot":
            # a second cut while the board boots (replaying the game in progress)
            time.sleep(self.rng.uniform(0, 0.4))
            t = self.cut()
        self.boot_times.append(self.boot(t))
        self.check(" (cut %d, %s)" % (self.cuts, kind))

    def cut_random(self):
        """A cut at a random instant while the board handles a key, a line or a move."""
        r = self.rng
        what = r.random()
        if what < 0.6:
            self.c.send("KEY %s" % r.choice(KEY_NAMES + ["OK"] * 12))
        elif what < 0.8:
            self.c.write_raw(self.garbage())
        time.sleep(r.uniform(0, 0.06))
        self.cut_now("random")

    def cut_boot(self):
        """A cut, then another while the board boots (replaying the game in progress)."""
        self.cut_now("boot")

    def cut_pull(self):
        """A cut in the middle of GET: after the next pull every record arrives whole."""
        names = sorted(self.known, key=lambda n: -self.sums.get(n, (0, ""))[0])
        if not names:
            return self.cut_random()
        name = names[0]
        size = self.sums[name][0]
        self.c.send("GET %s 0" % name)
        stop_at = self.rng.randrange(0, max(1, size // 96 + 1))
        got = 0
        t0 = time.monotonic()
        while got < stop_at and time.monotonic() - t0 < 5:
            ln = self.c.next_line(1.0)
            if ln is None:
                break
            if ln.startswith("D "):
                got += 1
        self.cut_now("pull")

    def cut_settings(self):
        """A cut while the settings are written (a menu key rewrites them at once)."""
        self.press("MENU")
        st = self.state()
        if st.get("view") != "menu":
            return self.cut_random()
        self.c.send("KEY %s" % self.rng.choice(["P19", "P20", "P16", "P17", "P13"]))
        time.sleep(self.rng.uniform(0, 0.03))
        self.cut_now("settings")

    def cut_del(self):
        """A cut while a pulled record is deleted: it stays whole or is gone."""
        st = self.state()
        done = [n for n in self.known if n != st.get("record") and n in self.pulled
                and not self.sums_open.get(n)]
        if not done:
            self.pull_all()
            done = [n for n in self.known if n != st.get("record") and n in self.pulled
                    and not self.sums_open.get(n)]
        if not done:
            return self.cut_random()
        name = self.rng.choice(done)
        self.deleted.add(name)
        self.c.send("DEL %s" % name)
        time.sleep(self.rng.uniform(0, 0.02))
        self.cut_now("del")

    def cut_demo(self):
        """A cut while a demo writes its record."""
        ans = self.ask("DEMO 3 fast")
        if not ans.startswith("OK DEMO"):
            return self.cut_random()
        time.sleep(self.rng.uniform(0, 1.5))
        self.cut_now("demo")

    # ---- cuts at the named steps of a pull and of a flash (bgboard.soak_steps) -------------------
    def cut_named(self, kind):
        """A cut of KIND: `pull:STEP` and `flash:STEP` at a named step of the host's own pull
        or flash, the others by the soak's own requests (cut_KIND)."""
        if ":" not in kind:
            return getattr(self, "cut_" + kind)()
        job, step = kind.split(":")
        return self.cut_pull_step(step) if job == "pull" else self.cut_flash_step(step)

    def _cut_at_step(self):
        self.step_cut_at = self.cut()

    def _booted(self):
        """Wait for the board to answer HELLO after a cut, as a person waits for it to light up
        before pulling again (the emulated chip boots in 10 s or more of wall time)."""
        c = protocol.Client(SerialTransport(str(self.link), 0.05))
        try:
            self._hello(c)
        finally:
            c.close()

    def _hello(self, c):
        try:
            c.hello(self.boot_limit)
        except protocol.LinkError as e:
            raise Fault("no HELLO within %d s after power cut %d: %s"
                        % (self.boot_limit, self.cuts, e))

    def _reconnect(self):
        self.c = Watcher(SerialTransport(str(self.link), 0.05), self)
        self.boot(time.monotonic())

    def cut_pull_step(self, step, go_on=None):
        """`bgboard logs pull` (its own code) cut when it reaches STEP (LOGS, GET, DEL); then
        the next pull, uncut: every record the board listed as closed must be in the archive
        once, whole, and (with --delete) gone from the board."""
        # the events announced so far found on flash first: the pull may delete their record
        # (found by the soak: a game's last events, announced after the last check, were in a
        # record the pull then deleted, and counted as lost)
        self.check(" (before a pull)")
        listing = self.c.logs()
        closed = {n: d for n, (size, d, is_open) in listing.items() if not is_open}
        record = None
        if step == "GET":
            todo = [n for n in sorted(closed) if listing[n][0] > 96
                    and not self._archived(n, closed[n])]
            if not todo and any(listing[n][0] > 96 for n in closed):
                self.laptops += 1
                self.archive = self.archives / ("laptop%d" % self.laptops)
                todo = [n for n in sorted(closed) if listing[n][0] > 96]
            if not todo:
                step = "LOGS"           # nothing left to fetch: cut the listing instead
            else:
                record = self.rng.choice(todo)
        if step == "DEL" and not closed:
            step = "LOGS"
        unmarked = [n for n in closed if n not in self.c.marked]
        if step == "PULLED" and not unmarked:
            step = "LOGS"               # every record already marked: the pull marks none
        delete = step == "DEL"
        if delete:
            self.deleted.update(closed)         # each may go: the pull verified it first
        kind = "pull:" + step
        self.c.close()
        self.c = None
        wire = soak_steps.Tripwire(step, self._cut_at_step, self.rng, record=record,
                                   deletes=len(unmarked if step == "PULLED" else closed))
        if go_on is not None:
            wire.go_on = go_on
        p = soak_steps.CutPuller(self.link, self.archive, delete, wire, self.slow)
        failed = None
        try:
            p.run()
        except soak_steps.PowerCut:
            pass
        except protocol.LinkError as e:
            failed = e
        finally:
            if p.board:
                p.board.close()
        if wire.fired:
            self.cuts_note(kind, wire.what)
            self._booted()
        elif failed is not None:
            self.fault("the pull failed before its cut at %s: %s" % (step, failed))
        # the next pull, uncut
        p2 = soak_steps.CutPuller(self.link, self.archive, delete, slow=self.slow)
        try:
            p2.run()
        except protocol.LinkError as e:
            self.fault("the pull after a cut at %s (%s) failed: %s" % (step, wire.what, e))
        finally:
            if p2.board:
                p2.board.close()
        # what the pulls deleted, each verified on the laptop first: a finished game's record
        # the board still held open at the listing (its game-over screen) is closed by the boot
        # after the cut, and then pulled and deleted too (found by the full soak: '0005.bgr
        # disappeared (cut 69, pull:DEL ...)', the record in the archive, whole)
        self.deleted.update(p.deleted)
        self.deleted.update(p2.deleted)
        self._reconnect()
        later = {n: d for n, _, d in p.pulled + p2.pulled + p2.kept if n not in closed}
        self.check_archive(dict(closed, **later),   # (and those: the board's sha256)
                           " (after a cut at pull:%s, %s)" % (step, wire.what))
        now = self.c.logs()
        if delete:
            kept = sorted(n for n in closed if n in now)
            if kept:
                self.fault("pull --delete after a cut at DEL left %s on the board" % kept)
        elif self.c.marked or p2.marked:        # a firmware that keeps PULLED marks
            self.marked_seen |= self.c.marked
            unmarked = sorted(n for n in closed if n in now and n not in self.c.marked)
            if unmarked:
                self.fault("after the pull (cut at %s) %s not marked pulled on the board"
                           % (step, unmarked))
        if not wire.fired:
            self.cut_random()
        else:
            self.check(" (cut %d, %s: %s)" % (self.cuts, kind, wire.what))

    def _archived(self, name, digest, anywhere=False):
        """Whether record NAME with this sha256 is in the laptop's archive (ANYWHERE: in any
        laptop's)."""
        from bgboard import archive
        folders = [self.archives / ("laptop%d" % i) for i in range(1, self.laptops + 1)] \
            if anywhere else [self.archive]
        for folder in folders:
            try:
                if archive.place_for(folder, name, digest)[1]:
                    return True
            except Exception:
                pass
        return False

    def check_archive(self, closed, note):
        """Each record of CLOSED ({name: sha256}) in the archive exactly once and whole (it
        replays); no partial file left."""
        by_digest = {}
        from bgboard import archive
        for path in sorted(self.archive.rglob("*")):
            if path.name.endswith(".part"):
                self.fault("a partial file %s was left%s" % (path.name, note))
            elif path.is_file():
                by_digest.setdefault(archive.sha256_file(path), []).append(path)
        for name, digest in sorted(closed.items()):
            paths = by_digest.get(digest, [])
            if len(paths) != 1:
                self.fault("%s is %d times in the archive%s" % (name, len(paths), note))
                continue
            if digest in self.archived_ok:
                continue
            try:
                replay_text(paths[0].read_text())
                self.archived_ok.add(digest)
            except Exception as e:
                self.fault("%s arrived in the archive but does not replay%s: %s"
                           % (name, note, e))

    def cut_flash_step(self, step):
        """`bgboard flash` (its own code) of a new build, cut when it reaches STEP (see
        bgboard.soak_steps); the board must then boot the old firmware before the switch,
        the new one after it (or either, when the loader itself was still to be installed),
        with its profile and records."""
        if self.variants is None:
            self.variants = soak_steps.Variants(self.work / "variants", self.rng)
            self.flash_whole()
        old = self.c.info.get("fw")
        fw = self.variants.next(old)
        self.c.close()
        self.c = None
        f = soak_steps.CutFlasher(str(self.link), fw, step, self._cut_at_step, self.rng)
        outcome = None
        try:
            outcome = f.run()
        except soak_steps.PowerCut:
            pass
        except protocol.LinkError as e:     # FlashError is one
            self.fault("the flash failed before its cut at %s: %s" % (step, e))
        kind = "flash:" + f.step
        if f.wire.fired:
            self.cuts_note(kind, f.wire.what)
        else:
            # not cut (nothing to do, or the flash failed): the board restarted by the flash
            self.say("flash not cut at %s: %s" % (step, outcome))
        self._reconnect()
        now = self.c.info.get("fw")
        if f.wire.fired:
            before = f.step in ("send", "copy", "stamp", "switch")
            if now not in (old, fw.version):
                self.fault("after a cut at flash:%s the board runs fw %s, neither the old %s "
                           "nor the new %s" % (f.step, now, old, fw.version))
            elif before and now != old:
                self.fault("a cut before the switch (flash:%s) booted the new firmware %s"
                           % (f.step, now))
            elif not before and f.plan.loader is None and now != fw.version:
                self.fault("a cut after the switch booted the old firmware %s, not %s"
                           % (now, fw.version))
            which = "old" if now == old else "new"
            self.flash_boots[which] = self.flash_boots.get(which, 0) + 1
        if self.c.info.get("profile") != self.profile:
            self.fault("after a cut at flash:%s the board has profile %s, not %s"
                       % (f.step, self.c.info.get("profile"), self.profile))
        if f.wire.fired:
            self.check(" (cut %d, %s: %s)" % (self.cuts, kind, f.wire.what))
        else:
            self.cut_random()

    def flash_whole(self):
        """The board flashed (uncut) with a firmware build in slots and its loader, as
        `bgboard flash` leaves a board (a virtual board is installed without them)."""
        fw = self.variants.next()
        self.c.close()
        self.c = None
        f = soak_steps.CutFlasher(str(self.link), fw, None, self._cut_at_step, self.rng)
        try:
            f.run()
        except protocol.LinkError as e:
            self.fault("the flash of %s failed: %s" % (fw.version, e))
        self._reconnect()
        if self.c.info.get("fw") != fw.version:
            self.fault("after its flash the board runs fw %s, not %s"
                       % (self.c.info.get("fw"), fw.version))
        self.check(" (after the flash of %s)" % fw.version)

    def cuts_note(self, kind, what):
        self.cut_kinds[kind] = self.cut_kinds.get(kind, 0) + 1
        self.step_log.append((kind, what))

    # ---- records: pulled and verified -----------------------------------------------------------
    def pull_all(self):
        """Every record on the board into the out folder, checked against the board's sha256."""
        self.out.mkdir(parents=True, exist_ok=True)
        for name, (size, digest, is_open) in self.c.logs().items():
            data, size2, digest2 = self.get(name)
            if hashlib.sha256(data).hexdigest() != digest2:
                self.fault("%s: pulled bytes differ from the board's sha256" % name)
                continue
            (self.out / name).write_bytes(data)
            self.pulled[name] = data.decode("utf-8", "replace")

    def verify_all(self):
        """Every pulled record verified with `bgboard verify`'s code; finished games exported."""
        with BGCORE:
            return self._verify_all()

    def _verify_all(self):
        from bgboard import chouette, games
        out = {"records": 0, "verified": 0, "games": 0, "finished": 0, "exported": 0,
               "modes": {}, "torn": 0}
        exports = []                    # (record, export's text, format) for gnubg
        paths = sorted(self.out.glob("*.bgr"))
        from bgboard import archive
        seen = {archive.sha256_file(p) for p in paths}
        for path in sorted(self.archives.rglob("*.bgr")):   # pulled and deleted from the board
            digest = archive.sha256_file(path)
            if digest not in seen:
                seen.add(digest)
                paths.append(path)
        for path in paths:
            out["records"] += 1
            try:
                if chouette.is_chouette_file(path):
                    ch, info, torn = chouette.load(path)
                    rep = ch.rep
                    mode = "chouette"
                else:
                    ld = games.load(path)
                    rep, info, torn = ld.replay, ld.info, ld.torn
                    mode = info.get("mode", "?")
                    if info.get("ranked") == "1":
                        from bgboard.ranked import verify_ranked
                        res = verify_ranked(path.read_text())
                        mode = "ranked"
                        if "unranked" in (res.error or ""):
                            mode = "unranked"   # a hint, real dice, another level: replayed above
                        elif not res.ok and any(ln.startswith("END ") for ln in
                                                path.read_text().splitlines()):
                            raise ValueError("ranked check: %s" % res.error)
            except Exception as e:
                self.fault("%s does not verify: %s" % (path.name, e))
                continue
            out["verified"] += 1
            out["torn"] += 1 if torn else 0
            m = rep.match
            finished = sum(1 for ln in self.pulled.get(path.name, path.read_text()).splitlines()
                           if ln.startswith("END "))
            out["games"] += m.game
            out["finished"] += finished
            out["modes"][mode] = out["modes"].get(mode, 0) + finished
            if finished and mode != "chouette":
                try:
                    ld = games.load(path)
                    sgf = games.to_sgf(ld)
                    if games.mat_refusal(ld):
                        exports.append((path, ld, sgf, "sgf"))
                    else:
                        exports.append((path, ld, games.to_mat(ld), "mat"))
                    out["exported"] += 1
                except Exception as e:
                    self.fault("%s does not export: %s" % (path.name, e))
        self.gnubg_load(exports)
        return out

    def gnubg_load(self, exports):
        """A sample of the exports (at most GNUBG_SAMPLE, all of them when fewer) loaded into
        GNU Backgammon (Debian's gnubg, headless): each must load without a warning and show
        the record's score."""
        from bgboard import games, paths
        try:
            tool = paths.tool("gnubg")
        except paths.ToolMissing as e:
            self.say("exports not loaded into gnubg: %s" % e)
            return
        sample = exports if len(exports) <= self.gnubg_sample else \
            random.Random(self.seed).sample(exports, self.gnubg_sample)
        g = self.gnubg = {"loaded": 0, "failed": 0, "mat": 0, "sgf": 0}
        folder = self.work / "gnubg"
        (folder / "home").mkdir(parents=True, exist_ok=True)
        for path, ld, text, fmt in sample:
            why = gnubg_check(tool, folder, path.stem, text, fmt, ld.replay.match.score,
                              games.gnubg_setting(ld) if fmt == "mat" else None)
            g[fmt] += 1
            if why:
                g["failed"] += 1
                self.fault("%s's .%s export in gnubg: %s" % (path.name, fmt, why))
            else:
                g["loaded"] += 1

    # ---- years of games: the flash filled, pulled with --delete, played on ---------------------
    def fill_flash(self):
        """Years of games: the board's own demo record, copied onto its flash while it is off
        (as years of play leave records) to within DEMO_MARGIN of its floor; then its demos until
        it refuses one, a new game refused, `logs pull --delete`, and a game played again."""
        t0 = time.monotonic()
        ans = self.ask("DEMO 8 fast")
        while self.state().get("demo") != "0":
            time.sleep(0.3)
        listing = self.c.logs()
        demo = max(listing, key=lambda n: listing[n][0])
        data, _, _ = self.get(demo)
        self.stop()
        copies = copy_records(self.image, data, keep_free=DEMO_MARGIN)
        self.start(self.profile)
        self.check(" (the flash filled with %d copies of a demo record)" % copies)
        free0 = int(self.state().get("free", 0))
        demos = 0
        refused = None
        while refused is None and not self.late():
            ans = self.ask("DEMO 5 fast")
            if ans.startswith("NO DEMO"):
                ans = self.ask("DEMO 1 fast")
                if ans.startswith("NO DEMO"):
                    refused = ans
                    break
            demos += 1
            while True:
                st = self.state()
                if st.get("demo") == "0":
                    break
                time.sleep(0.5)
            self.lost_check_light()
        if refused is None:
            self.fill_note = "stopped by --minutes before the flash was full"
            return
        free1 = int(self.state().get("free", 0))
        # a new game is refused too, with the message saying what to do
        self.press("MENU")
        st = self.state()
        why = self.press("OK") if st.get("view") == "menu" else None
        if "pull" not in refused:
            self.fault("the refused demo does not say to pull the records: %r" % refused)
        if why is None and free1 < ROOM_GAME_KB:
            self.fault("a new game started with %d KB free (the floor is %d KB)"
                       % (free1, ROOM_GAME_KB))
        game_refused = why is not None and "pull" in why
        # pulled with --delete (bgboard logs pull's own code), then played on
        self.c.close()
        self.c = None
        p = soak_steps.CutPuller(self.link, self.out / "fill", True, slow=self.slow)
        with BGCORE:
            p.run()
        self.c = Watcher(SerialTransport(str(self.link), 0.05), self)
        self.boot(time.monotonic())
        for name in p.deleted:
            self.deleted.add(name)
        free2 = int(self.state().get("free", 0))
        self.check(" (after the pull with --delete)")
        played = self.play_one()
        self.fill_note = ("%d copies of a demo record put on the flash, then %d demo runs by "
                          "the board (%d KB free to %d KB; then %r; a new game %s), %d records "
                          "pulled with --delete (%d KB free), a new game %s; %.0f s"
                          % (copies, demos, free0, free1, refused,
                             "refused too" if game_refused else "still fits (above %d KB)"
                             % ROOM_GAME_KB, len(p.pulled), free2,
                             "played to its end" if played else "NOT finished",
                             time.monotonic() - t0))

    def lost_check_light(self):
        self.announced = []          # demo events: the demo records are checked at the end

    def play_one(self, limit=3000):
        """A game from the menu played to its end by guided keys."""
        self.press("MENU")
        st = self.state()
        if st.get("view") == "menu" and self.press("OK"):
            return False
        rec = self.state().get("record")
        for _ in range(limit):
            st = self.state()
            if st.get("record") != rec or st.get("phase") in ("game_over", "match_over"):
                return True
            self.guide()
        return False

    def late(self):
        return self.deadline is not None and time.monotonic() > self.deadline

    # ---- the whole soak -----------------------------------------------------------------------
    def begin(self):
        """The board started and its records known (what every later check compares with)."""
        self.current = None
        self.sums_open = {}
        self.where, self.base_len, self.last_rec = {}, {}, None
        self.start("reference")
        self.check(" (at the start)")

    def run(self):
        t0 = time.monotonic()
        self.begin()
        probe = self.probe_lines = min(2000, self.n_lines // 10)
        self.heap_probe(probe)
        if self.fill:
            self.phase = "years"
            try:
                self.fill_flash()
                self.cut_now("random")      # the board's own longest gap starts again
            except Fault as e:
                self.fault(str(e))
                self.recover()
            self.phase = "soak"
        total = self.n_lines - 2 * probe + self.n_keys
        cut_at = sorted(self.rng.randrange(max(1, total)) for _ in range(self.n_cuts))
        kinds = list(NAMED_CUTS) * (self.n_cuts // (2 * len(NAMED_CUTS)) + 1)
        lines_left, keys_left = self.n_lines - 2 * probe, self.n_keys
        done = 0
        ci = 0
        switched = False
        last_report = time.monotonic()
        while (lines_left or keys_left or ci < len(cut_at)) and not self.late():
            try:
                while ci < len(cut_at) and cut_at[ci] <= done:
                    ci += 1
                    if ci % 2 == 0 and kinds:
                        self.cut_named(kinds.pop(0))
                    else:
                        self.cut_random()
                if not switched and done >= total // 2 and total:
                    # the other input scheme: four buttons (profile minimal), records kept
                    switched = True
                    self.stop()
                    self.start("minimal")
                    self.check(" (the four-button profile installed)")
                if not (lines_left or keys_left):
                    done += 1
                    continue
                if self.rng.randrange(lines_left + keys_left) < lines_left:
                    k = min(lines_left, self.rng.randrange(1, BATCH + 1))
                    self.lines_batch(k)
                    lines_left -= k
                    done += k
                else:
                    k = min(keys_left, self.rng.randrange(1, 9))
                    self.keys(k)
                    keys_left -= k
                    done += k
                    for _ in range(self.rng.randrange(0, k + 1)):
                        self.guide()
            except Fault as e:
                self.fault(str(e))
                self.recover()
            if time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                self.say("soak: %d cuts, %d lines, %d keys, %d faults, %.0f s"
                         % (self.cuts, self.lines_sent, self.keys_sent, len(self.faults),
                            time.monotonic() - t0))
        try:
            self.heap_probe(probe)
            self.check(" (at the end)")
            self.pull_all()
        except Fault as e:
            self.fault(str(e))
        self.stop()
        self.verified = self.verify_all()
        self.seconds = time.monotonic() - t0
        if self.reporting:
            self.report(self.verified, self.seconds)
        return 1 if self.faults else 0

    def heap_probe(self, n):
        """Garbage lines in one boot, in the menu: the free heap before and after them (the
        board collected before each figure) must be the same, within a block or two."""
        if self.state().get("view") != "menu":
            self.press("MENU")
        before = int(self.state().get("heap", 0))
        while n > 0:
            k = min(n, BATCH)
            self.lines_batch(k)
            n -= k
        st = self.state()
        after = int(st.get("heap", 0))
        self.heaps.append((before, after))
        if st.get("view") != "menu" or before - after > 1024:
            self.fault("the heap shrank by %d bytes over garbage lines (view %s)"
                       % (before - after, st.get("view")))

    def recover(self):
        """After a fault: the board is asked HELLO again (cut if it does not answer)."""
        try:
            self.c.drain()
            self.c.hello(self.boot_limit)
            self.ask("WATCH on")
            self.ask("FAST on")
        except (protocol.LinkError, Fault):
            t = self.cut()
            self.boot_times.append(self.boot(t))
        self.check(" (after a fault)")

    def report(self, v, seconds):
        bt = sorted(self.boot_times) or [0]
        gap_ms = self.feed_gap / 1000.0
        p = self.say
        p("bgboard soak: seed %d, %d power cuts, %d garbage lines, %d random keys"
          % (self.seed, self.n_cuts, self.n_lines, self.n_keys))
        p("power cuts survived: %d (%s)" % (self.cuts, ", ".join(
            "%s %d" % kv for kv in sorted(self.cut_kinds.items()))))
        p("events announced (!EV): %d, lost: %d; torn last lines dropped: %d"
          % (self.announced_total, self.lost, self.torn_seen))
        p("boot time after a cut: median %.2f s, 90%% %.2f s, max %.2f s (%s, %d boots)"
          % (statistics.median(bt), bt[int(len(bt) * 0.9)] if bt else 0, bt[-1],
             "wall time of the emulated RP2040, 0.2-0.3x real time" if self.chip
             else "unix port", len(bt)))
        p("garbage lines: %d sent; answers: %s" % (self.lines_sent, ", ".join(
            "%s %d" % kv for kv in sorted(self.line_answers.items(), key=lambda kv: -kv[1]))))
        for i, (a, b) in enumerate(self.heaps):
            p("free heap at the %s%s: %.1f KB before %d garbage lines, %.1f KB after (menu)"
              % ("start" if i % 2 == 0 else "end", " of board %d" % (i // 2 + 1)
                 if len(self.heaps) > 2 else "", a / 1024, self.probe_lines, b / 1024))
        p("keys: %d random (%d refused), %d guided; application faults (!ERROR): %d"
          % (self.keys_sent, self.keys_refused, self.guided, len(self.errors)))
        p("records: %d pulled, %d verified (%d with a torn last line); games: %d finished, "
          "%d records exported; finished by mode: %s"
          % (v["records"], v["verified"], v["torn"], v["finished"], v["exported"],
             ", ".join("%s %d" % kv for kv in sorted(v["modes"].items()))))
        if self.board_deleted:
            p("records the board deleted itself (marked pulled, held by the laptop): %d"
              % self.board_deleted)
        named = sorted(k for k in self.cut_kinds if ":" in k)
        p("cuts at named steps: %s; after a flash cut the board booted the old firmware %d "
          "times, the new %d" % (", ".join("%s %d" % (k, self.cut_kinds[k]) for k in named)
                                 or "none", self.flash_boots.get("old", 0),
                                 self.flash_boots.get("new", 0)))
        g = self.gnubg
        if g is not None:
            p("exports loaded into gnubg: %d (%d .mat, %d .sgf), %d failed"
              % (g["loaded"] + g["failed"], g["mat"], g["sgf"], g["failed"]))
        else:
            p("exports loaded into gnubg: none (gnubg missing or nothing finished)")
        if self.fill_note:
            p("years of games: %s" % self.fill_note)
        if self.chip:
            p("longest gap between watchdog feeds: %.1f ms of emulated RP2040 time (its "
              "watchdog: %d s%s)%s" % (gap_ms, WATCHDOG_MS // 1000, ": OVER IT"
                                       if gap_ms > WATCHDOG_MS else "", self.gap_what and
                                       ", %s" % self.gap_what))
            p("chip resets: %d by the watchdog, %d by machine.reset() (bgboard flash)"
              % (self.chip_resets.get("timeout", 0), self.chip_resets.get("forced", 0)))
        else:
            p("longest gap between watchdog feeds: %.1f ms of CPU on the unix port%s, x%d = "
              "%.2f s (the RP2040's watchdog: %d s%s)" % (
                  gap_ms, " (%s)" % self.gap_what if self.gap_what else "", WATCHDOG_SCALE,
                  gap_ms * WATCHDOG_SCALE / 1000, WATCHDOG_MS // 1000,
                  ": over it by this proxy; --chip rp2040 measures the chip's own"
                  if gap_ms * WATCHDOG_SCALE > WATCHDOG_MS else ""))
        if len(self.gaps) > 1:
            scale = 1 if self.chip else WATCHDOG_SCALE
            p("  by phase: %s" % ", ".join(
                "%s %.1f ms%s" % (k, v / 1000, "" if self.chip else " (x%d = %.2f s)"
                                  % (scale, v * scale / 1e6))
                for k, v in sorted(self.gaps.items())))
        p("time taken: %d min %02d s" % (seconds // 60, seconds % 60))
        if self.faults:
            p("FAULTS (%d):" % len(self.faults))
            for f in self.faults[:50]:
                p("  " + f)
        else:
            p("no faults")


# the soak's cuts at named moments, taken in turn (every other cut; the rest at random instants)
NAMED_CUTS = ("pull:GET", "settings", "pull:LOGS", "demo", "pull:DEL", "flash:send", "boot",
              "pull:PULLED", "flash:copy", "del", "flash:stamp", "pull", "flash:switch",
              "flash:switched")
GNUBG_SAMPLE = 60           # exports loaded into gnubg at the end of a soak (a sample)


def gnubg_check(tool, folder, stem, text, fmt, score, setting=None):
    """Load one export (TEXT, a .mat or .sgf) into gnubg -q -t (HOME in FOLDER/home), after
    SETTING (what `bgboard export` says a money or no-cube .mat is imported with: the format
    cannot carry the Jacoby rule): None when it loads without a warning and shows SCORE, else
    what went wrong in one line."""
    f = folder / ("%s.%s" % (stem, fmt))
    f.write_text(text)
    cmd = ("import mat %s" if fmt == "mat" else "load match %s") % f
    if setting:
        cmd = setting + "\n" + cmd
    try:
        r = subprocess.run([tool, "-q", "-t"], input="set threads 1\n%s\nshow score\n" % cmd,
                           text=True, capture_output=True, timeout=300,
                           env=dict(os.environ, HOME=str(folder / "home")))
    except subprocess.TimeoutExpired:
        return "gnubg did not finish within 300 s"
    out = r.stdout + r.stderr
    warn = [ln for ln in out.splitlines() if "WARNING" in ln.upper() and "WARRANTY" not in
            ln.upper()]
    if warn:
        return warn[0].strip()[:200]
    found = re.findall(r"The score \(after \d+ games?\) is: .* (-?\d+), .* (-?\d+) \(", out)
    if not found:
        return "gnubg shows no score (%s)" % out.strip().splitlines()[-1][:200] \
            if out.strip() else "gnubg printed nothing"
    got = [int(found[-1][0]), int(found[-1][1])]
    if got != list(score):
        return "gnubg shows the score %s, the record %s" % (got, list(score))
    return None


ROOM_GAME_KB = 16           # the board's floor for a new game (bgapp.room.ROOM_GAME)
DEMO_MARGIN = 48 * 1024      # free flash left by the copies, for the board's own demos to fill


def copy_records(image, data, keep_free):
    """Copies of record DATA on an image (the board off), named as the board names records,
    until about KEEP_FREE bytes are free. Returns how many were written."""
    fs = vboard.open_image(image)
    st = fs.fs_stat()
    block = st.block_size
    n = 0
    number = 9000
    while (fs.block_count - fs.used_block_count) * block > keep_free + len(data) + 2 * block:
        while True:
            name = "/data/%04d.bgr" % number
            try:
                fs.stat(name)
                number += 1
            except Exception:
                break
        with fs.open(name, "wb") as f:
            f.write(data)
        n += 1
        number += 1
    vboard.save_image(fs, image)
    return n


def set_profile(image, name, target="unix"):
    """Put board profile NAME on an image that holds the firmware (the records are kept), for a
    board of TARGET ("unix": the virtual HAL; "rp2040": the chip's own)."""
    from bgboard import build, paths
    fs = vboard.open_image(image)
    data = build.profile_file(json.loads(paths.profile_path(name).read_text()), target)
    with fs.open("/profile.json", "wb") as f:
        f.write(data)
    vboard.save_image(fs, image)


def _point_key(q, player):
    """The key for point q in the mover's numbering (25 bar, 0 off)."""
    if q == 25:
        return "BAR"
    if q == 0:
        return "OFF"
    return "P%d" % (q if player == 0 else 25 - q)


def merged(soaks):
    """One Soak holding the figures of several boards run side by side (for its report)."""
    m = soaks[0]
    for o in soaks[1:]:
        for k in ("n_cuts", "n_lines", "n_keys", "cuts", "lost", "announced_total", "torn_seen",
                  "discarded", "board_deleted", "lines_sent", "keys_sent", "keys_refused", "guided"):
            setattr(m, k, getattr(m, k) + getattr(o, k))
        for k in ("cut_kinds", "line_answers", "chip_resets"):
            for kk, v in getattr(o, k).items():
                getattr(m, k)[kk] = getattr(m, k).get(kk, 0) + v
        m.boot_times += o.boot_times
        m.heaps += o.heaps
        m.errors += o.errors
        m.faults += ["board %d: %s" % (soaks.index(o) + 1, f) for f in o.faults]
        if o.feed_gap > m.feed_gap:
            m.feed_gap, m.gap_what = o.feed_gap, o.gap_what
        for k, v in o.gaps.items():
            m.gaps[k] = max(m.gaps.get(k, 0), v)
        m.fill_note = m.fill_note or o.fill_note
        for kk, n in o.flash_boots.items():
            m.flash_boots[kk] = m.flash_boots.get(kk, 0) + n
        if o.gnubg is not None:
            if m.gnubg is None:
                m.gnubg = dict(o.gnubg)
            else:
                for kk, n in o.gnubg.items():
                    m.gnubg[kk] += n
        v, ov = m.verified, o.verified
        for k in ("records", "verified", "games", "finished", "exported", "torn"):
            v[k] += ov[k]
        for kk, n in ov["modes"].items():
            v["modes"][kk] = v["modes"].get(kk, 0) + n
    return m


def run(cuts=1000, lines=100000, keys=100000, seed=None, minutes=None, fill=True, work=None,
        boards=1, chip=None):
    """`bgboard soak`. With BOARDS > 1 the cuts, lines and keys are shared among that many
    virtual boards run side by side (each its own flash; the flash is filled on the first).
    CHIP "rp2040": the boards are emulated RP2040s (bgboard.chip), the feed gaps chip time."""
    import threading
    if chip:
        from bgboard import chip as emulated
        try:
            emulated.check()
        except emulated.ChipUnavailable as e:
            print("bgboard soak: %s" % e, file=sys.stderr)
            return 1
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    # the stream as it is now: bgboard flash's code swaps sys.stdout for a moment around each
    # raw-REPL command, which would swallow another board's lines
    out = sys.stdout
    say = lambda t: print(t, file=out, flush=True)  # noqa: E731
    soaks = []
    for i in range(boards):
        part = lambda n: n // boards + (1 if i < n % boards else 0)  # noqa: E731
        w = None if work is None else Path(work) / ("board%d" % (i + 1) if boards > 1 else "")
        tag = "board %d: " % (i + 1) if boards > 1 else ""
        s = Soak(part(cuts), part(lines), part(keys), seed + i, minutes=minutes,
                 fill=fill and i == 0, work=w, say=lambda t, tag=tag: say(tag + t), chip=chip)
        s.reporting = boards == 1
        s.gnubg_sample = -(-GNUBG_SAMPLE // boards)     # the sample shared among the boards
        soaks.append(s)
    t0 = time.monotonic()
    codes = [1] * boards

    def one(i):
        try:
            codes[i] = soaks[i].run()
        except Exception as e:          # a fault of the soak itself: say it, count it
            soaks[i].fault("the soak stopped: %r" % e)
            if soaks[i].verified is None:
                soaks[i].verified = {"records": 0, "verified": 0, "games": 0, "finished": 0,
                                     "exported": 0, "modes": {}, "torn": 0}
        finally:
            soaks[i].stop()
            if soaks[i].tmp:
                soaks[i].tmp.cleanup()

    if boards == 1:
        one(0)
        return codes[0]
    threads = [threading.Thread(target=one, args=(i,)) for i in range(boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    m = merged(soaks)
    m.say = say
    m.seed = seed
    say("(%d virtual boards side by side, seeds %d-%d)" % (boards, seed, seed + boards - 1))
    m.report(m.verified, time.monotonic() - t0)
    return 1 if m.faults else 0
