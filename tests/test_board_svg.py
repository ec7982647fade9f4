"""`bgboard render`: a position as an SVG picture (what the leaderboard's game viewer shows), from
a Position ID or a record's move; bad input is one line."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from bgcore import Position
from bgboard import render

SVG = "{http://www.w3.org/2000/svg}"


def _checkers(svg_text):
    """(light, dark) checker counts drawn on points and the bar, plus the off-tray numbers."""
    root = ET.fromstring(svg_text)
    fills = [c.get("fill") for c in root.iter(SVG + "circle") if c.get("r") != "2.8"]
    return fills.count(render._LIGHT), fills.count(render._DARK)


def test_the_opening_position_shows_fifteen_checkers_a_side():
    text = render.svg(Position.initial())
    assert _checkers(text) == (15, 15)
    assert 'data-position="4HPwATDgc/ABMA"' in text


def test_a_record_move_with_its_dice_and_a_stack_label(tmp_path):
    from bgcore.match import NOCUBE, Rules
    from bgboard.games import play_record
    import random
    text = play_record(Rules(NOCUBE), random.Random(5), ("ann", "bob"))
    frames, names = render.frames(text)
    assert names == ["ann", "bob"]
    # every frame's checkers: the drawn ones plus those borne off make 15 a side
    for f in frames:
        mine, theirs = render.counts(f.pos, f.on_roll)
        assert sum(mine) == 15 and sum(theirs) == 15
    last = frames[-1]
    assert last.dice is None and re.match(r"(ann|bob) wins [123]$", last.move)
    path = tmp_path / "g.bgr"
    path.write_text(text)
    out = tmp_path / "m3.svg"
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "render", str(path), "--move", "3",
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    svg = out.read_text()
    assert 'data-position="%s"' % frames[2].pos.id() in svg
    assert svg.count('class="die"') == 2
    assert "3. %s %d%d: %s" % (names[frames[2].on_roll], frames[2].dice[0], frames[2].dice[1],
                                frames[2].move) in svg


def test_bad_input_is_one_line():
    for args, msg in [(["XXXX"], "'XXXX' is neither a file nor a Position ID"),
                      (["4HPwATDgc/ABMA", "--move", "2"], "--move needs a record file")]:
        r = subprocess.run([sys.executable, "-m", "bgboard.cli", "render"] + args,
                           capture_output=True, text=True)
        assert r.returncode == 1 and msg in r.stderr and r.stderr.count("\n") == 1
