"""`bgboard flash` against the virtual board (real MicroPython on a pty, real littlefs image, real
mpy-cross and mpremote): a blank board flashed from nothing boots into the menu; a second flash
sends nothing; one changed module sends one file; power cuts at any moment of a flash leave a
board that boots (the old firmware until the switch, the new one after); a board too full to
stage the firmware is refused before anything changes."""

import json
import os
import random
import shutil
import signal
import subprocess
import time


from bgboard import build
from conftest import FW_VERSION, ROOT, micropython_path
from test_vboard import BGBOARD, VBoard, golden_image  # noqa: F401 (a fixture)

# main.py, the modules, the bot's network file, and bgnames.mpy (the names the board interns at
# power-up: the build makes it from the compiled modules, so it changes when any module does)
FW_FILES = 2 + len(build.board_sources(ROOT / "firmware" / "lib")) + len(
    build.data_files(ROOT / "firmware" / "lib"))


def firmware_copy(dest, version, touch_all=False):
    """The repository's firmware with another version string (and, with touch_all, every
    module changed), as a developer's next build."""
    shutil.copytree(ROOT / "firmware", dest, ignore=shutil.ignore_patterns("__pycache__"))
    init = dest / "lib" / "bgcore" / "__init__.py"
    line = '__version__ = "%s"' % FW_VERSION
    assert line in init.read_text()
    init.write_text(init.read_text().replace(line, '__version__ = "%s"' % version))
    assert build.version(dest) == version
    if touch_all:
        for p in (dest / "lib").rglob("*.py"):
            p.write_text(p.read_text() + "\n_BUILD = %r\n" % version)
    return dest


# how long a flash may take before the test calls it hung: the build (mpy-cross once per module)
# and the copy take seconds alone, minutes on a loaded machine; the flash's own waits are bounded
# (check_hello: 90 s), and this is well past them
HUNG = 600


def flash(link, *args, timeout=HUNG):
    return subprocess.run([BGBOARD, "flash", "--port", str(link)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=timeout)


def hello(link):
    """HELLO's fields and STATE (the board restarted first if mpremote left it at the REPL)."""
    from bgboard.link import Board
    with Board(link) as b:
        info = b.hello()
        st = b.request("STATE")
    assert st.startswith("STATE "), st
    return info, dict(w.split("=", 1) for w in st.split()[1:])


def test_flash_a_blank_board_then_only_what_changed(tmp_path):
    img = tmp_path / "blank.img"
    vb = VBoard(tmp_path, img)
    try:
        r = subprocess.run([BGBOARD, "devices", "--port", str(vb.link)], capture_output=True,
                           text=True, timeout=60)
        assert "runs MicroPython but not the bgboard firmware (flash it" in r.stdout, r.stdout
        r = flash(vb.link)
        assert r.returncode == 0, r.stderr
        assert "into slot a: %d file(s) to send" % FW_FILES in r.stderr
        info, st = hello(vb.link)
        assert info["fw"] == FW_VERSION and info["profile"] == "reference" and st["view"] == "menu"
        # again: the board has it all (sha256 on the board): nothing travels
        r = flash(vb.link)
        assert r.returncode == 0, r.stderr
        assert "already runs this firmware" in r.stderr and "0 file(s) sent" in r.stderr
        # one module changed: that file and bgnames.mpy (its names changed: the new version
        # string) are sent, the others copied on the board
        fw = firmware_copy(tmp_path / "fw", "0.1.1-test")
        r = flash(vb.link, "--firmware", fw, "--profile", "minimal")
        assert r.returncode == 0, r.stderr
        assert "into slot b: 2 file(s) to send, %d copied on the board" % (FW_FILES - 2) \
            in r.stderr
        info, st = hello(vb.link)
        assert info["fw"] == "0.1.1-test" and info["profile"] == "minimal" \
            and st["view"] == "menu"
        # slot b loses its stamp (as if damaged): the loader runs slot a, and the next flash
        # stages into b, never into the slot that runs
        from conftest import tool_path
        r = subprocess.run([tool_path("mpremote"), "connect", str(vb.link), "rm",
                            ":/fw/b/version.json"], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
        info, st = hello(vb.link)
        assert info["fw"] == FW_VERSION
        r = flash(vb.link, "--firmware", fw)
        assert r.returncode == 0 and "into slot b: 0 file(s) to send" in r.stderr, r.stderr
        assert hello(vb.link)[0]["fw"] == "0.1.1-test"
    finally:
        vb.stop()
    # what is on the flash, read back with littlefs-python: the stamp lists every file and
    # its sha256; the files are those
    from bgboard import vboard
    fs = vboard.open_image(img)
    with fs.open("/fw/active", "r") as f:
        assert f.read() == "b"
    with fs.open("/fw/b/version.json", "r") as f:
        stamp = json.load(f)
    assert stamp["fw"] == "0.1.1-test" and stamp["target"] == "unix"
    assert len(stamp["files"]) == FW_FILES
    import hashlib
    for name, digest in stamp["files"].items():
        with fs.open("/fw/b/" + name, "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, name
    # the profile went with the firmware: staged in the slot (the stamp names it), then
    # installed as /profile.json
    with fs.open("/fw/b/profile.json", "rb") as f:
        staged = f.read()
    with fs.open("/profile.json", "rb") as f:
        assert f.read() == staged
    assert hashlib.sha256(staged).hexdigest() == stamp["profile"]
    assert json.loads(staged)["name"] == "minimal" and json.loads(staged)["hal"] == "virtual"
    # and the stamp that this profile passed the checks of slot b's own code: the board skips
    # them at boot (bghal.profile.boot_load)
    from bgboard import build
    code = {}
    for name in build.CHECK_CODE:
        with fs.open("/fw/b/lib/%s.mpy" % name, "rb") as f:
            code[name + ".mpy"] = f.read()
    with fs.open(build.PROFILE_CHECKED, "rb") as f:
        assert f.read() == build.profile_marker(staged, None, code)


def test_power_cuts_during_a_flash_leave_a_board_that_boots(tmp_path, golden_image):  # noqa: F811
    img = tmp_path / "flash.img"
    shutil.copy(golden_image, img)          # the firmware installed without slots
    vb = VBoard(tmp_path, img)
    rng = random.Random(6)
    outcomes = []
    running = FW_VERSION
    try:
        # each time a new build (every module changed), the power cut at a random moment of
        # it (the first one surely during the copy)
        # (sending takes about 1.7 s here, then the verification, the stamp, the switch)
        for i, delay in enumerate((0.2, rng.uniform(0.5, 1.7), rng.uniform(1.7, 3.2))):
            new = "0.2.%d-test" % i
            fw = firmware_copy(tmp_path / ("fw%d" % i), new, touch_all=True)
            log = tmp_path / "flash.log"
            with open(log, "w") as f:
                proc = subprocess.Popen([BGBOARD, "flash", "--port", str(vb.link), "--firmware",
                                         str(fw)], stdout=f, stderr=f,
                                        env=dict(os.environ, PYTHONFAULTHANDLER="1"))
                t0 = time.monotonic()
                while "flashing %s" % new not in log.read_text():   # built, about to send
                    assert proc.poll() is None, log.read_text()
                    assert time.monotonic() - t0 < HUNG, "no build in %d s" % HUNG
                    time.sleep(0.01)
                time.sleep(delay)
                vb.power_cut()
                try:
                    proc.wait(HUNG)
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGABRT)      # its stack goes to the log
                    proc.wait(10)
                    raise AssertionError("the flash hangs after a power cut:\n" + log.read_text())
            text = log.read_text()
            info, st = hello(vb.link)
            assert st["view"] == "menu"
            if proc.returncode == 0:
                assert info["fw"] == new
            else:
                assert "the previous firmware still boots" in text, text
                assert info["fw"] in (running, new)     # a cut just after the switch: new
            outcomes.append("%.2f s: %s" % (delay, "old" if info["fw"] == running else "new"))
            running = info["fw"]
        assert outcomes[0].endswith("old")     # cut during the copy: the old firmware runs
        r = flash(vb.link, "--firmware", fw)
        assert r.returncode == 0, r.stderr
        info, st = hello(vb.link)
        assert info["fw"] == new and st["view"] == "menu"
        print("\npower cuts during flashing (delay after staging began: what booted): %s"
              % ", ".join(outcomes))
    finally:
        vb.stop()


def test_a_full_board_is_refused_before_anything_changes(tmp_path, golden_image):  # noqa: F811
    from bgboard import vboard
    img = tmp_path / "flash.img"
    shutil.copy(golden_image, img)
    fs = vboard.open_image(img)
    free = (vboard.BLOCK_COUNT - fs.used_block_count) * vboard.BLOCK_SIZE
    fs.makedirs("/data", exist_ok=True)
    with fs.open("/data/photos.bin", "wb") as f:
        f.write(b"\x55" * (free - 30 * 1024))
    vboard.save_image(fs, img)
    vb = VBoard(tmp_path, img)
    try:
        fw = firmware_copy(tmp_path / "fw", "0.3.0-test", touch_all=True)
        r = flash(vb.link, "--firmware", fw)
        assert r.returncode == 1
        assert "not enough room on the board" in r.stderr and "Nothing was changed" in r.stderr
        info, st = hello(vb.link)
        assert info["fw"] == FW_VERSION and st["view"] == "menu"
    finally:
        vb.stop()


def test_the_mpy_version_check_uses_what_the_board_reports(tmp_path):
    """The board's sys.implementation._mpy against what mpy-cross writes: this MicroPython
    loads it; one a major .mpy version older is refused as too old, with the fix named."""
    from bgboard.build import build, mpy_version
    from bgboard.flashing import check_mpy
    fw = build(ROOT / "firmware", tmp_path)
    version = mpy_version(fw.files["lib/bgcore/position.mpy"])
    assert fw.mpy == version
    r = subprocess.run([micropython_path(), "-c", "import sys; print(sys.implementation._mpy)"],
                       capture_output=True, text=True)
    board_mpy = int(r.stdout)
    assert check_mpy(board_mpy, version, (1, 29, 0)) is None
    older = (board_mpy & ~0xFF) | (version - 1)
    msg = check_mpy(older, version, (1, 19, 1))
    assert msg.startswith("MicroPython 1.19.1 on the board is too old") and "download" in msg
