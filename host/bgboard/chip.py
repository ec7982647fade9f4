"""`bgboard vboard --chip rp2040`: the emulated Pico. MicroPython's real rp2 firmware runs on the
rp2040js emulator under Node (chip.mjs, beside this file); this side owns the serial link (a pty
that mpremote, pyserial and bgboard open as a Pico's USB port), the flash image (the littlefs
filesystem of a Pico's flash, kept across runs) and the board's parts as the emulator sees them:
LED frames decoded from the panel pin, OLED frames from the I2C bus, keys pressed at the GPIO
level, the emulated clock and the watchdog's feeds. kill -9 of the Node process (--pid-file) is
a power cut; the watchdog and machine.reset() reset the chip; both boot it again.

Emulated time is cycle time (125 MHz): figures measured in it do not depend on the host's load.
"""

import contextlib
import hashlib
import io
import json
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from bgboard import paths, vboard

FS_OFFSET = 0xa0000                      # RPI_PICO: the filesystem is the flash from here on
FS_SIZE = vboard.BLOCK_SIZE * vboard.BLOCK_COUNT     # 352 blocks of 4 KB (1408 KiB)
RP2040JS = "rp2040js@1.4.1"              # the emulator, pinned (tools/dev installs it)
FIRMWARE_NAME = "firmware-RPI_PICO-v1.28.0.uf2"
MPFLASH_VERSION = "1.28.0"
# that firmware's sys.implementation._mpy (.mpy 6, native sub-version 3, ARMv6-M): the build
# compiles the firmware's native loops for it (bgboard.build.native_arch; were it wrong, the
# chip could not import them and test_chip's boot test would fail)
FIRMWARE_MPY = 0x1306
RESET_EXIT = 75                          # chip.mjs: the chip reset itself (watchdog, machine.reset)
DRIVER = Path(__file__).with_name("chip.mjs")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bgboard"


class ChipUnavailable(Exception):
    """What the emulated chip needs and is missing, as one line."""


def find_firmware():
    """(uf2, bootrom) of the rp2 firmware: $BGBOARD_RP2_FIRMWARE (a folder, or a .uf2 with the
    boot ROM beside it), else ../shared/rp2 beside the repository, else the user's cache."""
    env = os.environ.get("BGBOARD_RP2_FIRMWARE")
    places = [Path(env)] if env else [paths.SHARED / "rp2", CACHE / "rp2"]
    for place in places:
        folder = place.parent if place.suffix == ".uf2" else place
        uf2 = place if place.suffix == ".uf2" else folder / FIRMWARE_NAME
        if not uf2.exists() and folder.is_dir():
            uf2 = next(iter(sorted(folder.glob("*.uf2"))), uf2)
        rom = folder / "bootrom.mjs"
        if uf2.exists() and rom.exists():
            return uf2, rom
    raise ChipUnavailable(
        "no MicroPython rp2 firmware for the emulated chip: looked in %s. Set "
        "BGBOARD_RP2_FIRMWARE to a folder with the RPI_PICO .uf2 and the RP2040 boot ROM "
        "(bootrom.mjs), or fetch the uf2 with `bgboard vboard --chip rp2040 --fetch`"
        % ", ".join(str(p) for p in places))


def find_node_modules():
    """The folder holding rp2040js: $BGBOARD_NODE_MODULES, the project's .node/node_modules
    (tools/dev installs it there), or the user's cache."""
    env = os.environ.get("BGBOARD_NODE_MODULES")
    for nm in ([Path(env)] if env else []) + [paths.REPO / ".node" / "node_modules",
                                              CACHE / "node" / "node_modules"]:
        if (nm / "rp2040js" / "package.json").exists():
            return nm
    raise ChipUnavailable("the emulator is not installed: npm install --prefix .node %s "
                          "(tools/dev does it)" % RP2040JS)


def find_node():
    node = shutil.which("node")
    if not node:
        raise ChipUnavailable("Node.js is not installed (apt-get install nodejs)")
    return node


def check():
    """Raise ChipUnavailable unless the emulated chip can run here."""
    find_node()
    find_node_modules()
    find_firmware()


def fetch_firmware(dest=None):
    """Download the official RPI_PICO uf2 (MPFLASH_VERSION) into the cache with mpflash, the
    ecosystem's tool (`pip install mpflash`; needs the internet). The emulator also needs the
    RP2040 boot ROM there as bootrom.mjs (rp2040js's demo ships it; ../shared/rp2 has a copy)."""
    dest = Path(dest or CACHE / "rp2")
    dest.mkdir(parents=True, exist_ok=True)
    mpflash = shutil.which("mpflash") or str(Path(sys.executable).with_name("mpflash"))
    if not Path(mpflash).exists():
        raise ChipUnavailable("mpflash is not installed (pip install mpflash)")
    try:
        r = subprocess.run([mpflash, "download", "--board", "RPI_PICO", "--version",
                            MPFLASH_VERSION], capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, MPFLASH_FIRMWARE=str(dest)))
        failed = r.returncode != 0
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:]
    except subprocess.TimeoutExpired:
        failed, tail = True, ["no answer within 10 minutes"]
    found = sorted(dest.rglob("*RPI_PICO*%s*.uf2" % MPFLASH_VERSION))
    if failed or not found:
        raise ChipUnavailable("could not download MicroPython %s for RPI_PICO with mpflash (is "
                              "this machine online?): %s" % (MPFLASH_VERSION,
                                                            (tail or ["no .uf2 arrived"])[0]))
    if not (dest / FIRMWARE_NAME).exists():
        shutil.copy(found[-1], dest / FIRMWARE_NAME)
    return dest / FIRMWARE_NAME


# ---- the flash image ------------------------------------------------------------------------

def blank_image(path):
    """A Pico's filesystem area as it leaves the factory: erased (MicroPython formats it)."""
    Path(path).write_bytes(b"\xff" * FS_SIZE)


def install(image, profile="reference", fw_dir=None):
    """The firmware (this repository's, or the tree `fw_dir`) and a board profile on the image,
    as on the unix-port board but with the profile's own HAL (rp2); /data is kept."""
    image = Path(image)
    if image.exists():
        try:
            vboard.open_image(image)
        except Exception:           # erased or unreadable: a blank board
            image.unlink()
    return vboard.install(image, profile, fw_dir=fw_dir, target="rp2040", board_mpy=FIRMWARE_MPY)


def image_profile(image):
    """The board profile on the image (None for a blank board)."""
    try:
        data = vboard.read_file(image, "/profile.json")
        return json.loads(data) if data else None
    except Exception:
        return None


def unique_id(image):
    """The emulated Pico's flash unique ID (8 bytes, as hex): a real Pico's is burnt into its
    flash chip, and the board's id (HELLO, the records' archive folders) comes from it. Here it
    follows the flash image, so that each image is a board of its own and keeps its id."""
    return hashlib.sha256(b"bgboard emulated pico " + str(Path(image).resolve()).encode()
                          ).hexdigest()[:16]


def key_pins(profile):
    """{key name: (row pin or -1, column pin)} of a profile's keys."""
    inp = (profile or {}).get("input") or {}
    pins = {}
    if inp.get("style") == "matrix":
        for r, row in enumerate(inp["keys"]):
            for c, name in enumerate(row):
                if name:
                    pins[name] = (inp["rows"][r], inp["cols"][c])
    else:
        for name, pin in (inp.get("buttons") or {}).items():
            pins[name] = (-1, pin)
    return pins


# ---- the board ------------------------------------------------------------------------------

class ChipBoard:
    """One emulated Pico at a time on a link pty; call run() (blocking) or start() (a thread)."""

    def __init__(self, link, image, profile=None, pid_file=None, log=None, with_parent=False):
        self.link = Path(link)
        self.image = Path(image)
        self.profile_name = profile
        self.pid_file = pid_file
        self.log = log or sys.stderr
        self.node = None
        self.frames = deque(maxlen=4000)      # (emulated ns, strip bytes) of every LED frame
        self.oled = deque(maxlen=200)         # (emulated ns, display memory)
        self.boots = 0
        self.resets = []                      # what reset the chip: "power cut", "watchdog"...
        self.pressed = []                     # emulated ns at which each key() reached the pins
        self.serial_out = bytearray()         # everything the board wrote (tests read it)
        self.cond = threading.Condition()
        self.stopping = False
        self._stats = None
        self._inbuf = b""
        self._out = bytearray()
        self._thread = None
        self.lm = None
        self.error = None                     # why the board's loop stopped, if it failed
        self.parent = os.getppid() if with_parent else None

    def say(self, text):
        self.log.write("vboard: %s\n" % text)
        self.log.flush()

    # -- set-up
    def _profile(self):
        if self.profile_name:
            return json.loads(paths.profile_path(self.profile_name).read_text())
        return image_profile(self.image) or json.loads(
            paths.profile_path("reference").read_text())

    def open_link(self):
        self.lm, ls = pty.openpty()
        vboard._raw_mode(ls, isig=False)
        os.set_blocking(self.lm, False)
        self._ls = ls
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.ttyname(ls), self.link)
        from bgboard.devices import register_vboard
        register_vboard(self.link)

    def boot(self):
        uf2, rom = find_firmware()
        prof = self._profile()
        self.pins = key_pins(prof)
        inp = prof.get("input") or {}
        oled = prof.get("oled") or {}
        cfg = {"rp2040js": str(find_node_modules()), "bootrom": str(rom), "uf2": str(uf2),
               "image": str(self.image.resolve()), "fsOffset": FS_OFFSET,
               "panelPin": prof["panel"]["pin"],
               "rows": [p for p in inp.get("rows", []) if isinstance(p, int)],
               "inputs": sorted({c for _, c in self.pins.values()}),
               "oledAddress": oled.get("address", -1), "oledWidth": oled.get("width", 128),
               "oledPages": oled.get("height", 64) // 8, "uniqueId": unique_id(self.image)}
        self.node = subprocess.Popen([find_node(), str(DRIVER), json.dumps(cfg)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self._inbuf = b""
        self.boots += 1
        if self.pid_file:
            tmp = str(self.pid_file) + ".tmp"
            Path(tmp).write_text("%d\n" % self.node.pid)
            os.replace(tmp, self.pid_file)

    # -- messages
    def _send(self, kind, payload=b""):
        if isinstance(payload, str):
            payload = payload.encode()
        try:
            self.node.stdin.write(kind.encode() + len(payload).to_bytes(4, "little") + payload)
        except (BrokenPipeError, OSError, AttributeError):
            pass

    def _from_node(self):
        try:
            data = os.read(self.node.stdout.fileno(), 1 << 16)
        except OSError:
            data = b""
        if not data:
            return False
        buf = self._inbuf + data
        while len(buf) >= 5:
            n = int.from_bytes(buf[1:5], "little")
            if len(buf) < 5 + n:
                break
            kind, body, buf = buf[:1], buf[5:5 + n], buf[5 + n:]
            self._message(kind, body)
        self._inbuf = buf
        return True

    def _message(self, kind, body):
        with self.cond:
            if kind == b"S":
                self._out += body
                self.serial_out += body
                self._flush_out()
            elif kind == b"F":
                self.frames.append((_ns(body), bytes(body[8:])))
            elif kind == b"O":
                self.oled.append((_ns(body), bytes(body[8:])))
            elif kind == b"Z":
                self._stats = json.loads(body)
            elif kind == b"P":
                self.pressed.append(_ns(body))
            elif kind == b"R":
                self.resets.append(json.loads(body)["reason"])
            self.cond.notify_all()

    def _flush_out(self):
        while self._out:
            try:
                n = os.write(self.lm, self._out[:65536])
            except OSError:
                n = 0
            if n <= 0:
                if len(self._out) > vboard.OUT_MAX:
                    self._out = bytearray()
                return
            del self._out[:n]

    # -- the loop
    def run(self):
        if self.lm is None:
            self.open_link()
        if not self.image.exists():
            blank_image(self.image)
            self.say("new blank flash image %s" % self.image)
        self.boot()
        self.say("emulated RP2040 (MicroPython rp2) on %s -> %s, flash %s"
                 % (self.link, os.ttyname(self._ls), self.image))
        recent = []
        try:
            while not self.stopping:
                if self.parent is not None and os.getppid() != self.parent:
                    self.say("the program that started this board is gone: stopping")
                    break
                r, w, _ = select.select([self.lm, self.node.stdout], [self.lm] if self._out else [],
                                        [], 0.2)
                if w:
                    with self.cond:
                        self._flush_out()
                if self.lm in r:
                    try:
                        data = os.read(self.lm, 4096)
                    except OSError:
                        data = b""
                    if data:
                        self._send("S", data)
                if self.node.stdout in r and not self._from_node():
                    code = self.node.wait()
                    if self.stopping:
                        break
                    if code >= 0 and code != RESET_EXIT:
                        raise RuntimeError("the emulator stopped (exit %d; its error is above)"
                                           % code)
                    why = "power cut (signal %d)" % -code if code < 0 else None
                    with self.cond:
                        if why:
                            self.resets.append("power cut")
                        self.cond.notify_all()
                    now = time.monotonic()
                    recent = [t for t in recent if now - t < 5] + [now]
                    if len(recent) > 5:
                        self.say("the chip restarts too often: pausing 2 s")
                        time.sleep(2)
                    self.say("%s: cold boot" % (why or "chip reset (%s)" % self.resets[-1]))
                    self.boot()
        finally:
            self.shutdown()

    def start(self):
        """Run the board in a thread (for tests and benchmarks); returns self."""
        check()
        self.open_link()

        def loop():
            try:
                self.run()
            except Exception as e:
                with self.cond:
                    self.error = e
                    self.cond.notify_all()

        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.stopping = True
        if self.node is not None:
            self._send("Q")
        if self._thread is not None:
            self._thread.join(10)

    def shutdown(self):
        from bgboard.devices import unregister_vboard
        unregister_vboard()
        if self.node is not None and self.node.poll() is None:
            self._send("Q")
            try:
                self.node.wait(5)
            except subprocess.TimeoutExpired:
                self.node.kill()
                self.node.wait()
        for path in (self.link, self.pid_file):
            try:
                if path and (Path(path).is_symlink() or Path(path).exists()):
                    os.unlink(path)
            except OSError:
                pass

    # -- what tests and benchmarks ask
    def wait(self, predicate, timeout=60, what="the board"):
        """Wait until predicate() (under the board's lock) is true; TimeoutError names `what`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                if self.error is not None:
                    raise RuntimeError("the emulated board stopped: %s" % self.error)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("%s: nothing after %d s" % (what, timeout))
                self.cond.wait(min(left, 0.5))

    def stats(self, timeout=30, reset_feeds=False):
        """{"ns": emulated time, "busy_ns": CPU busy time, "feeds", "max_feed_gap_ns",
        "flash_ns": the emulated ns of the latest 500 flash erases and programs} since the boot
        (the longest feed gap since the last reset_feeds)."""
        with self.cond:
            self._stats = None
        self._send("Z", "reset" if reset_feeds else "")
        self.wait(lambda: self._stats is not None, timeout, "the emulator's clock")
        return self._stats

    def clock_ms(self):
        return self.stats()["ns"] / 1e6

    def key(self, name, down=True, hold_ms=None):
        """Press (or release) a key at the GPIO level: its row pin connected to its column pin;
        with hold_ms the emulator releases it after that many emulated ms."""
        if name not in self.pins:
            raise ValueError("no key %r on this board (%s)" % (name, ", ".join(sorted(self.pins))))
        row, col = self.pins[name]
        msg = {"row": row, "col": col, "down": down}
        if hold_ms:
            msg["hold_ms"] = hold_ms
        self._send("K", json.dumps(msg))

    def press_at_erase(self, name, scan_ms):
        """Arm a tap of key `name`: it closes as the chip's next flash sector erase begins (a
        flash write in progress, interrupts off) and opens `scan_ms` emulated ms after the
        firmware next drives a row pin (its first look at the keys after the write). Its
        moment on the pins arrives in self.pressed when it happens."""
        row, col = self.pins[name]
        self._send("K", json.dumps({"row": row, "col": col, "down": True, "at": "erase",
                                    "scan_ms": scan_ms}))

    def press(self, name, hold_ms=80, timeout=60):
        """Press key `name` for hold_ms (emulated) and return the emulated ns at which it closed
        on the pins (the latency figures count from there)."""
        with self.cond:
            n = len(self.pressed)
        self.key(name, hold_ms=hold_ms)
        self.wait(lambda: len(self.pressed) > n, timeout, "the key press on the pins")
        return self.pressed[n]


def _ns(body):
    return struct.unpack_from("<d", body)[0]


def run(link, flash=None, heap=None, install_profile=None, pid_file=None, with_parent=False,
        fetch=False):
    """`bgboard vboard --chip rp2040`: the emulated Pico until SIGTERM or Ctrl-C (vboard.CHIPS'
    interface; `heap` is the chip's own, about 240 KB, and ignored)."""
    try:
        if fetch:
            print("vboard: firmware in %s" % fetch_firmware(), file=sys.stderr)
        check()
    except ChipUnavailable as e:
        print("bgboard vboard: %s" % e, file=sys.stderr)
        return 1
    flash = Path(flash or (str(link) + ".img"))
    if install_profile:
        n = install(flash, install_profile)
        sys.stderr.write("vboard: firmware installed on %s (%d files, profile %s)\n"
                         % (flash, n, install_profile))
    board = ChipBoard(link, flash, pid_file=pid_file, with_parent=with_parent)

    def stop(signum, frame):
        board.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    try:
        board.run()
    except KeyboardInterrupt:
        pass
    except RuntimeError as e:
        print("bgboard vboard: %s" % e, file=sys.stderr)
        return 1
    return 0


def run_script(board, code, timeout=3600):
    """MicroPython source run on a running ChipBoard's raw REPL (the app's HAL stays open; Ctrl-C
    caught by the HAL's scan-timer callback may need another try), then a soft reset back to
    the app. Returns the script's last printed line, read as JSON."""
    from mpremote.transport_serial import SerialTransport
    t = SerialTransport(str(board.link), baudrate=115200)
    try:
        for attempt in range(10):
            # mpremote prints what it read when an attempt fails (the app answering the raw
            # REPL's Ctrl-A before its Ctrl-C lands): kept out of the bench's report, and told
            # only if every attempt fails
            seen = io.StringIO()
            try:
                with contextlib.redirect_stdout(seen):
                    t.enter_raw_repl(soft_reset=True, timeout_overall=120)
                break
            except Exception as e:
                if attempt == 9:
                    raise RuntimeError("no raw REPL on the chip after 10 tries: %s (it read %s)"
                                       % (e, seen.getvalue().strip()[-200:] or "nothing"))
        out, err = t.exec_raw(code, timeout=timeout)
        t.exit_raw_repl()
        t.serial.write(b"\x04")            # a soft reset: the app again (a failed probe too)
        if err:
            raise RuntimeError("the probe failed on the chip: %s" % err.decode()[-400:])
    finally:
        t.close()
    return json.loads(out.decode().strip().splitlines()[-1])
