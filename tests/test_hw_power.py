"""The current limit on each profile's own frames (tools/power_budget.py): nothing sent is over
the budget, nothing within it is dimmed, and hardware/power.md shows today's figures."""

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import power_budget  # noqa: E402
from bghal import profile as bprofile  # noqa: E402

NAMES = sorted(p.stem for p in (ROOT / "hardware" / "profiles").glob("*.json"))


@pytest.mark.parametrize("name", NAMES)
def test_frames_stay_within_the_budget(name):
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / (name + ".json")))
    budget = prof["power"]["budget_ma"]
    rows = power_budget.figures(prof)
    assert len(rows) == 6
    for kind, brightness, asked, sent in rows:
        assert sent <= budget, (kind, brightness)
        if asked <= budget:
            assert sent == asked, (kind, brightness)       # not dimmed when it fits
        else:
            assert sent >= budget * 0.95, (kind, brightness)  # dimmed just enough


def test_reference_shows_a_game_undimmed_at_its_cap():
    prof = bprofile.load(str(ROOT / "hardware" / "profiles" / "reference.json"))
    (_, b, asked, sent), = [r for r in power_budget.figures(prof)
                            if r[0] == "start" and r[1] == prof["brightness"]["max"]]
    assert asked == sent < prof["power"]["budget_ma"]


def test_power_document_has_todays_figures():
    text = (ROOT / "hardware" / "power.md").read_text()
    for name in NAMES:
        prof = bprofile.load(str(ROOT / "hardware" / "profiles" / (name + ".json")))
        for kind, brightness, asked, sent in power_budget.figures(prof):
            shown = "%d mA" % asked if asked == sent else "%d → %d mA" % (asked, sent)
            assert shown in text, "%s %s at %d: power.md lacks %r" % (name, kind, brightness,
                                                                    shown)
