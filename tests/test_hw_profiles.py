"""Board profiles: every profile in hardware/profiles passes `bgboard hw check`; each broken one
in tests/hw_profiles_broken fails with one clear message per fault; the firmware's check on
MicroPython finds exactly the same faults; the panel geometry (wiring, origin, rotation)."""

import json
import sys

import pytest

from conftest import FIRMWARE_LIB, ROOT, run_micropython

sys.path.insert(0, str(FIRMWARE_LIB))
from bghal import profile as bprofile  # noqa: E402
from bghal.panel import Panel  # noqa: E402
from bgboard.cli import main  # noqa: E402

PROFILES = sorted((ROOT / "hardware" / "profiles").glob("*.json"))
BROKEN_DIR = ROOT / "tests" / "hw_profiles_broken"

# each broken profile: the faults `check` must report, in order (a piece of each message)
BROKEN = {
    "gpio-30": ["panel.pin: GPIO 30 does not exist (the RP2040 and the Pico 2's RP2350A have "
                "GPIO 0-29)"],
    "gpio-25": ["piezo: GPIO 25 is the Pico's on-board LED, not a free pin on the header "
                "(reserved: 23, 24, 25, 29)"],
    "pin-twice": ["piezo: GPIO 12 is already used by input.cols[0]"],
    "leds-overlap": ["leds.die1: 6 LEDs, (7, 8) to (12, 8), are already in die0"],
    "leds-outside": ["leds.p24: 7 LEDs, (16, 0) to (16, 6), are outside the 16x16 panel"],
    "leds-missing": ["leds.cube: missing"],
    "die-5-leds": ["leds.die0: 5 LEDs, needs exactly 6"],
    "key-missing": ["input: no key for HINT"],
    "key-twice": ["input.keys[5][1]: key P1 is already at input.keys[0][0]"],
    "no-back-button": ["input: no key for BACK (a buttons board needs LEFT, RIGHT, SELECT, BACK)"],
    "over-budget": ["power: the LEDs' budget 1500 mA plus 100 mA for the rest of the board is "
                    "more than the 1000 mA supply"],
    "i2c-swapped": ["oled: SDA and SCL are swapped: on I2C0 GPIO 5 is SCL and GPIO 4 is SDA"],
    "several": ["mcu: unknown MCU 'esp32'", "panel.order: 'GRBW' is not an order of the letters",
                "colours.side0: [0, 300, 0] is not [red, green, blue]"],
    "not-json": ["not valid JSON"],
    # the keys do not fit (bgboard.mechanical, the laptop's check only)
    "keys-12mm-in-line": ["%s and %s overlap by 2 mm (12 x 12 mm switches, centres 10 mm apart)"
                          % pair for pair in
                          [("P%d" % n, "P%d" % (n + 1)) for n in range(13, 18)]
                          + [("P%d" % n, "P%d" % (n + 1)) for n in range(19, 24)]
                          + [("P%d" % n, "P%d" % (n - 1)) for n in range(12, 8 - 1, -1)]
                          + [("P7", "BAR"), ("BAR", "P6")]
                          + [("P%d" % n, "P%d" % (n - 1)) for n in range(6, 1, -1)]],
    "keys-misplaced": [
        "mechanical.keys: no place for HINT",
        "mechanical.keys.MENU: its 12 x 12 mm switch at (30, 250) reaches outside the "
        "200 x 250 mm enclosure",
        "mechanical.keys.OK: its switch at (150, 224) and the display module overlap",
        "mechanical.keys.P5: at (105, 240) it is 55 mm from its point's edge LED at (105, 185) "
        "(at most 30 mm",
        "mechanical.keys.P20: at (115, 20) it is nearer point 21 than its own point 20",
        "mechanical.keys.P21: at (105, 20) it is nearer point 20 than its own point 21"],
    "mechanical-form": ["mechanical.pitch_mm: 0 is not the LED pitch in mm",
                        "mechanical.keys.P1: no switch '8x8' in mechanical.switches",
                        "mechanical.oled_mm: missing (the board has a display"],
}


def test_there_are_the_two_profiles_the_issue_asks_for():
    assert [p.stem for p in PROFILES] == ["minimal", "reference"]


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_profile_in_hardware_passes(path, capsys):
    assert main(["hw", "check", path.stem]) == 0
    out = capsys.readouterr().out
    assert "profiles/%s.json: OK" % path.stem in out
    assert bprofile.check(bprofile.load(str(path))) == []


def test_the_broken_set_is_the_one_listed_here():
    assert sorted(p.stem for p in BROKEN_DIR.glob("*.json")) == sorted(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_profile_fails_with_one_message_per_fault(name, capsys):
    path = BROKEN_DIR / (name + ".json")
    assert main(["hw", "check", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    want = BROKEN[name]
    assert err[0].endswith(": %d fault%s" % (len(want), "" if len(want) == 1 else "s"))
    faults = [line.strip() for line in err[1:]]
    assert len(faults) == len(want), err
    for got, piece in zip(faults, want):
        assert piece in got


def test_several_profiles_at_once_and_a_missing_one(capsys):
    assert main(["hw", "check", "reference", "minimal"]) == 0
    assert capsys.readouterr().out.count(": OK") == 2
    assert main(["hw", "check", "reference", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert "no profile 'nosuch'" in err and "minimal, reference" in err


def test_micropython_finds_the_same_faults(mpy_lib):
    files = PROFILES + sorted(BROKEN_DIR.glob("*.json"))
    res = run_micropython(ROOT / "tests" / "mp" / "hw_profile_check.py", *map(str, files),
                          lib=mpy_lib, heap="256k", timeout=60)
    assert res.returncode == 0, res.stderr
    got = dict(json.loads(line) for line in res.stdout.splitlines())
    assert len(got) == len(files)
    for path in files:
        try:
            want = bprofile.check(bprofile.load(str(path)))
        except ValueError:
            assert got[path.name].startswith("ValueError: ") and "not valid JSON" in got[path.name]
            continue
        assert got[path.name] == want, path.name


def test_defaults_fill_what_a_profile_leaves_out(tmp_path):
    ref = json.loads((ROOT / "hardware" / "profiles" / "reference.json").read_text())
    for key in ("power", "colours", "brightness", "hal"):
        del ref[key]
    for key in ("wiring", "origin", "rotation", "order"):
        del ref["panel"][key]
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(ref))
    prof = bprofile.load(str(path))
    assert bprofile.check(prof) == []
    assert prof["power"]["budget_ma"] == 1500 and prof["power"]["channel_ma"] == 20
    assert prof["panel"]["order"] == "GRB" and prof["panel"]["wiring"] == "serpentine"


def test_unknown_settings_are_named(tmp_path):
    ref = json.loads((ROOT / "hardware" / "profiles" / "minimal.json").read_text())
    ref["pannel"] = ref["panel"]
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(ref))
    faults = bprofile.check(bprofile.load(str(path)))
    assert len(faults) == 1 and faults[0].startswith("pannel: not a profile setting")


# ---- panel geometry ---------------------------------------------------------------------------
def panel(wiring="serpentine", origin="top-left", rotation=0, width=16, height=16):
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    prof["panel"].update(wiring=wiring, origin=origin, rotation=rotation, width=width,
                         height=height)
    return Panel(prof)


@pytest.mark.parametrize("kw,pixel,strip", [
    # progressive from the top-left: row-major
    (dict(wiring="progressive"), (5, 0), 5),
    (dict(wiring="progressive"), (0, 1), 16),
    (dict(wiring="progressive"), (15, 15), 255),
    # serpentine: every other row runs back
    (dict(), (15, 0), 15),
    (dict(), (15, 1), 16),
    (dict(), (0, 1), 31),
    (dict(), (0, 2), 32),
    # data in at the bottom-right corner of the panel
    (dict(origin="bottom-right"), (15, 15), 0),
    (dict(origin="bottom-right"), (0, 15), 15),
    (dict(origin="bottom-right"), (0, 14), 16),
    # turned 90 degrees clockwise: the panel's top-left corner is at the board's top-right,
    # its rows run down the board
    (dict(rotation=90), (15, 0), 0),
    (dict(rotation=90), (15, 1), 1),
    (dict(rotation=90), (14, 15), 16),
    (dict(rotation=180), (15, 15), 0),
    (dict(rotation=180), (14, 15), 1),
    (dict(rotation=270), (0, 15), 0),
    (dict(rotation=270), (0, 14), 1),
    # a 32 x 8 strip panel turned 90 degrees: its 8-LED rows run down the board
    (dict(wiring="progressive", rotation=90, width=8, height=32), (7, 0), 0),
    (dict(wiring="progressive", rotation=90, width=8, height=32), (7, 31), 31),
    (dict(wiring="progressive", rotation=90, width=8, height=32), (6, 0), 32),
])
def test_strip_index(kw, pixel, strip):
    assert panel(**kw).index(*pixel) == strip


@pytest.mark.parametrize("wiring", ["serpentine", "progressive"])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("origin", ["top-left", "top-right", "bottom-left", "bottom-right"])
def test_every_layout_uses_every_led_once(wiring, rotation, origin):
    p = panel(wiring, origin, rotation, width=16, height=8)
    assert sorted(p.index(x, y) for x in range(16) for y in range(8)) == list(range(128))


def test_pixel_outside_and_wrong_frame_are_named():
    p = panel()
    with pytest.raises(ValueError, match=r"pixel \(16, 0\) is outside the 16x16 panel"):
        p.index(16, 0)
    with pytest.raises(ValueError, match="768 bytes"):
        p.encode(bytearray(10), p.buffer(), 64)


def test_element_pixels_first_led_first():
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    # point 1: column 12 from the near edge up; point 13: column 0 from the far edge down
    assert list(bprofile.pixels(prof, "p1"))[:2] == [15 * 16 + 12, 14 * 16 + 12]
    assert list(bprofile.pixels(prof, "p13"))[:2] == [0, 16]
    assert len(bprofile.pixels(prof, "die0")) == 6
