"""The rp2 hardware layer (bghal.rp2, bghal.oled, bghal.debounce, bghal.panel) against pin-level
fakes of machine, neopixel and time (tests/mp/hw_fakes.py): key-matrix scan order, no ghosting,
debounce timing, long presses, GRB frames, the brightness cap and the current limit, the OLED,
the watchdog and the piezo. The same checks (tests/mp/hw_checks.py) run on CPython here and on
MicroPython's unix port, where the OLED's pixels are checked with the real framebuf."""

import os
import sys

import pytest

from conftest import FIRMWARE_LIB, ROOT, run_micropython

MP_DIR = ROOT / "tests" / "mp"
PROFILES = ROOT / "hardware" / "profiles"

sys.path[:0] = [str(FIRMWARE_LIB), str(MP_DIR)]
import hw_checks  # noqa: E402
from hw_fakes import RecordingFramebuf, World  # noqa: E402

hw_checks.PROFILES = str(PROFILES)


@pytest.fixture(autouse=True)
def recording_framebuf():
    hw_checks.FRAMEBUF = RecordingFramebuf()
    yield


@pytest.mark.parametrize("check", hw_checks.BOTH + (hw_checks.check_oled_calls,),
                         ids=lambda c: c.__name__)
def test_rp2_layer_on_cpython(check):
    check()


def test_rp2_layer_on_micropython(mpy_lib):
    res = run_micropython(MP_DIR / "hw_run.py", str(PROFILES), lib=mpy_lib, extra_path=[MP_DIR],
                          heap="256k", timeout=60)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    names = [c.__name__ for c in hw_checks.BOTH] + ["check_oled_pixels"]
    assert lines == ["ok " + n for n in names], res.stdout + res.stderr


def test_serial_link_reads_without_blocking():
    r_fd, w_fd = os.pipe()
    out_r, out_w = os.pipe()
    with open(r_fd, "rb", buffering=0) as stdin, open(out_w, "wb", buffering=0) as stdout:
        w = World()
        b = hw_checks.Rp2Hal(hw_checks.load("minimal"), machine=w.machine, neopixel=w.neopixel,
                            time=w.time, stdin=stdin, stdout=stdout)
        assert b.read() == b""
        os.write(w_fd, b"KEY P1\n")
        assert b.read() == b"KEY P1\n"
        assert b.read() == b""
        b.write(b"OK\n")
        assert os.read(out_r, 100) == b"OK\n"
    os.close(w_fd)
    os.close(out_r)
