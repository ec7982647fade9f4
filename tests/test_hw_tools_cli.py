"""The hardware tools' command line (tools/wiring_svg.py, tools/mechanical_svg.py,
tools/power_budget.py, sharing tools/hw_cli.py): --help describes the tool and every argument,
a profile is a name or a path, and a missing profile, a broken one or an --out that cannot be a
directory ends the tool with a message naming it, never a traceback."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

TOOLS = {"wiring_svg": ["wiring-reference.svg", "wiring-reference.md"],
         "mechanical_svg": ["mechanical-reference.svg"],
         "power_budget": None}
BROKEN = ROOT / "tests" / "hw_profiles_broken"


def run(tool, *args):
    env = dict(os.environ, COLUMNS="100")      # argparse wraps help to the terminal's width
    return subprocess.run([sys.executable, str(ROOT / "tools" / (tool + ".py"))] + list(args),
                          capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_help_describes_the_tool_and_its_arguments(tool):
    res = run(tool, "--help")
    assert res.returncode == 0
    lines = res.stdout.splitlines()
    assert lines[0].startswith("usage: tools/%s.py [-h]" % tool)
    assert lines[2].endswith(".") and len(lines[2]) > 20          # one description line
    assert "NAME" in res.stdout and "minimal, reference" in res.stdout
    if TOOLS[tool]:
        assert "--out DIR" in res.stdout


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_a_missing_profile_is_one_line(tool):
    res = run(tool, "nosuch")
    assert res.returncode == 1
    assert res.stderr == ("tools/%s.py: no profile 'nosuch': not a file, and not one of "
                          "hardware/profiles (minimal, reference)\n" % tool)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_a_broken_profile_names_its_faults(tool):
    res = run(tool, str(BROKEN / "gpio-30.json"))
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert res.stderr.startswith("tools/%s.py: profile " % tool)
    assert "panel.pin: GPIO 30 does not exist" in res.stderr
    res = run(tool, str(BROKEN / "not-json.json"))
    assert res.returncode == 1 and len(res.stderr.splitlines()) == 1
    assert "not valid JSON" in res.stderr


@pytest.mark.parametrize("tool", sorted(t for t in TOOLS if TOOLS[t]))
def test_out_is_made_when_missing_and_refused_when_a_file(tool, tmp_path):
    out = tmp_path / "new" / "dir"
    res = run(tool, "--out", str(out), "reference")
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(TOOLS[tool])
    assert res.stdout.split() == [str(out / name) for name in TOOLS[tool]]
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = run(tool, "--out", str(blocker / "x"), "reference")
    assert res.returncode == 1
    assert res.stderr == "tools/%s.py: --out %s: Not a directory\n" % (tool, blocker / "x")


def test_a_profile_by_path_is_drawn_under_its_own_name(tmp_path):
    profile = tmp_path / "myboard.json"
    profile.write_text((ROOT / "hardware" / "profiles" / "reference.json").read_text())
    res = run("mechanical_svg", "--out", str(tmp_path), str(profile))
    assert res.returncode == 0, res.stderr
    svg = (tmp_path / "mechanical-myboard.svg").read_text()
    assert "from %s (mechanical)" % profile in svg
    assert run("power_budget", str(profile)).stdout.startswith("myboard: supply 3000 mA")
