"""The rp2 HAL's key scan as tuned on the emulated chip (where a whole scan of the 36-key matrix
costs 3.4 ms of a 5 ms tick), against the pin-level fakes: while no key is down or settling a
tick reads the six columns with every row held low and writes no pin; a press is still seen and
reported as before (tests/test_hw_rp2.py keeps the debounce and long-press checks); Ctrl-C that
lands in the timer's callback reaches the app at its next keys()."""

import sys

import pytest

from conftest import FIRMWARE_LIB, ROOT

sys.path[:0] = [str(FIRMWARE_LIB), str(ROOT / "tests" / "mp")]
from bghal import profile as profiles  # noqa: E402
from bghal.rp2 import Rp2Hal  # noqa: E402
from hw_fakes import RecordingFramebuf, World  # noqa: E402


def board():
    w = World()
    prof = profiles.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    b = Rp2Hal(prof, machine=w.machine, neopixel=w.neopixel, framebuf=RecordingFramebuf(),
               time=w.time, scan_ms=5)
    return w, b


def test_an_idle_tick_reads_the_columns_only():
    w, b = board()
    rows = (6, 7, 8, 9, 10, 11)
    assert all(w.pins[r].level == 0 for r in rows), "rows held low between scans"
    reads = []

    def counted(pin):
        orig = pin.value

        def value(v=None):
            if v is None:
                reads.append(pin.gpio)
            return orig(v)
        return value

    for c in (12, 13, 14, 16, 17, 18):
        w.pins[c].value = counted(w.pins[c])
    w.writes = []
    w.time.sleep_ms(100)                     # 20 ticks, no key
    assert w.writes == []
    assert len(reads) == 20 * 6
    # a key pressed now is found and reported once, after its settle time
    w.held = {(7, 14)}                        # P9
    w.time.sleep_ms(40)
    assert b.keys() == ["P9"]
    assert any(v == 0 for _, v in w.writes), "the press was scanned row by row"
    w.held = set()
    w.time.sleep_ms(40)
    w.writes = []
    w.time.sleep_ms(20)
    assert w.writes == [] and b.keys() == [], "idle again after the release settled"
    b.close()
    assert all(w.pins[r].level == 1 for r in rows), "rows at rest once the timer is stopped"


def test_ctrl_c_in_the_timer_callback_reaches_the_app():
    w, b = board()
    col = w.pins[12]
    orig = col.value
    fired = []

    def value(v=None):
        if v is None and not fired:
            fired.append(1)
            raise KeyboardInterrupt
        return orig(v)

    col.value = value
    w.time.sleep_ms(5)                       # the tick that the interrupt hits
    assert fired
    with pytest.raises(KeyboardInterrupt):
        b.keys()
    assert b.keys() == []                    # once


def test_a_tap_that_began_in_a_stall_counts_and_a_short_glitch_does_not():
    """A flash write holds the CPU (63 ms for a sector erase on the emulated RP2040): no tick
    runs. A key that went down during it and is read down for only 10 ms after it is a tap,
    reported (it was lost: it had not been read down for the 20 ms settle time); the same 10 ms
    contact with the ticks running is a glitch, filtered as before."""
    w, b = board()
    w.time.sleep_ms(20)
    w.held = {(7, 14)}                        # P9, pressed as the write begins
    w.now += 63                               # the write: no tick ran
    w.time.sleep_ms(10)
    w.held = set()
    w.time.sleep_ms(40)
    assert b.keys() == ["P9"]
    w.time.sleep_ms(100)
    w.held = {(7, 14)}                        # a 10 ms contact, the ticks running
    w.time.sleep_ms(10)
    w.held = set()
    w.time.sleep_ms(40)
    assert b.keys() == []
