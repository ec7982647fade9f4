"""The firmware on the real chip's firmware: MicroPython's rp2 port on an emulated RP2040
(rp2040js, `bgboard vboard --chip rp2040`). The board boots to its menu with the real rp2 HAL,
keys pressed on the key matrix's GPIOs change the LED frames decoded from the panel pin, a power
cut mid-turn resumes the game, the watchdog resets the chip, and `bgboard flash` puts the
firmware on a blank emulated Pico with the real mpremote. The emulator runs at 0.2-0.3x real
time: this is a small set, each test on one board. Skipped, with the reason, where Node, the
emulator (tools/dev installs it) or the rp2 firmware (../shared/rp2, BGBOARD_RP2_FIRMWARE) is
missing."""

import json
import os
import signal
import subprocess
import sys

import pytest

from bgboard import chip
from bgboard.link import Board
from chip_kit import need_chip, state

need_chip()


def frame_after(board, ns, timeout=120, what="a changed LED frame"):
    """The first LED frame latched after emulated time `ns` that differs from the one before."""
    found = []

    def changed():
        frames = list(board.frames)
        for i, (t, f) in enumerate(frames):
            if t > ns and i and f != frames[i - 1][1]:
                found.append((t, f))
                return True
        return False

    board.wait(changed, timeout, what)
    return found[0]


@pytest.fixture(scope="module")
def game_board(tmp_path_factory):
    d = tmp_path_factory.mktemp("chip")
    chip.install(d / "flash.img", "reference")
    b = chip.ChipBoard(d / "link", d / "flash.img", pid_file=d / "pid").start()
    yield b
    b.stop()


def test_boots_to_the_menu_and_keys_on_the_matrix_light_the_panel(game_board):
    b = game_board
    b.wait(lambda: len(b.frames) > 0, 180, "the first LED frame")
    boot_ns, first = b.frames[0]
    assert len(first) == 16 * 16 * 3 and any(first), "the first frame is dark"
    b.wait(lambda: any(any(ram) for _, ram in b.oled), 60, "a lit OLED frame")
    st = state(b.link)
    assert st["view"] == "menu"
    # the bot, loaded at power-up once the menu is lit, searches in the chip's native code (a
    # heap broken up by then once left it the Python loops: several times slower, and a roll
    # of more than 128 plays stopped the board)
    assert st.get("bot") == "thumb", st
    # a person presses P7 (two players), then OK (new game) on the key matrix: each press
    # changes the panel, and the board is then in a game of two people
    for key in ("P7", "OK"):
        t = b.stats()["ns"]
        b.key(key, hold_ms=80)
        lit, _ = frame_after(b, t, what="the panel's answer to %s" % key)
        print("%s: lit %.1f ms (emulated) after the press" % (key, (lit - t) / 1e6))
    st = state(b.link)
    assert st["view"] == "play" and st["phase"] == "opening", st
    print("boot to the first LED frame: %.0f ms (emulated)" % (boot_ns / 1e6))


def test_a_power_cut_mid_turn_resumes_the_game(game_board):
    b = game_board
    st = state(b.link)
    for _ in range(8):                         # the opening roll (a tie is rolled again)
        if st.get("phase") != "opening":
            break
        t = b.stats()["ns"]
        b.key("OK", hold_ms=80)
        frame_after(b, t)
        st = state(b.link)
    assert st["phase"] == "move", st
    boots = b.boots
    os.kill(int(open(b.pid_file).read()), signal.SIGKILL)
    # (the frames from before the cut stay in b.frames: state() waits for the new boot's HELLO)
    b.wait(lambda: b.boots > boots and "power cut" in b.resets, 180, "the restart")
    after = state(b.link)
    for k in ("view", "phase", "pos", "turn", "dice", "match"):
        assert after.get(k) == st.get(k), (k, st, after)
    assert after.get("bot") == "thumb", after       # (loaded after the game's check, too)


def test_a_demo_game_pulled_off_the_chip_verifies(game_board, tmp_path):
    """The chip plays a level-6 demo game (fast) into a record of its own; after three emulated
    seconds (a dozen moves or so) MENU stops it. The record is pulled over the chip's USB serial
    port with `bgboard logs pull` (the protocol client) and verified by replay."""
    b = game_board
    with Board(b.link) as board:
        answer = board.request("DEMO 1 fast", timeout=60)
        assert answer.startswith("OK DEMO"), answer
        started = b.stats()["ns"]
        b.wait(lambda: b.stats()["ns"] > started + 3e9, 300, "three emulated seconds of demo")
        assert board.request("KEY MENU", timeout=120).startswith("OK KEY"), "MENU refused"
    out = tmp_path / "pulled"
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "logs", "pull", "--port", str(b.link),
                        "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    demos = [p for p in out.glob("*.bgr") if "bot:6" in p.read_text().split("OPEN", 1)[0]]
    assert len(demos) == 1, r.stdout + r.stderr
    lines = demos[0].read_text().splitlines()
    assert sum(ln.startswith("STEP") or ln.startswith("MOVE") for ln in lines) >= 1, lines[:20]
    v = subprocess.run([sys.executable, "-m", "bgboard.cli", "verify", str(demos[0])],
                       capture_output=True, text=True, timeout=120)
    assert v.returncode == 0, v.stdout + v.stderr
    print(v.stdout.strip().splitlines()[-1])


def test_the_bot_scores_plays_on_the_chip_as_on_cpython(tmp_path):
    """The bot's equities of every play along a seeded game (tests/mp/chip_equities.py) on the
    chip, whose scan runs in native code with its first-layer sums in Thumb code
    (bgcore.scan_thumb) and its first layer's weights read where the network file lies in flash
    (bgcore.netflash), are CPython's, integer for integer."""
    from conftest import FIRMWARE_LIB, ROOT
    script = ROOT / "tests" / "mp" / "chip_equities.py"
    cpy = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=120)
    assert cpy.returncode == 0, cpy.stderr
    want = json.loads(cpy.stdout)
    chip.install(tmp_path / "flash.img", "reference")
    b = chip.ChipBoard(tmp_path / "link", tmp_path / "flash.img").start()
    try:
        got = chip.run_script(b, script.read_text())
    finally:
        b.stop()
    assert (want["delta"], got["delta"]) == ("python", "thumb")
    assert (want["first_layer"], got["first_layer"]) == ("module", "flash")
    assert want["plays"] > 500 and got["plays"] == want["plays"]
    assert got["sums"] == want["sums"] and got["big"] == want["big"]


def test_the_bots_python_loops_read_the_first_layer_in_flash_too(tmp_path):
    """A board whose heap is too broken up to compile the bot's native scan plays with its
    Python loops (bgcore.native), the first layer still in flash: the same equities and the same
    play of a 1-1 of 748 plays (shortlisted: bgcore.shortlist's estimate reads each row where it
    lies) as CPython. (Such a board once stopped at its first roll of more than 128 plays.)"""
    from conftest import FIRMWARE_LIB, ROOT
    script = ROOT / "tests" / "mp" / "chip_equities.py"
    head = "MOVES = 6\n"
    cpy = subprocess.run([sys.executable, "-c", head + script.read_text()], capture_output=True,
                         text=True, env={"PYTHONPATH": str(FIRMWARE_LIB)}, timeout=120)
    assert cpy.returncode == 0, cpy.stderr
    want = json.loads(cpy.stdout)
    chip.install(tmp_path / "flash.img", "reference")
    b = chip.ChipBoard(tmp_path / "link", tmp_path / "flash.img").start()
    try:
        got = chip.run_script(b, head + "PYTHON_SCAN = 1\n" + script.read_text())
    finally:
        b.stop()
    assert (got["delta"], got["first_layer"]) == ("python", "flash")
    assert want["plays"] > 50 and got["plays"] == want["plays"]
    assert got["sums"] == want["sums"] and got["big"] == want["big"]


def test_the_watchdog_resets_the_chip(tmp_path):
    """rp2040js counts the watchdog down but does not reset the chip; the driver does."""
    b = chip.ChipBoard(tmp_path / "link", tmp_path / "blank.img").start()
    try:
        import serial
        b.wait(lambda: b.boots == 1, 30)
        with serial.Serial(str(b.link), timeout=0.1) as s:
            s.write(b"\r\x03")
            b.wait(lambda: b">>> " in b.serial_out, 120, "the REPL")
            s.write(b"import machine; machine.WDT(timeout=300)\r")
            b.wait(lambda: b.resets, 120, "the watchdog's reset")
        assert b.resets == ["timeout"]
        b.wait(lambda: b.boots == 2, 30, "the boot after the reset")
    finally:
        b.stop()


def test_flash_a_blank_emulated_pico_with_mpremote(tmp_path):
    b = chip.ChipBoard(tmp_path / "link", tmp_path / "blank.img").start()
    try:
        r = subprocess.run([sys.executable, "-m", "bgboard.cli", "flash", "--port", str(b.link),
                            "--target", "rp2040", "--profile", "reference"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "runs fw" in r.stderr
        with Board(b.link) as board:
            info = board.hello(timeout=120)
        assert info.get("profile") == "reference", info
        # its id is its flash chip's unique ID, as on a real Pico: its own, not zeros
        assert info.get("board") == chip.unique_id(b.image) != chip.unique_id(tmp_path / "x"), info
        assert b.resets and b.resets[0] == "forced"       # machine.reset() after the switch
    finally:
        b.stop()
