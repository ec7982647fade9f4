"""A board checks its profile at power-up (a quarter of a second on an RP2040) only when the
profile or the code that checks it changed since the checks last passed: the stamp that `bgboard
flash` and the virtual boards' install write after running the firmware's own checks
(bgboard.build.profile_marker) is the one the board computes (bghal.profile.boot_load, on
MicroPython's unix port), and any change to the profile or to the checking code makes the board
check again; a profile with faults gets no stamp, and the board says what is wrong."""

import json
import shutil

from conftest import ROOT, run_micropython

from bgboard import build, paths

PROBE = """
import sys
from bghal import profile
prof, faults = profile.boot_load(sys.argv[1], sys.argv[2])
print("FAULTS", len(faults), "CHECKED", int("bghal.profile_check" in sys.modules))
"""


def boot(tmp_path, lib):
    """What the board does at power-up with tmp_path/profile.json and tmp_path/marker:
    (number of faults, whether it ran the checks)."""
    script = tmp_path / "boot.py"
    script.write_text(PROBE)
    r = run_micropython(script, str(tmp_path / "profile.json"), str(tmp_path / "marker"),
                        lib=lib, heap="128k")
    assert r.returncode == 0, r.stderr
    w = r.stdout.split()
    return int(w[w.index("FAULTS") + 1]), bool(int(w[w.index("CHECKED") + 1]))


def compiled(tmp_path, mpy_lib):
    """A copy of the compiled library (the test changes it) and its checking code's files."""
    lib = tmp_path / "lib"
    shutil.copytree(mpy_lib, lib)
    return lib, {name + ".mpy": (lib / (name + ".mpy")).read_bytes() for name in build.CHECK_CODE}


def test_the_stamp_spares_the_check_until_the_profile_or_its_code_changes(tmp_path, mpy_lib):
    lib, files = compiled(tmp_path, mpy_lib)
    prof = build.profile_file(json.loads(paths.profile_path("reference").read_text()), "rp2040")
    (tmp_path / "profile.json").write_bytes(prof)
    marker = build.profile_marker(prof, None, files)
    assert marker and len(marker) == 64
    (tmp_path / "marker").write_bytes(marker)
    assert boot(tmp_path, lib) == (0, False), "the stamp from the laptop: no check at boot"
    # one byte more in the profile: checked again, and the board's own stamp written
    (tmp_path / "profile.json").write_bytes(prof + b" ")
    assert boot(tmp_path, lib) == (0, True)
    assert (tmp_path / "marker").read_bytes() == build.profile_marker(prof + b" ", None, files)
    assert boot(tmp_path, lib) == (0, False)
    # the checking code changed (a check added, say): checked again
    src = tmp_path / "profile_check.py"
    src.write_text((ROOT / "firmware" / "lib" / "bghal" / "profile_check.py").read_text()
                   + "\nNEW_CHECK = 1\n")
    build.compile_module(src, "bghal/profile_check.py", lib / "bghal" / "profile_check.mpy")
    assert boot(tmp_path, lib) == (0, True)
    assert boot(tmp_path, lib) == (0, False)


def test_a_profile_with_faults_gets_no_stamp_and_is_checked_at_each_boot(tmp_path, mpy_lib):
    lib, files = compiled(tmp_path, mpy_lib)
    data = json.loads(paths.profile_path("reference").read_text())
    data["panel"]["pin"] = 25               # the Pico's own LED
    prof = build.profile_file(data, "rp2040")
    assert build.profile_marker(prof, None, files) is None
    (tmp_path / "profile.json").write_bytes(prof)
    assert boot(tmp_path, lib) == (1, True)
    assert not (tmp_path / "marker").exists()
    assert boot(tmp_path, lib) == (1, True)
