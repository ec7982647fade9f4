"""Shared helpers for the test suite: where MicroPython and the firmware live (bgboard.paths),
the firmware compiled as a board runs it (bgboard.build), and a way to build positions by
hand. The suite runs with user directories of its own (below)."""

import atexit
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from bgboard import build, paths

# The suite's own XDG_RUNTIME_DIR and XDG_DATA_HOME, for every test and every program it starts
# (a test may set its own): the virtual boards the tests start are listed (bgboard.devices)
# where no other program on the machine looks, so a `bgboard devices` run elsewhere never opens
# a test's port in the middle of it; and nothing a test pulls lands in the user's archive.
_USER_DIRS = tempfile.mkdtemp(prefix="bgboard-tests-")
atexit.register(shutil.rmtree, _USER_DIRS, True)
for _var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME"):
    os.environ[_var] = os.path.join(_USER_DIRS, _var.lower())
    os.makedirs(os.environ[_var], mode=0o700)

ROOT = paths.REPO
FIRMWARE_LIB = paths.FIRMWARE_LIB
FW_VERSION = build.version()       # the firmware version, read from where the build reads it


def tool_path(name):
    try:
        return paths.tool(name)
    except paths.ToolMissing as e:
        pytest.fail(str(e))


def micropython_path():
    return tool_path("micropython")


def compile_lib(dest):
    """Compile firmware/lib to .mpy files under dest, as a board runs them (bytecode: no
    compiler needed on the chip, and far less RAM to import)."""
    build.compile_lib(dest)
    return Path(dest)


@pytest.fixture(scope="session")
def mpy_lib(tmp_path_factory):
    return compile_lib(tmp_path_factory.mktemp("mpy_lib"))


@functools.cache
def _beyond_chip_kb():
    # (the networks' file is built for it once a run)
    return (build.heap_beyond_chip() + 1023) // 1024


def chip_heap(kb):
    """-X heapsize for a unix-port heap standing in for an RP2040's of KB kilobytes: that and
    the first layer's copy that the chip reads in flash and this port holds in its heap
    (bgboard.build.heap_beyond_chip; the drives' PEAK figures count it out)."""
    return "%dk" % (kb + _beyond_chip_kb())


def run_micropython(script, *args, heap="64k", timeout=300, stdin=None, lib=None, extra_path=(),
                    cwd=None):
    """Run a script on MicroPython's unix port with firmware/lib (or its compiled form `lib`)
    on its path (in the directory `cwd` if given)."""
    env = dict(os.environ)
    paths = [str(lib or FIRMWARE_LIB)] + [str(p) for p in extra_path] + [".frozen"]
    env["MICROPYPATH"] = ":".join(paths)
    return subprocess.run([micropython_path(), "-X", "heapsize=" + heap, str(script)] + list(args),
                          capture_output=True, text=True, timeout=timeout, env=env, input=stdin,
                          cwd=cwd)


def board(me=None, them=None):
    """A gnubg-style board from {point: count} dicts, each in its own side's numbering
    (25 = bar)."""
    b = [[0] * 25, [0] * 25]
    for side, spec in ((1, me or {}), (0, them or {})):
        for p, n in spec.items():
            b[side][p - 1] = n
    return b


# The files that take longest (the emulated chip's, the flashes', the bot's strength check),
# measured with --durations: started first, so that the workers `-n auto` runs (pyproject.toml,
# files handed out in this order) end together instead of one finishing a long file alone.
LONGEST_FIRST = ("test_chip.py", "test_bot.py", "test_soak_chip.py", "test_host_flash.py",
                 "test_chip_keys.py", "test_chouette.py", "test_soak_steps.py",
                 "test_gnubg_crosscheck.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    # a stable sort: the other files, and the tests inside each file, keep their order
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
