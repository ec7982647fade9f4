"""hardware/bringup.py, the builder's first power-up check, on the simulated reference board:
the dot walks the panel in reading order, every LED map element lights, a held point key is
reported once and lit on its point."""

import sys

from conftest import FIRMWARE_LIB, ROOT

sys.path[:0] = [str(FIRMWARE_LIB), str(ROOT / "tests" / "mp"), str(ROOT / "hardware")]
import bringup  # noqa: E402
from bghal import profile as bprofile  # noqa: E402
from bghal.rp2 import Rp2Hal  # noqa: E402
from hw_fakes import RecordingFramebuf, World  # noqa: E402


def lit(strip):
    return [i for i in range(len(strip) // 3) if any(strip[3 * i:3 * i + 3])]


def test_bringup_on_the_reference_board(capsys):
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    w = World()
    hal = Rp2Hal(prof, machine=w.machine, neopixel=w.neopixel, framebuf=RecordingFramebuf(),
                 time=w.time)
    w.held = {(6, 17)}        # P5: row GPIO 6, column GPIO 17
    seen = bringup.run(hal, seconds=1)
    assert seen == ["P5"]
    frames = w.frames
    # the walk: 256 frames of one LED each; far-left corner first, then along the far row, then
    # the second row from the left again (the serpentine strip's LED 31)
    walk = [lit(f) for f in frames[:256]]
    assert all(len(x) == 1 for x in walk)
    assert [x[0] for x in walk[:3]] == [0, 1, 2]
    assert walk[16] == [31]
    assert sorted(x[0] for x in walk) == list(range(256))
    # the LED map: one frame per element, 216 LEDs in all, none twice
    elements = [lit(f) for f in frames[256:256 + len(bprofile.ELEMENTS)]]
    assert sum(len(x) for x in elements) == 216
    assert len(set(i for x in elements for i in x)) == 216
    # the key: point 5 (column 8, near edge up: strip LEDs 247, 232, ...) lit, nothing else
    assert lit(frames[-2]) == sorted([247, 232, 215, 200, 183, 168, 151])
    assert lit(frames[-1]) == []
    out = capsys.readouterr().out
    assert "key P5" in out and "keys seen: P5" in out
    assert w.wdt == []                       # bring-up starts no watchdog
