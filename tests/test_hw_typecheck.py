"""The firmware (firmware/main.py, firmware/lib/ and hardware/bringup.py) type-checks with mypy
against the MicroPython rp2 stubs (micropython-rp2-rpi-pico-stubs, installed by `tools/dev test` into
.venv/mpy-stubs and used as mypy's whole standard library), with tools/mypy-firmware.ini."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard import build
from conftest import ROOT

STUBS = Path(sys.prefix) / "mpy-stubs"
CONFIG = ROOT / "tools" / "mypy-firmware.ini"
STUBS_PIN = "micropython-rp2-rpi-pico-stubs==1.29.0.post1"


def run_mypy(*targets):
    if not (STUBS / "machine.pyi").exists():
        pytest.fail("the MicroPython rp2 stubs are not in %s: run tools/dev test, or\n"
                    "  %s -m pip install --target %s %s"
                    % (STUBS, sys.executable, STUBS, STUBS_PIN))
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed: pip install -e '.[dev]'")
    env = {"MYPYPATH": "%s:%s" % (STUBS, ROOT / "firmware" / "lib"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
                           "--custom-typeshed-dir", str(STUBS),
                           "--cache-dir", str(Path(sys.prefix) / "mypy-cache-firmware"),
                           *[str(t) for t in targets]],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)


def test_firmware_type_checks_against_rp2_stubs():
    res = run_mypy(ROOT / "firmware", ROOT / "hardware" / "bringup.py")
    assert res.returncode == 0, res.stdout + res.stderr
    checked = int(re.search(r"no issues found in (\d+) source files", res.stdout).group(1))
    # every module of the firmware (and the board's bring-up script) was checked but the bot's
    # generated weights (bgcore/botnet.py and racenet.py: data) and what a board never gets
    # (build.HOST_ONLY), both excluded in tools/mypy-firmware.ini
    host_only = {ROOT / "firmware" / "lib" / name for name in build.HOST_ONLY}
    modules = [p for p in (ROOT / "firmware").rglob("*.py")
               if p.name not in ("botnet.py", "racenet.py") and p not in host_only]
    assert checked == len(modules) + 1


def test_the_check_catches_a_wrong_use_of_the_hardware(tmp_path):
    # the stubs are in force: a misspelt pin mode, a WDT argument the rp2 port does not take,
    # a time function MicroPython lacks
    bad = tmp_path / "bad_board.py"
    bad.write_text("import machine\nimport time\n"
                   "led = machine.Pin(25, machine.Pin.OUTPUT)\n"
                   "dog = machine.WDT(timeout_ms=8000)\n"
                   "t = time.perf_counter()\n")
    res = run_mypy(bad)
    assert res.returncode == 1
    assert '"type[Pin]" has no attribute "OUTPUT"' in res.stdout
    assert 'Unexpected keyword argument "timeout_ms"' in res.stdout
    assert 'has no attribute "perf_counter"' in res.stdout
