"""The top of the board (bgboard.mechanical, tools/mechanical_svg.py): the keys of both profiles
physically fit (switch outlines apart by the clearance, inside the enclosure, off the panel and
the display, each point's key at its point); the layout the issue found (12 x 12 mm switches in
line under 10 mm LED columns) does not, and a staggered one does; the drawing in hardware/ is
what the tool makes today and shows the figures a builder needs; the bill of materials has a
switch for every key the layout places."""

import csv
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import FIRMWARE_LIB, ROOT

sys.path.insert(0, str(FIRMWARE_LIB))
from bghal import profile as bprofile  # noqa: E402
from bgboard import mechanical  # noqa: E402
from bgboard.cli import main  # noqa: E402

NAMES = sorted(p.stem for p in (ROOT / "hardware" / "profiles").glob("*.json"))
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def load(name):
    return bprofile.load(str(ROOT / "hardware" / "profiles" / (name + ".json")), mechanical=True)


@pytest.mark.parametrize("name", NAMES)
def test_the_keys_of_every_profile_fit(name, capsys):
    prof = load(name)
    assert prof["mechanical"] is not None
    assert mechanical.check(prof) == []
    lay = mechanical.Layout(prof)
    assert sorted(lay.keys) == sorted(mechanical.board_keys(prof))
    gap, a, b = mechanical.narrowest(lay)
    assert gap >= lay.clearance > 0
    assert main(["hw", "check", name]) == 0
    assert "narrowest gap %g mm (%s-%s)" % (gap, a.name, b.name) in capsys.readouterr().out


def test_every_point_key_is_under_its_own_column():
    prof = load("reference")
    lay = mechanical.Layout(prof)
    for n in range(1, 25):
        x, y = prof["leds"]["p%d" % n][0][:2]
        ex, ey = lay.led(x, y)
        key = lay.keys["P%d" % n]
        assert abs(key.x - ex) < lay.pitch / 2, n
        # outside the panel, on the side of the point's first LED (its edge)
        assert (key.y < lay.panel.y) == (ey < lay.panel.y + lay.panel.h / 2), n


def test_twelve_mm_switches_in_line_do_not_fit():
    """The issue: six 12 mm switches in a half-board need 72 mm where its columns give 60."""
    prof = load("reference")
    prof["mechanical"]["switches"]["6x6"] = [12, 12]
    faults = mechanical.check(prof)
    assert "mechanical.keys: P13 and P14 overlap by 2 mm (12 x 12 mm switches, centres 10 mm " \
           "apart)" in faults
    assert all("overlap by 2 mm" in f for f in faults)
    # every neighbour in a half-board, each once: 5 pairs in each of the four half-rows, and the
    # BAR key between the near halves touches both
    assert len(faults) == 22


def test_staggered_twelve_mm_switches_fit():
    """Another layout that does fit: the 12 mm switches in two staggered rows (odd columns
    14 mm further from the panel), each key still nearest its own point."""
    prof = load("reference")
    mech = prof["mechanical"]
    mech["switches"]["6x6"] = [12, 12]
    panel_x, panel_y = mech["panel_mm"]
    mech["panel_mm"][1] += 10
    for name, (switch, x, y) in mech["keys"].items():
        if switch == "6x6":
            col = int((x - panel_x) // mech["pitch_mm"])
            y += 10 + (14 if col % 2 else 0) * (-1 if y < panel_y else 1)
        else:                              # the function keys make way for the near row
            y += 24
        mech["keys"][name] = [switch, x, y]
    mech["oled_mm"][1] += 24
    mech["enclosure_mm"][1] += 24
    assert mechanical.check(prof) == []
    gap, _, _ = mechanical.narrowest(mechanical.Layout(prof))
    assert gap == 2


def test_a_key_half_a_pitch_off_is_nearer_the_next_point():
    prof = load("reference")
    prof["mechanical"]["keys"]["P1"][1] -= 5.5
    prof["mechanical"]["keys"]["P2"][1] -= 10      # out of the way
    faults = mechanical.check(prof)
    assert any(f.startswith("mechanical.keys.P1: at (139.5, 200) it is nearer point 2 than "
                            "its own point 1") for f in faults), faults


@pytest.mark.parametrize("where,value", [
    ("pitch_mm", "10"), ("pitch_mm", None), ("enclosure_mm", [200]), ("enclosure_mm", {}),
    ("panel_mm", [-5, 0]), ("clearance_mm", True), ("switches", []), ("switches", {"6x6": [6]}),
    ("keys", [1, 2]), ("keys", {"P1": ["6x6", 1]}), ("keys", {"P1": [["6x6"], 1, 2]}),
    ("keys", {"P1": [None, 1, 2]}), ("oled_mm", [1, 2, 3]), ("oled_mm", "top"),
    ("colour", "red"),
])
def test_a_malformed_layout_is_named_not_a_traceback(where, value, capsys, tmp_path):
    prof = load("reference")
    prof["mechanical"][where] = value
    faults = mechanical.check(prof)
    assert faults and all(f.startswith("mechanical.") for f in faults), faults
    assert any(f.startswith("mechanical.%s" % where) for f in faults), faults
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(prof))
    assert main(["hw", "check", str(path)]) == 1
    assert "mechanical.%s" % where in capsys.readouterr().err


def test_a_profile_without_a_layout_is_not_refused():
    prof = load("minimal")
    assert prof["mechanical"] is not None
    del prof["mechanical"]
    assert mechanical.check(bprofile.with_defaults(prof)) == []
    assert "no mechanical section" in mechanical.summary(bprofile.with_defaults(prof))


def test_the_board_does_not_keep_the_layout():
    """The firmware's load drops `mechanical` (the board has no use for it)."""
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    assert prof["mechanical"] is None


# ---- the drawing ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    out = tmp_path_factory.mktemp("mechanical")
    subprocess.run([sys.executable, str(ROOT / "tools" / "mechanical_svg.py"), "--out", str(out)],
                   check=True, capture_output=True)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_committed_drawing_is_up_to_date(fresh, name):
    committed = ROOT / "hardware" / ("mechanical-%s.svg" % name)
    assert committed.exists(), "run tools/mechanical_svg.py"
    assert committed.read_text() == (fresh / committed.name).read_text(), \
        "hardware/%s is stale: run tools/mechanical_svg.py" % committed.name


def texts(name):
    svg = ET.parse(ROOT / "hardware" / ("mechanical-%s.svg" % name))
    return [t.text for t in svg.iter(SVG_TEXT)]


@pytest.mark.parametrize("name", NAMES)
def test_the_drawing_gives_the_builders_figures(name):
    prof = load(name)
    lay = mechanical.Layout(prof)
    shown = texts(name)
    # overall size, the panel, where it sits
    for figure in (lay.enclosure.w, lay.enclosure.h, lay.panel.w, lay.panel.x):
        assert "%g" % figure in shown
    assert "LED panel 160 x 160 mm, 16x16 LEDs, %g mm pitch" % lay.pitch in shown
    # each switch: its size, and the pitch and gap of the closest two in a row
    for switch, (w, h) in lay.switches.items():
        keys = [k for k in lay.keys.values() if k.switch == switch]
        pitch = min(abs(a.x - b.x) for a in keys for b in keys if a is not b and a.y == b.y)
        assert any(t.startswith("%g x %g mm: %d keys" % (w, h, len(keys))) for t in shown)
        assert "pitch %g" % pitch in shown and "gap %g" % (pitch - w) in shown
    # every key's label, and its centre in the table
    for key in lay.keys.values():
        assert (key.name[1:] if key.name[0] == "P" and key.name[1:].isdigit()
                else key.name) in shown
        assert key.name in shown
    if lay.oled:
        assert "OLED module" in shown and "window" in shown


def test_reference_drawing_figures():
    """The figures of the reference board as the issue's closing note gives them."""
    shown = texts("reference")
    assert "6 x 6 mm: 26 keys (13, 14, 15 ... 1, OFF)" in shown
    assert "12 x 12 mm: 5 keys (MENU, HINT, DOUBLE, UNDO, OK)" in shown
    for figure in ("pitch 10", "gap 4", "pitch 22", "gap 10", "200", "250", "160"):
        assert figure in shown, figure


def test_the_tool_refuses_a_profile_whose_keys_do_not_fit(tmp_path):
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "mechanical_svg.py"), "--out",
                          str(tmp_path), str(ROOT / "tests" / "hw_profiles_broken" /
                                             "keys-12mm-in-line.json")],
                         capture_output=True, text=True)
    assert res.returncode != 0
    assert "P13 and P14 overlap by 2 mm" in res.stderr
    assert "Traceback" not in res.stderr
    assert list(tmp_path.iterdir()) == []


# ---- the bill of materials --------------------------------------------------------------------
def bom():
    with open(ROOT / "hardware" / "bom.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("name", NAMES)
def test_the_bom_has_a_switch_for_every_key(name):
    lay = mechanical.Layout(load(name))
    column = "quantity (%s)" % name
    for switch, (w, h) in lay.switches.items():
        rows = [r for r in bom() if r["part"].startswith("%g x %g mm tactile switch" % (w, h))]
        assert len(rows) == 1, switch
        want = sum(1 for k in lay.keys.values() if k.switch == switch)
        assert int(rows[0][column]) == want, (switch, rows[0][column], want)
    switches = [r for r in bom() if "tactile switch" in r["part"]]
    assert sum(int(r[column]) for r in switches) == len(lay.keys)


def test_the_bom_has_the_socket_the_guide_recommends():
    (row,) = [r for r in bom() if "socket" in r["part"].lower()]
    assert "DIP-14" in row["part"] or "14-pin" in row["part"]
    assert int(row["quantity (reference)"]) == 1 == int(row["quantity (minimal)"])


def test_no_part_is_listed_twice():
    parts = [r["part"] for r in bom()]
    assert len(parts) == len(set(parts))


@pytest.mark.parametrize("name", NAMES)
def test_the_bom_panel_is_the_size_the_layout_assumes(name):
    lay = mechanical.Layout(load(name))
    (panel,) = [r for r in bom() if "LED panel" in r["part"]]
    assert "%dx%d" % (lay.columns, lay.rows) in panel["part"]
    assert "%g x %g mm" % (lay.panel.w, lay.panel.h) in panel["part"]
