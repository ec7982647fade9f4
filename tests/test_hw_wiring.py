"""The wiring documents in hardware/ are what tools/wiring_svg.py makes from the profiles today
(so the picture a builder follows cannot drift from the profile), and they show every pin the
profile uses."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT

NAMES = sorted(p.stem for p in (ROOT / "hardware" / "profiles").glob("*.json"))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    out = tmp_path_factory.mktemp("wiring")
    subprocess.run([sys.executable, str(ROOT / "tools" / "wiring_svg.py"), "--out", str(out)],
                   check=True, capture_output=True)
    return out


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("ext", ["svg", "md"])
def test_committed_wiring_is_up_to_date(fresh, name, ext):
    committed = ROOT / "hardware" / ("wiring-%s.%s" % (name, ext))
    assert committed.exists(), "run tools/wiring_svg.py"
    assert committed.read_text() == (fresh / committed.name).read_text(), \
        "hardware/%s is stale: run tools/wiring_svg.py" % committed.name


@pytest.mark.parametrize("name", NAMES)
def test_every_used_gpio_is_in_the_table_and_the_picture(name):
    import json
    prof = json.loads((ROOT / "hardware" / "profiles" / (name + ".json")).read_text())
    used = {prof["panel"]["pin"]}
    inp = prof["input"]
    used |= set(inp.get("rows", [])) | set(inp.get("cols", []))
    used |= set(inp.get("buttons", {}).values())
    if prof.get("oled"):
        used |= {prof["oled"]["sda"], prof["oled"]["scl"]}
    if prof.get("piezo") is not None:
        used.add(prof["piezo"])
    table = (ROOT / "hardware" / ("wiring-%s.md" % name)).read_text()
    assert set(int(g) for g in re.findall(r"\| GP(\d+) \|", table)) == used
    svg = ET.parse(ROOT / "hardware" / ("wiring-%s.svg" % name))
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    # the Pico's header as on the board (pin 1 top left, 21 bottom right, 40 top right)
    for pin in ("1 GP0", "3 GND", "20 GP15", "21 GP16", "29 GP22", "34 GP28", "36 3V3",
                "39 VSYS", "40 VBUS"):
        assert pin in texts
    # the net label of every used GPIO is drawn at the Pico and at the part it goes to
    assert texts.count("LED DATA") >= 2
    assert texts.count("DIN") >= 2       # from the resistor to the panel


@pytest.mark.parametrize("name", NAMES)
def test_the_small_parts_are_drawn_not_only_named(name):
    """The 330 ohm resistor, the 1000 uF capacitor and (on an external supply) the 1N5817 are
    symbols in the picture, each with its value, as the bill of materials lists them."""
    import json
    prof = json.loads((ROOT / "hardware" / "profiles" / (name + ".json")).read_text())
    svg = ET.parse(ROOT / "hardware" / ("wiring-%s.svg" % name))
    groups = {g.get("id"): g for g in svg.iter("{http://www.w3.org/2000/svg}g")}
    want = {"resistor": "330 Ω", "capacitor": "1000 µF", "diode": "1N5817"}
    if prof["power"]["supply_ma"] <= 500:     # from USB: no supply, no diode
        del want["diode"]
        assert "diode" not in groups
    bom = (ROOT / "hardware" / "bom.csv").read_text()
    for part, value in want.items():
        assert part in groups, part
        shapes = [e for e in groups[part] if not e.tag.endswith("text")]
        assert len(shapes) >= 3, part        # leads and a body, not a word
        assert any((t.text or "").startswith(value) for t in groups[part].iter(
            "{http://www.w3.org/2000/svg}text")), part
        assert value.replace("Ω", "ohm").replace("µ", "u").split()[0] in bom
