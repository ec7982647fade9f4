"""Power cuts at the named steps of a pull and of a flash, for `bgboard soak` (bgboard.soak).

The host's own code runs the pull (bgboard.logs.Puller) and the flash (bgboard.flashing.Flasher);
a tripwire in it cuts the board (kill -9 of the virtual board's MicroPython) at the moment the
host reaches the named step - not at a random instant, not after a fixed delay:

  pull:LOGS   the host has read the k-th line of the board's listing (the board is hashing the
              records for the lines still to come)
  pull:GET    the host has read the k-th data line of a record (mid-transfer); half the time
              the pull then goes on by itself (its reconnect and resume), else it stops there
              and the next pull resumes from the partial file
  pull:DEL    the host has sent DEL for the k-th record it verified (the board is deleting it)
  pull:PULLED the host has sent PULLED for the k-th record it verified (the board is hashing it
              and appending its mark to its index)
  flash:send  the host has sent the k-th chunk of a firmware file (mid-file)
  flash:copy  the board has received the command copying unchanged files from the running slot
  flash:stamp the staged slot's version stamp is written and checked, the switch not yet made
  flash:switch  the new /fw/active is written and checked, not yet renamed over the old one
  flash:switched  the rename is done (the new firmware is switched on), the rest not yet

After a pull cut the next pull (uncut) must bring every record once and intact; after a flash
cut the board must boot the old firmware before the switch and the new one after it."""

import contextlib
import io
import re
import time

from bgboard import flashing
from bgboard.build import Build, compile_module
from bgboard.link import Board
from bgboard.protocol import ANSWER_TIMEOUT
from bgboard.logs import Puller

PULL_STEPS = ("LOGS", "GET", "DEL", "PULLED")
FLASH_STEPS = ("send", "copy", "stamp", "switch", "switched")


class PowerCut(Exception):
    """The board was cut at the named step; the host's job stops with it."""


class Tripwire:
    """Cuts the board once, when the host reaches STEP (see the module's text). CUT() kills the
    board; `fired` says whether it has."""

    def __init__(self, step, cut, rng, record=None, deletes=1):
        self.step = step
        self.cut = cut
        self.rng = rng
        self.record = record          # pull:GET: the record cut in its transfer
        self.deletes = deletes        # pull:DEL, PULLED: how many records the pull deletes, marks
        self.fired = False
        self.what = None              # where exactly (for the report)
        self.go_on = rng.random() < 0.5
        self.countdown = None
        self.sending = None

    def fire(self, what, stop=True):
        self.fired = True
        self.what = what
        self.cut()
        if stop:
            raise PowerCut(what)

    # -- the pull's link
    def line_seen(self, line):
        if self.fired:
            return
        if self.step == "LOGS":
            m = re.match(r"LOGS (\d+)$", line)
            if m:
                self.countdown = self.rng.randrange(0, int(m.group(1)) + 1)
            if self.countdown is not None and (line.startswith("LOG ") or m):
                if self.countdown == 0:
                    self.fire("LOGS: after the line %r" % line[:24])
                self.countdown -= 1
        elif self.step == "GET":
            if line.startswith("FILE %s " % self.record):
                size = int(line.split()[2])
                self.countdown = self.rng.randrange(0, max(1, size // 96))
            elif self.countdown is not None and line.startswith("D "):
                if self.countdown == 0:
                    self.fire("GET %s: after byte %s" % (self.record, line.split()[1]),
                              stop=not self.go_on)
                self.countdown -= 1

    def line_sent(self, line):
        if not self.fired and self.step in ("DEL", "PULLED") and \
                line.startswith(self.step + " "):
            if self.countdown is None:
                self.countdown = self.rng.randrange(0, max(1, self.deletes))
            if self.countdown == 0:
                self.fire(line)
            self.countdown -= 1


class CutBoard(Board):
    """The pull's link to the board, telling the tripwire each line sent and read; its waits
    SLOW times a person's (the emulated chip runs at a fraction of real time)."""

    wire = None
    slow = 1

    def answer(self, word, timeout=ANSWER_TIMEOUT):
        return Board.answer(self, word, timeout * self.slow)

    def body_line(self, timeout=ANSWER_TIMEOUT):
        return Board.body_line(self, timeout * self.slow)

    def hello(self, timeout=15.0):
        return Board.hello(self, timeout * self.slow)

    def send(self, line):
        Board.send(self, line)
        if self.wire:
            self.wire.line_sent(line)

    def _take_line(self):
        line = Board._take_line(self)
        if self.wire:
            self.wire.line_seen(line)
        return line


class CutPuller(Puller):
    """bgboard logs pull's own code, its link tripwired (WIRE None: an uncut pull)."""

    def __init__(self, port, out, delete, wire=None, slow=1):
        Puller.__init__(self, port, out=str(out), delete=delete, show=False)
        self.wire = wire
        self.slow = slow

    def run(self):
        # its notes ("NAME is being written ...") are for a person at a terminal
        with contextlib.redirect_stderr(io.StringIO()):
            return Puller.run(self)

    def open_board(self, port):
        b = CutBoard(port)
        b.wire = self.wire
        b.slow = self.slow
        return b


# ---- the flash -------------------------------------------------------------------------------
class Variants:
    """Firmware builds that differ from this tree's in their version and in one module each
    (a developer's next build): every flash sends a file of several chunks, and files the
    staged slot lacks but the running slot holds are copied on the board. Its module is never
    that of the firmware running (RUNNING, a version) nor of the last build: the module the
    last flash changed in the staged slot is then copied back from the running one."""

    def __init__(self, work, rng):
        self.base = flashing.build()
        self.work = work
        self.rng = rng
        self.n = 0
        self.module = {}          # version -> the module it changed
        self.last = None
        lib = self.base.fw_dir / "lib"
        # modules that take several chunks to send
        self.big = sorted(k for k, v in self.base.files.items()
                          if k.startswith("lib/") and len(v) > 3 * flashing.CHUNK
                          and (lib / k[4:]).with_suffix(".py").exists())

    def next(self, running=None):
        self.n += 1
        version = "%s-soak%d" % (self.base.version, self.n)
        lib = self.base.fw_dir / "lib"
        files = dict(self.base.files)
        init = lib / "bgcore" / "__init__.py"
        text = init.read_text()
        line = '__version__ = "%s"' % self.base.version
        assert line in text, "bgcore/__init__.py does not set __version__ as expected"
        files["lib/bgcore/__init__.mpy"] = self._compile(
            "bgcore/__init__.py", text.replace(line, '__version__ = "%s"' % version))
        mod = self.rng.choice([m for m in self.big
                               if m not in (self.last, self.module.get(running))])
        self.module[version] = self.last = mod
        src = (lib / mod[4:]).with_suffix(".py")
        files[mod] = self._compile(mod[4:-4] + ".py",
                                   src.read_text() + "\n_BUILD = %r\n" % version)
        return Build(self.base.fw_dir, files, self.base.loader, version, self.base.mpy)

    def _compile(self, rel, text):
        d = self.work / ("v%d" % self.n)
        src = d / "src" / rel
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(text)
        return compile_module(src, rel, d / "out" / rel.replace(".py", ".mpy"))


class CutFlasher(flashing.Flasher):
    """bgboard flash's own code with firmware FW (a Build), tripwired at STEP (None: a whole
    flash, the board reset and answering HELLO with the new version at its end)."""

    def __init__(self, port, fw, step, cut, rng):
        flashing.Flasher.__init__(self, port, out=io.StringIO())
        self.fw = fw
        self.step = step
        self.wire = Tripwire(step, cut, rng)
        self.rng = rng
        self.plan = None
        self.at = None          # (file, chunk) of a send cut

    def run(self):
        self.connect()
        cut = False
        try:
            p = flashing.plan(self.survey(), self.fw, None, flashing.read_profile("reference"),
                              None, self.port)
            self.plan = p
            if p.nothing_to_do:
                return "nothing to do"
            if self.step == "copy" and not p.local:
                self.step = self.wire.step = "send"     # nothing to copy on the board: send
            if self.step == "send":
                f = self.rng.choice([k for k in p.send if len(self.fw.files[k])
                                     > flashing.CHUNK] or p.send)     # mid-file, where it can
                chunks = (len(self.fw.files[f]) + flashing.CHUNK - 1) // flashing.CHUNK
                self.at = ("/fw/%s/%s" % (p.slot, f), self.rng.randrange(0, chunks))
            self.carry_out(p, self.fw, time.monotonic())
            return "flashed"
        except PowerCut:
            cut = True
            raise
        finally:
            if self.t is not None:
                try:
                    if not cut:
                        self.t.exit_raw_repl()
                    self.t.close()
                except Exception:
                    pass
                self.t = None

    def exec(self, code, timeout=30):
        if self.step == "copy" and not self.wire.fired and "_cp(" in code \
                and "profile.json" not in code:
            self.t.exec_raw_no_follow(code)     # the board has the command and is copying
            self.wire.fire("flash: copying %d file(s) on the board" % len(self.plan.local))
        out = flashing.Flasher.exec(self, code, timeout)
        if self.step == "switched" and not self.wire.fired and "os.rename('/fw/active.new'" \
                in code:
            self.wire.fire("flash: just after the switch to slot %s" % self.plan.slot)
        return out

    def write_file(self, path, data, bar=None):
        if self.step != "send" or self.wire.fired or path != self.at[0]:
            return flashing.Flasher.write_file(self, path, data, bar)
        self.exec("f = open(%r, 'wb')\nw = f.write" % path)
        for i in range(0, self.at[1] * flashing.CHUNK, flashing.CHUNK):
            self.exec("w(%r)" % data[i:i + flashing.CHUNK], timeout=flashing.PROMPT_TIMEOUT)
        self.wire.fire("flash: %s after %d of %d bytes" % (path, self.at[1] * flashing.CHUNK,
                                                          len(data)))

    def put_checked(self, path, data):
        if self.step == "switch" and path == "/fw/active.new" and not self.wire.fired:
            flashing.Flasher.put_checked(self, path, data)
            self.wire.fire("flash: /fw/active.new written, not yet renamed")
        flashing.Flasher.put_checked(self, path, data)
        if self.step == "stamp" and path.endswith("/" + flashing.SLOT_STAMP) \
                and not self.wire.fired:
            self.wire.fire("flash: the version stamp of slot %s written" % self.plan.slot)

