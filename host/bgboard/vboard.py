"""`bgboard vboard`: a virtual Pico. MicroPython's real unix port runs as the board, its stdin and
stdout on a pseudo-terminal (PATH, a symlink to it) that mpremote, pyserial and the host tool open
as they open a Pico's USB serial port; its filesystem is a real littlefs image, like a Pico's flash,
mounted at "/". Soft reset behaves as on a board (the unix port exits: the bridge restarts it and
prints MicroPython's soft-reboot line); the death of the process by a signal (kill -9: a power cut)
restarts it as a cold boot. A new image is a blank board: no firmware until something installs it
(`--install`, or mpremote / `bgboard flash`).

Two pseudo-terminals: the board's own (its controlling terminal, ISIG on so that Ctrl-C arrives
as SIGINT, OPOST off) and the link the host opens (raw); the bridge copies bytes between them."""

import errno
import fcntl
import functools
import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from bgboard import build, paths

BLOCK_SIZE = 4096
BLOCK_COUNT = 352            # 1.375 MB, the size of a Pico's MicroPython filesystem
SOFT_REBOOT = b"MPY: soft reboot\r\n"
OUT_MAX = 1 << 20            # output kept for a host that does not read, before it is dropped
IN_MAX = 4096                # input held for a board that does not read, before the bridge stops
                             # reading the link (the host's writes then wait, as a Pico's USB
                             # makes them wait: nothing the host sends is dropped)
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"

REPO, FIRMWARE, PROFILES = paths.REPO, paths.FIRMWARE, paths.PROFILES   # (older names)

# Run by MicroPython before anything else, from the host's filesystem: mount the image as "/",
# set the board's sys.path and run /main.py as a board's boot does (unless restarting into the
# raw REPL). Then the unix port's REPL takes over (-i).
_SHIM = r'''
import vfs, os, sys
class _Flash:
    # the image file as a littlefs block device (extended interface: offsets within blocks)
    def __init__(self, f, n):
        self.f = f
        self.n = n
    def readblocks(self, b, buf, off=0):
        self.f.seek(b * %(bs)d + off)
        self.f.readinto(buf)
    def writeblocks(self, b, buf, off=None):
        self.f.seek(b * %(bs)d + (off or 0))
        self.f.write(buf)
    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return %(bs)d
        if op == 6:
            return 0
        return 0
class _CpuClock:
    # this process's CPU time (the kernel's schedstat, ns), read before the host's filesystem
    # is unmounted: the virtual HAL measures the gaps between watchdog feeds with it (CPU time,
    # not wall time, so that a loaded machine does not count against the firmware)
    def __init__(self, f):
        self.f = f
    def ns(self):
        self.f.seek(0)
        return int(self.f.read(48).split()[0])
try:
    sys.modules["_vcpu"] = _CpuClock(open("/proc/self/schedstat", "rb"))
except OSError:
    pass
del _CpuClock
_f = open(%(image)r, "r+b")
vfs.umount("/")
vfs.mount(vfs.VfsLfs2(_Flash(_f, %(blocks)d)), "/")
os.chdir("/")
sys.path[:] = ["", ".frozen", "/lib"]
del _Flash, _f
def _boot():
    try:
        os.stat("/main.py")
    except OSError:
        return
    g = {"__name__": "__main__", "__file__": "/main.py"}
    with open("/main.py") as f:
        src = f.read()
    exec(compile(src, "main.py", "exec"), g)
if not %(raw)r:
    try:
        _boot()
    except KeyboardInterrupt:
        print("Traceback (most recent call last):\n  File \"main.py\"\nKeyboardInterrupt: ")
    except BaseException as e:
        sys.print_exception(e)
del _boot, vfs
import gc
gc.collect()
'''


def micropython_binary():
    """The `micropython` command of this environment."""
    try:
        return paths.tool("micropython")
    except paths.ToolMissing as e:
        raise SystemExit("bgboard vboard: MicroPython's unix port is missing: %s" % e)


@functools.cache
def port_mpy():
    """This unix port's sys.implementation._mpy (what .mpy files, and whose machine code, it
    loads; build.native_arch), or None where it does not say (or is not installed)."""
    try:
        binary = paths.tool("micropython")
    except paths.ToolMissing:
        return None
    r = subprocess.run([binary, "-c",
                        "import sys; print(getattr(sys.implementation, '_mpy', ''))"],
                       capture_output=True, text=True, timeout=60)
    out = r.stdout.strip()
    return int(out) if r.returncode == 0 and out.isdigit() else None


# The heap the virtual board's MicroPython gets. The unix port's objects are 64-bit, about twice
# the bytes of a Pico's, so this is no measure of the chip (the emulated RP2040 is: `bgboard bench
# chip`, lowest free heap in a level-6 game 161 KB of 244 KB). At 192k a game's live peak of about
# 160 KB left plays() short of an unbroken block in about 1 game in 40 (5 in 40 ranked): the
# budgets are held by the tests that measure the live peak, not by starving the virtual board.
# 256k until the board interned all of the firmware's names at power-up (bgapp.app.intern_names:
# 19 KB more in use from the start on the unix port); 288k gives the firmware the room it had.
DEFAULT_HEAP = "288k"


def parse_size(text):
    """'192k', '2M', '65536' -> bytes."""
    t = str(text).strip().lower()
    mult = 1
    if t.endswith("k"):
        mult, t = 1024, t[:-1]
    elif t.endswith("m"):
        mult, t = 1024 * 1024, t[:-1]
    if not t.isdigit():
        raise ValueError("a heap size is a number with an optional k or M, not %r" % text)
    return int(t) * mult


# ---- the flash image (littlefs, as the unix port's VfsLfs2 reads it) -------------------------

def _lfs(buffer=None):
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, mount=False)
    if buffer is None:
        fs.format()
    else:
        fs.context.buffer = bytearray(buffer)
    fs.mount()
    return fs


def new_image(path):
    """A blank board: a freshly formatted littlefs image, nothing on it."""
    fs = _lfs()
    Path(path).write_bytes(bytes(fs.context.buffer))


def open_image(path):
    """The image's filesystem (littlefs-python), to read or change it while no board runs on it;
    write it back with save_image."""
    return _lfs(Path(path).read_bytes())


def save_image(fs, path):
    tmp = str(path) + ".tmp"
    with open(tmp, "wb") as f:
        f.write(bytes(fs.context.buffer))
    os.replace(tmp, path)


def read_file(image, name):
    """The bytes of one file on an image (None if absent)."""
    fs = open_image(image)
    try:
        with fs.open(name, "rb") as f:
            return f.read()
    except Exception:
        return None


def list_files(image, top="/"):
    fs = open_image(image)
    out = []
    for root, dirs, files in fs.walk(top):
        for n in files:
            out.append((root.rstrip("/") + "/" + n))
    return sorted(out)


def install(image, profile="reference", compiled=True, fw_dir=None, target="unix",
            board_mpy=None):
    """Put the firmware on an image, as `bgboard flash` would: /main.py, /lib (compiled to .mpy
    with mpy-cross unless compiled=False, its native loops for a board whose
    sys.implementation._mpy is `board_mpy`: by default this unix port's for the "unix" target,
    see build.native_arch), /profile.json (for a board of `target`: "unix" plays
    the hardware with the virtual HAL) and, when the profile passes its checks, the marker that
    spares the board checking it at boot (build.profile_marker). /data (records, settings) is
    kept. `fw_dir`: another firmware tree than this repository's (bench chip --before).
    Creates the image when missing. Returns the number of files written. Refused (InUse) while
    another virtual board runs on the image."""
    image = Path(image)
    check_free("flash image", image)
    if not image.exists():
        new_image(image)
    try:
        prof = paths.profile_path(profile)
    except FileNotFoundError as e:
        raise SystemExit("bgboard vboard: %s" % e)
    fs = open_image(image)
    fw = Path(fw_dir or paths.FIRMWARE)
    profile_bytes = build.profile_file(json.loads(prof.read_text()), target)
    files = [("/main.py", (fw / "main.py").read_bytes()), ("/profile.json", profile_bytes)]
    if compiled:
        with tempfile.TemporaryDirectory() as tmp:
            if board_mpy is None and target == "unix":
                board_mpy = port_mpy()
            lib = build.compile_lib(tmp, fw / "lib", board_mpy=board_mpy)
    else:
        lib = {src.relative_to(fw / "lib").as_posix(): src.read_bytes()
               for src in build.board_sources(fw / "lib")}
    files += [("/lib/" + name, code) for name, code in lib.items()]
    marker = build.profile_marker(profile_bytes, fw, lib)
    if marker:
        files.append((build.PROFILE_CHECKED, marker))
    else:
        try:
            fs.remove(build.PROFILE_CHECKED)
        except Exception:
            pass
    # remove stale library files (a .py left beside a fresh .mpy would shadow it)
    try:
        old = [p for p in list_files_fs(fs, "/lib")]
    except Exception:
        old = []
    new = {name for name, _ in files}
    for p in old:
        if p not in new:
            fs.remove(p)
    for name, data in files:
        d = name.rsplit("/", 1)[0]
        if d:
            fs.makedirs(d, exist_ok=True)
        with fs.open(name, "wb") as f:
            f.write(data)
    save_image(fs, image)
    return len(files)


def list_files_fs(fs, top):
    out = []
    for root, dirs, files in fs.walk(top):
        for n in files:
            out.append(root.rstrip("/") + "/" + n)
    return out


# ---- one board per link and per image --------------------------------------------------------
# A running board holds an advisory lock (flock) on PATH.lock beside its link and beside its image,
# with its process id inside; the kernel drops the lock when the process dies, however it dies.

class InUse(Exception):
    """A link or an image another virtual board holds."""

    def __init__(self, what, path, pid):
        Exception.__init__(self, "%s %s is in use by the virtual board of process %s (stop it "
                           "first, or choose another)" % (what, path, pid or "?"))
        self.path, self.pid = path, pid


def _lock_path(path):
    # the folder resolved (one lock whatever way the path is written), not the link itself
    path = Path(path).absolute()
    return path.parent.resolve() / (path.name + ".lock")


def holder(path):
    """The process id of the virtual board holding PATH (a link or an image), or None."""
    lp = _lock_path(path)
    try:
        fd = os.open(lp, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            text = os.read(fd, 32).decode("ascii", "replace").strip()
            return int(text) if text.isdigit() else 0
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def check_free(what, path):
    """InUse when another process's virtual board holds PATH (this process's own is free)."""
    pid = holder(path)
    if pid is not None and pid != os.getpid():
        raise InUse(what, path, pid)


class BoardLock:
    """Holds the links and images of one running virtual board; refused with InUse."""

    def __init__(self):
        self.held = []          # (lock path, fd)

    def take(self, what, path):
        lp = _lock_path(path)
        lp.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(lp, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                text = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                self.release()
                raise InUse(what, path, int(text) if text.isdigit() else None)
            try:
                same = os.stat(lp).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:                # not a lock file its last holder removed meanwhile
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self.held.append((lp, fd))

    def release(self):
        for lp, fd in reversed(self.held):
            try:
                os.unlink(lp)
            except OSError:
                pass
            os.close(fd)
        self.held = []


# ---- the bridge ---------------------------------------------------------------------------------

_VDISABLE = b"\x00"           # Linux's _POSIX_VDISABLE: a control character that is no signal

def _raw_mode(fd, isig):
    attrs = termios.tcgetattr(fd)
    iflag, oflag, cflag, lflag = attrs[0], attrs[1], attrs[2], attrs[3]
    iflag &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON | termios.IXOFF
               | termios.ISTRIP | termios.BRKINT | termios.INPCK | termios.PARMRK)
    oflag &= ~termios.OPOST
    cflag = (cflag & ~(termios.CSIZE | termios.PARENB)) | termios.CS8
    lflag &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.IEXTEN)
    if isig:
        # only Ctrl-C signals (SIGINT, as a Pico's USB serial interrupts on 0x03): the other
        # signal characters (Ctrl-\ SIGQUIT, Ctrl-Z SIGTSTP, ...) are plain bytes on a Pico and
        # must reach the application
        lflag |= termios.ISIG
        attrs[6][termios.VINTR] = b"\x03"
        for name in ("VQUIT", "VSUSP", "VDSUSP", "VSTATUS"):
            if hasattr(termios, name):
                attrs[6][getattr(termios, name)] = _VDISABLE
    else:
        lflag &= ~termios.ISIG
    attrs[0], attrs[1], attrs[2], attrs[3] = iflag, oflag, cflag, lflag
    attrs[6][termios.VMIN] = 1
    attrs[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class VBoard:
    """The bridge: owns the link pty (PATH) and one MicroPython process at a time."""

    def __init__(self, link, image, heap=DEFAULT_HEAP, pid_file=None, log=None, with_parent=False):
        self.link = Path(link)
        self.image = Path(image)
        self.heap = parse_size(heap)
        self.pid_file = pid_file
        self.log = log or sys.stderr
        self.child = None
        self.raw = False          # the host put the REPL into raw mode (Ctrl-A) and not out (Ctrl-B)
        self.swallow = b""        # after a raw-mode restart: output held back until the raw banner
        self.restarting_raw = False
        self.boots = 0
        self.stopping = False
        self.out = bytearray()    # output for the host not yet taken by the pty
        self.inq = bytearray()    # input for the board not yet taken by its pty
        self.parent = os.getppid() if with_parent else None
        self.tmp = tempfile.mkdtemp(prefix="bgboard-vboard-")

    def say(self, text):
        self.log.write("vboard: %s\n" % text)
        self.log.flush()

    # -- the link the host opens
    def open_link(self):
        self.lm, self.ls = pty.openpty()
        _raw_mode(self.ls, isig=False)
        os.set_blocking(self.lm, False)
        name = os.ttyname(self.ls)
        self.link_target = name
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(name, self.link)
        from bgboard.devices import register_vboard
        register_vboard(self.link)          # so that `bgboard devices` finds this board
        self.say("link %s -> %s, flash %s, heap %d bytes" % (self.link, name, self.image, self.heap))

    # -- the board process
    def start(self, raw=False):
        bm, bs = pty.openpty()
        _raw_mode(bs, isig=True)
        shim = os.path.join(self.tmp, "boot%d.py" % self.boots)
        with open(shim, "w") as f:
            f.write(_SHIM % {"bs": BLOCK_SIZE, "blocks": BLOCK_COUNT,
                             "image": str(self.image.resolve()), "raw": raw})

        def ctty():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        env = dict(os.environ)
        env.pop("MICROPYPATH", None)
        self.child = subprocess.Popen([micropython_binary(), "-X", "heapsize=%d" % self.heap,
                                       "-i", shim], stdin=bs, stdout=bs, stderr=bs,
                                      preexec_fn=ctty, cwd=self.tmp, env=env, close_fds=True)
        os.close(bs)
        os.set_blocking(bm, False)
        self.bm = bm
        self.boots += 1
        self.restarting_raw = raw
        self.swallow = b"" if not raw else b"pending"
        if self.pid_file:
            tmp = str(self.pid_file) + ".tmp"
            with open(tmp, "w") as f:
                f.write("%d\n" % self.child.pid)
            os.replace(tmp, self.pid_file)

    def _to_host(self, data):
        # A slow reader gets everything, in order (never half a line); when nobody reads and
        # OUT_MAX bytes are waiting, they are dropped, as a Pico drops output with no host.
        self.out += data
        self._flush_out()

    def _flush_out(self):
        while self.out:
            try:
                n = os.write(self.lm, self.out[:65536])
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EIO):
                    raise
                n = 0
            if n <= 0:
                if len(self.out) > OUT_MAX:
                    self.out = bytearray()
                return
            del self.out[:n]

    def _from_child(self):
        try:
            data = os.read(self.bm, 4096)
        except OSError:
            return False
        if not data:
            return False
        if self.swallow:
            # restarting into the raw REPL: hide the friendly banner, enter raw mode at the prompt
            held = (self.swallow if self.swallow != b"pending" else b"") + data
            if b">>> " in held and not held.endswith(b"\x01sent"):
                os.write(self.bm, b"\x01")
                held = held.split(b">>> ", 1)[1] + b"\x01sent"
            if b"\x01sent" in held:
                rest = held.replace(b"\x01sent", b"")
                i = rest.find(RAW_BANNER)
                if i >= 0:
                    self.swallow = b""
                    self._to_host(rest[i:])
                    return True
                self.swallow = rest + b"\x01sent"
            else:
                self.swallow = held
            return True
        self._to_host(data)
        return True

    def _from_host(self):
        try:
            data = os.read(self.lm, IN_MAX - len(self.inq))
        except OSError:
            return
        if not data:
            return
        for b in data:
            if b == 1:
                self.raw = True
            elif b == 2:
                self.raw = False
        if self.child is None or self.child.poll() is not None:
            return              # the board is rebooting: bytes sent now are lost, as on a Pico
        self.inq += data
        self._flush_in()

    def _flush_in(self):
        # Flow control, as a Pico's USB has it: what the board's pty does not take now waits
        # here, and while IN_MAX bytes wait the link is not read (run), so the host's writes
        # wait in turn. A flood of requests is answered in full, however slowly.
        while self.inq:
            try:
                n = os.write(self.bm, self.inq[:4096])
            except OSError as e:
                if e.errno != errno.EAGAIN:
                    self.inq = bytearray()      # the board is gone: lost, as on a Pico
                return
            if n <= 0:
                return
            del self.inq[:n]

    def _reap(self):
        code = self.child.wait()
        # drain what the board printed last (the raw REPL's "OK" before a soft reset)
        while True:
            try:
                r, _, _ = select.select([self.bm], [], [], 0.05)
                if not r or not self._from_child():
                    break
            except OSError:
                break
        os.close(self.bm)
        self.child = None
        self.inq = bytearray()      # bytes for a board that reboots are lost, as on a Pico
        return code

    def run(self):
        self.open_link()
        if not self.image.exists():
            new_image(self.image)
            self.say("new blank flash image %s" % self.image)
        self.start()
        recent = []
        try:
            while not self.stopping:
                if self.parent is not None and os.getppid() != self.parent:
                    self.say("the program that started this board is gone: stopping")
                    break
                rd = [self.bm, self.lm] if len(self.inq) < IN_MAX else [self.bm]
                wr = ([self.lm] if self.out else []) + ([self.bm] if self.inq else [])
                r, w, _ = select.select(rd, wr, [], 0.2)
                if self.lm in w:
                    self._flush_out()
                if self.bm in w:
                    self._flush_in()
                if self.lm in r:
                    self._from_host()
                if self.bm in r:
                    self._from_child()
                if self.child.poll() is not None:
                    code = self._reap()
                    now = time.monotonic()
                    recent = [t for t in recent if now - t < 3] + [now]
                    if len(recent) > 5:
                        self.say("the board restarts too often: pausing 2 s")
                        time.sleep(2)
                    if code < 0:
                        self.say("power cut (signal %d): cold boot" % -code)
                        self.raw = False
                        self.start()
                    else:
                        self.say("soft reset (exit %d)%s" % (code, " into the raw REPL"
                                                             if self.raw else ""))
                        self._to_host(SOFT_REBOOT)
                        self.start(raw=self.raw)
        finally:
            self.shutdown()

    def shutdown(self):
        from bgboard.devices import unregister_vboard
        unregister_vboard()
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        try:
            # only this board's own link: never one another board made since
            if (self.link.is_symlink()
                    and os.readlink(self.link) == getattr(self, "link_target", None)):
                self.link.unlink()
        except OSError:
            pass
        if self.pid_file:
            try:
                os.unlink(self.pid_file)
            except OSError:
                pass
        import shutil
        shutil.rmtree(self.tmp, ignore_errors=True)


def run(link, flash=None, heap=DEFAULT_HEAP, install_profile=None, pid_file=None, with_parent=False):
    """`bgboard vboard` (chip "unix"): the bridge in this process, until SIGTERM or Ctrl-C."""
    flash = Path(flash or (str(link) + ".img"))
    lock = BoardLock()
    try:
        lock.take("link", link)
        lock.take("flash image", flash)
    except InUse as e:
        raise SystemExit("bgboard vboard: %s" % e)
    try:
        return _serve(link, flash, heap, install_profile, pid_file, with_parent)
    finally:
        lock.release()


def _serve(link, flash, heap, install_profile, pid_file, with_parent):
    if install_profile:
        n = install(flash, install_profile)
        sys.stderr.write("vboard: firmware installed on %s (%d files, profile %s)\n"
                         % (flash, n, install_profile))
    vb = VBoard(link, flash, heap=heap, pid_file=pid_file, with_parent=with_parent)

    def stop(signum, frame):
        vb.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    try:
        vb.run()
    except KeyboardInterrupt:
        pass
    return 0


# ---- kinds of virtual board ---------------------------------------------------------------------
# Each kind is a `run(link, flash=, heap=, install_profile=, pid_file=, with_parent=)` that serves
# the board's serial port as a pty at LINK until it is stopped (SIGTERM); the host side is the
# same for all (bgboard.transport.SerialTransport on LINK). A new kind registers here, as
# "module:function", and is chosen with `bgboard vboard --chip NAME`.
CHIPS = {"unix": "bgboard.vboard:run", "rp2040": "bgboard.chip:run"}
DEFAULT_CHIP = "unix"


def runner(chip=DEFAULT_CHIP):
    """The run function of virtual board kind CHIP."""
    import importlib
    if chip not in CHIPS:
        raise ValueError("no virtual board %r (%s)" % (chip, ", ".join(sorted(CHIPS))))
    module, func = CHIPS[chip].split(":")
    return getattr(importlib.import_module(module), func)


def launch(link, flash, heap=DEFAULT_HEAP, chip=DEFAULT_CHIP, log=None, with_parent=True,
           timeout=20.0):
    """Start a virtual board of kind CHIP in a process of its own, serving LINK; returns the
    process once LINK is there. With WITH_PARENT it stops when the calling program ends. Raises
    LinkError when it exits or does not make its link within TIMEOUT seconds."""
    from bgboard.protocol import LinkError
    link = Path(link)
    for what, path in (("link", link), ("flash image", Path(flash))):
        pid = holder(path)
        if pid is not None:
            raise LinkError(str(InUse(what, path, pid)))
    cmd = [sys.executable, "-m", "bgboard.vboard", str(link), str(flash), str(heap), chip]
    if not with_parent:
        cmd.append("--detached")
    proc = subprocess.Popen(cmd, stdout=log or subprocess.DEVNULL, stderr=log or subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + timeout
    while not link.exists():
        if proc.poll() is not None:
            raise LinkError("the virtual board stopped as it started (exit %d)" % proc.returncode)
        if time.monotonic() > deadline:
            stop(proc)
            raise LinkError("the virtual board did not make its link %s within %d s"
                            % (link, timeout))
        time.sleep(0.02)
    return proc


def stop(proc, grace=5.0):
    """Stop a virtual board started by launch (SIGTERM, then SIGKILL after GRACE seconds)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    # launch(): LINK FLASH HEAP [CHIP] [--detached]; stops when the calling program ends unless
    # --detached
    args = [a for a in sys.argv[1:] if a != "--detached"]
    runner(args[3] if len(args) > 3 else DEFAULT_CHIP)(
        args[0], flash=args[1], heap=args[2], with_parent="--detached" not in sys.argv)
