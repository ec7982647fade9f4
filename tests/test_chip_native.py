"""The native code the firmware compiles where MicroPython has a native emitter (the LED panel's
per-LED loops, bghal/panel_native.py; the bot network's inner loops, bgcore/net.py; the move view's
loops over a roll's plays and the checkers' painter, bgapp/native.py) gives the same
results as the Python loops on CPython and as the same loops on MicroPython with the native code
switched off. (On the emulated RP2040 the
same source compiles to Thumb: test_chip.py's frames come from it.)"""

import subprocess
import sys

from conftest import FIRMWARE_LIB, ROOT, run_micropython

SCRIPT = ROOT / "tests" / "mp" / "panel_encode.py"
PROFILES = ROOT / "hardware" / "profiles"


def test_panel_encode_native_matches_python(mpy_lib):
    cpy = subprocess.run([sys.executable, str(SCRIPT), str(PROFILES)], capture_output=True,
                         text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=120)
    assert cpy.returncode == 0, cpy.stderr
    native = run_micropython(SCRIPT, str(PROFILES), lib=mpy_lib, heap="256k", timeout=120)
    plain = run_micropython(SCRIPT, str(PROFILES), "python", lib=mpy_lib, heap="256k",
                            timeout=120)
    assert native.returncode == 0 and plain.returncode == 0, native.stderr + plain.stderr
    assert native.stdout.splitlines()[0] == "native", native.stdout
    assert plain.stdout.splitlines()[0] == "python"
    assert cpy.stdout.splitlines()[0] == "python"
    want = cpy.stdout.splitlines()[1:]
    assert len(want) == 2
    assert native.stdout.splitlines()[1:] == want
    assert plain.stdout.splitlines()[1:] == want


NET_SCRIPT = ROOT / "tests" / "mp" / "net_native.py"


def test_net_native_matches_python(mpy_lib):
    """The bot network's native loops (bgcore.net: viper on MicroPython) and CPython's versions
    on its builtins (bgcore.net_cpython) give the same equities and probabilities, integer for
    integer, as its Python loops on CPython and on MicroPython."""
    fast = subprocess.run([sys.executable, str(NET_SCRIPT), "builtins"], capture_output=True,
                          text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=300)
    cpy = subprocess.run([sys.executable, str(NET_SCRIPT), "python"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=300)
    assert cpy.returncode == 0 and fast.returncode == 0, cpy.stderr + fast.stderr
    assert fast.stdout.splitlines()[0] == "builtins"
    assert fast.stdout.splitlines()[1] == cpy.stdout.splitlines()[1]
    native = run_micropython(NET_SCRIPT, lib=mpy_lib, heap="256k", timeout=300)
    plain = run_micropython(NET_SCRIPT, "python", lib=mpy_lib, heap="256k", timeout=300)
    assert native.returncode == 0 and plain.returncode == 0, native.stderr + plain.stderr
    assert native.stdout.splitlines()[0] == "native", native.stdout
    assert plain.stdout.splitlines()[0] == "python"
    assert cpy.stdout.splitlines()[0] == "python"
    want = cpy.stdout.splitlines()[1]
    assert int(want.split()[0]) > 500           # plays evaluated in the game
    assert native.stdout.splitlines()[1] == want
    assert plain.stdout.splitlines()[1] == want


MOVES_SCRIPT = ROOT / "tests" / "mp" / "moves_native.py"


def test_move_view_native_matches_python(mpy_lib):
    """The move view's native loops (bgapp.native: the plays left after a step, the steps still
    to make) and the checkers' painter give, through a seeded game's rolls keyed step by step,
    the same sources, destinations, complete plays and LED frames (every profile, tall stacks)
    as the Python loops on CPython and on MicroPython."""
    cpy = subprocess.run([sys.executable, str(MOVES_SCRIPT), str(PROFILES)], capture_output=True,
                         text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=300)
    assert cpy.returncode == 0, cpy.stderr
    native = run_micropython(MOVES_SCRIPT, str(PROFILES), lib=mpy_lib, heap="256k", timeout=300)
    plain = run_micropython(MOVES_SCRIPT, str(PROFILES), "python", lib=mpy_lib, heap="256k",
                            timeout=300)
    assert native.returncode == 0 and plain.returncode == 0, native.stderr + plain.stderr
    assert native.stdout.splitlines()[0] == "native", native.stdout
    assert plain.stdout.splitlines()[0] == "python"
    assert cpy.stdout.splitlines()[0] == "python"
    want = cpy.stdout.splitlines()[1]
    assert int(want.split()[0]) > 500           # positions checked
    assert native.stdout.splitlines()[1] == want
    assert plain.stdout.splitlines()[1] == want
