"""The build compiles the firmware's native loops (the modules whose whole text is viper source:
bgcore.net_native, scan_native, scan_viper, search_native, bgapp.native, bghal.panel_native;
bgcore.scan_thumb's inline Thumb for an ARM board) to the board's own machine code where it
knows the board's MicroPython (bgboard.build.native_arch): the board then compiles nothing when
it imports them. On the unix port: the same games as the library that compiles them at import,
and the bot imported with its native loops in a smaller heap."""

import subprocess

import pytest

from conftest import FIRMWARE_LIB, micropython_path

from bgboard import build, chip, vboard
from bgboard.bench_bot import MP_GAME

NATIVE = ("bgcore/net_native.mpy", "bgcore/scan_native.mpy", "bgcore/scan_viper.mpy",
          "bgcore/search_native.mpy", "bgapp/native.mpy", "bghal/panel_native.mpy")


def header(data):
    """(architecture, native sub-version) of a .mpy file's header: (0, 0) for bytecode."""
    return data[2] >> 2, data[2] & 3


@pytest.fixture(scope="module")
def port_mpy():
    mpy = vboard.port_mpy()
    if build.native_arch(mpy) is None:
        pytest.skip("this unix port's machine code is not one mpy-cross writes (_mpy %r)" % mpy)
    return mpy


def test_the_loops_are_compiled_for_the_board_the_build_knows(tmp_path, port_mpy):
    unix = build.compile_lib(tmp_path / "unix", board_mpy=port_mpy)
    pico = build.compile_lib(tmp_path / "pico", board_mpy=chip.FIRMWARE_MPY)
    plain = build.compile_lib(tmp_path / "plain")
    for name in NATIVE:
        assert header(unix[name]) == (port_mpy >> 10, port_mpy >> 8 & 3), name
        assert header(pico[name]) == (chip.FIRMWARE_MPY >> 10, chip.FIRMWARE_MPY >> 8 & 3), name
        assert header(plain[name]) == (0, 0) and b"SOURCE" in plain[name], name
    # inline Thumb for the Pico only; an x64 port gets the source, which it cannot compile
    assert header(pico["bgcore/scan_thumb.mpy"])[0] == build.ARCHS.index("armv6m")
    if not build.ARCHS[port_mpy >> 10].startswith("arm"):
        assert header(unix["bgcore/scan_thumb.mpy"]) == (0, 0)
    # everything else is bytecode any board of this .mpy version loads
    for name, data in unix.items():
        if name.endswith(".mpy") and name not in NATIVE and name != "bgcore/scan_thumb.mpy":
            assert header(data) == (0, 0), name
    # a MicroPython of another native sub-version would refuse the machine code: it gets
    # the source, as a board the build does not know
    other = port_mpy & ~0x300 | ((port_mpy >> 8 & 3) ^ 1) << 8
    assert build.native_arch(other) is None and build.native_arch(None) is None


def _import_heap(lib, lo=40, hi=200, step=4):
    # the smallest heap (KB, to `step`) in which the unix port imports the bot with its native
    # loops (bgcore.bot.scan_code() "viper"), and what it runs at the largest heap
    script = "from bgcore.bot import Bot, scan_code\nBot(6, 1)\nprint(scan_code())\n"

    def code(kb):
        r = subprocess.run([micropython_path(), "-X", "heapsize=%dk" % kb, "-c", script],
                           capture_output=True, text=True, timeout=60,
                           env={"MICROPYPATH": str(lib)})
        return r.stdout.strip() if r.returncode == 0 else "MemoryError" in r.stderr and "none"

    top = code(hi)
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if code(mid) == "viper":
            hi = mid
        else:
            lo = mid
    return hi, top


def test_the_precompiled_loops_play_the_same_games_and_import_in_less_heap(tmp_path, port_mpy):
    libs = {"compiled at import": tmp_path / "plain", "compiled by the build": tmp_path / "unix"}
    build.compile_lib(libs["compiled at import"], FIRMWARE_LIB, package="bgcore")
    build.compile_lib(libs["compiled by the build"], FIRMWARE_LIB, package="bgcore",
                      board_mpy=port_mpy)
    games, heaps = {}, {}
    for what, lib in libs.items():
        build.compile_module(MP_GAME, MP_GAME.name, lib / "mp_bot_game.mpy")
        r = subprocess.run([micropython_path(), "-X", "heapsize=256k", "-m", "mp_bot_game", "6",
                            "5", "3", "2"], capture_output=True, text=True, timeout=300,
                           env={"MICROPYPATH": str(lib)})
        assert r.returncode == 0, r.stderr
        games[what] = [ln for ln in r.stdout.splitlines() if not ln.startswith("MOVES")]
        heaps[what] = _import_heap(lib)
        assert heaps[what][1] == "viper", (what, heaps[what])
    assert len([ln for ln in games["compiled at import"] if ln.startswith("END")]) == 2
    assert games["compiled by the build"] == games["compiled at import"]
    print("the bot imported with its native loops on the unix port: in %dk compiled at import, "
          "%dk compiled by the build" % (heaps["compiled at import"][0],
                                         heaps["compiled by the build"][0]))
    assert heaps["compiled by the build"][0] < heaps["compiled at import"][0]


def test_each_architecture_is_numbered_as_mpy_cross_writes_it(tmp_path):
    src = tmp_path / "loop.py"
    src.write_text("SOURCE = '''\n@micropython.viper\ndef f(n: int) -> int:\n    return n + 1\n'''\n")
    for number, arch in enumerate(build.ARCHS):
        if arch is None:
            continue
        data = build.compile_native(src, "loop.py", tmp_path / ("%s.mpy" % arch), arch)
        assert header(data) == (number, build.mpy_cross_sub_version()), arch
