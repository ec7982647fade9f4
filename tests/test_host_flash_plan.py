"""The flash plan (bgboard.flashing.plan) without a board: from what a survey of the board says
and a build, which slot is staged, which files are kept, copied on the board or sent, what is
removed, which profile goes with the firmware, and whether it fits - the decisions the
executor then only carries out (tests/test_host_flash.py does that against a virtual board)."""

import hashlib
import json

import pytest

from bgboard.build import Build
from bgboard.flashing import FlashError, plan

REFERENCE = {"name": "reference", "hal": "rp2", "panel": {"width": 16}}
MINIMAL = {"name": "minimal", "hal": "rp2", "panel": {"width": 16}}
FILES = {"main.py": b"import app\n", "lib/bgcore/__init__.mpy": b"M\x06\x00\x1f" + b"c" * 900,
         "lib/bgcore/bot.mpy": b"M\x06\x00\x1f" + b"b" * 9000,
         "lib/bgapp/app.mpy": b"M\x06\x00\x1f" + b"a" * 5000}
LOADER = b"# loader\n"


def sha(data):
    return hashlib.sha256(data).hexdigest()


def fw(files=FILES, version="1.2.3"):
    return Build(None, dict(files), LOADER, version, 6)


def slot(files, profile=None, stamped=True):
    out = {k: [len(v), sha(v)] for k, v in files.items()}
    if stamped:
        out["version.json"] = [200, "0" * 64]
    if profile is not None:
        out["profile.json"] = [len(profile), sha(profile)]
    return out


def survey(a=None, b=None, active="", loader=True, profile=None, free=1 << 20,
           platform="rp2", machine="Raspberry Pi Pico with RP2040", mpy=6):
    return {"platform": platform, "machine": machine, "version": [1, 24, 0], "mpy": mpy,
            "block": 4096, "free": free, "slots": {"a": a or {}, "b": b or {}},
            "active": active, "main": sha(LOADER) if loader else None, "loader": loader,
            "profile": profile, "flat_lib": False, "data": 0}


def test_a_blank_board_gets_everything_in_slot_a_with_the_default_profile():
    p = plan(survey(loader=False), fw(), None, REFERENCE)
    assert p.slot == "a" and not p.nothing_to_do and p.active == ""
    assert sorted(p.send) == sorted(FILES) and p.local == [] and p.keep == []
    assert p.loader == LOADER and p.target == "rp2040" and p.fw == "1.2.3"
    assert json.loads(p.profile) == REFERENCE and not p.profile_installed
    # room: whole 4 KB blocks less littlefs's pointers (9,004 bytes: 3), 2 per directory, one
    # for the entries of up to 32 files, a margin, the profile
    assert p.need == (1 + 1 + 3 + 2 + 1 + 2 * 3 + 1 + 4) * 4096


def test_the_room_asked_for_covers_what_littlefs_takes(tmp_path):
    # this firmware (the virtual board's build) written into a slot of a Pico-sized littlefs
    # (littlefs-python, the virtual board's image) takes no more blocks than the plan asks for,
    # nor far fewer (the plan asked for 203 blocks where it took 111 until 2026-12-05)
    from bgboard import build, vboard
    got = build.build(board_mpy=vboard.port_mpy())
    p = plan(survey(loader=False, free=8 << 20), got, None, REFERENCE)
    vboard.new_image(tmp_path / "img")
    fs = vboard.open_image(tmp_path / "img")
    before = fs.used_block_count
    for k, v in sorted(got.files.items()) + [("profile.json", p.profile)]:
        path = "/fw/a/" + k
        fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(v)
    taken = fs.used_block_count - before
    print("a slot of this firmware: %d blocks taken, %d asked for" % (taken, p.need // 4096))
    assert taken * 4096 <= p.need <= taken * 4096 * 5 // 4, (taken, p.need // 4096)


def test_the_same_firmware_and_profile_is_nothing_to_do():
    prof = json.dumps(REFERENCE).encode().decode()
    s = survey(a=slot(FILES, prof.encode()), active="a", profile=prof)
    p = plan(s, fw(), None, REFERENCE)
    assert p.nothing_to_do
    # the same firmware with another profile: staged anew in slot b, every file copied on
    # the board (nothing travels), the new profile staged with it
    p = plan(s, fw(), MINIMAL, REFERENCE)
    assert not p.nothing_to_do and p.slot == "b" and p.send == [] and p.keep == []
    assert sorted(p.local) == sorted(FILES) and json.loads(p.profile) == MINIMAL


def test_one_changed_module_is_sent_the_rest_copied_or_kept():
    new = dict(FILES, **{"lib/bgapp/app.mpy": b"M\x06\x00\x1f" + b"A" * 5000})
    old_b = dict(FILES, **{"lib/bgcore/bot.mpy": b"stale", "lib/gone.mpy": b"old"})
    s = survey(a=slot(FILES), b=slot(old_b, stamped=False), active="a", profile="{}")
    p = plan(s, fw(new), None, REFERENCE)
    assert p.slot == "b" and p.active == "a"
    assert p.send == ["lib/bgapp/app.mpy"]                         # nowhere on the board
    assert p.local == ["lib/bgcore/bot.mpy"]                       # the running slot's copy
    assert sorted(p.keep) == ["lib/bgcore/__init__.mpy", "main.py"]   # already staged
    assert p.extra == ["lib/gone.mpy"]
    assert p.profile == b"{}" and p.profile_installed and p.loader is None   # the board's kept


def test_the_slot_that_boots_is_never_the_one_staged():
    # /fw/active names b, but b has no stamp (damaged): the loader runs a, so b is staged
    s = survey(a=slot(FILES), b=slot(FILES, stamped=False), active="b", profile="{}")
    p = plan(s, fw(version="2.0"), None, REFERENCE)
    assert p.active == "a" and p.slot == "b"
    # without the loader as /main.py no slot runs: slot a is staged
    p = plan(survey(a=slot(FILES), active="a", loader=False), fw(), None, REFERENCE)
    assert p.active == "" and p.slot == "a" and not p.nothing_to_do


def test_the_unix_port_gets_the_virtual_hal_and_a_given_target_is_checked():
    s = survey(platform="linux", machine="linux [GCC 12.2.0] version")
    p = plan(s, fw(), MINIMAL, REFERENCE)
    assert p.target == "unix" and json.loads(p.profile) == dict(MINIMAL, hal="virtual")
    with pytest.raises(FlashError, match="the board on /dev/x is unix .*not rp2040: give "
                                         "--target unix or none"):
        plan(s, fw(), None, REFERENCE, target="rp2040", port="/dev/x")
    assert plan(survey(machine="Pico 2 with RP2350"), fw(), None, REFERENCE).target == "rp2350"


def test_a_micropython_that_cannot_load_the_build_is_refused():
    with pytest.raises(FlashError, match="too old: it loads .mpy 5"):
        plan(survey(mpy=5), fw(), None, REFERENCE)
    with pytest.raises(FlashError, match="newer than this mpy-cross"):
        plan(survey(mpy=7), fw(), None, REFERENCE)


def test_room_counts_what_the_staged_slot_frees():
    blank = plan(survey(loader=False), fw(), None, REFERENCE)
    assert plan(survey(loader=False, free=blank.need), fw(), None, REFERENCE).slot == "a"
    short = r"needs about %d KB more, %d KB are free .*Nothing was changed" % (
        blank.need // 1024, blank.need // 1024 - 4)
    with pytest.raises(FlashError, match="not enough room on the board: the new firmware " + short):
        plan(survey(loader=False, free=blank.need - 4096), fw(), None, REFERENCE)
    # a stale copy in the slot to be staged is freed first: then it fits
    stale = slot({k: v + b"x" for k, v in FILES.items()}, stamped=False)
    p = plan(survey(a=stale, loader=False, free=blank.need - 4096), fw(), None, REFERENCE)
    assert p.freed > 4096 and sorted(p.send) == sorted(FILES)


def test_the_profile_goes_with_the_firmware_it_was_staged_with():
    ref = json.dumps(REFERENCE, indent=1) + "\n"
    mini = profile_bytes(MINIMAL)
    # a flash to the minimal profile cut short after its switch: slot a runs with the minimal
    # profile staged beside it, /profile.json is still the reference one. The same command
    # again has nothing to stage, only the profile to install
    s = survey(a=slot(FILES, mini), active="a", profile=ref)
    p = plan(s, fw(), MINIMAL, REFERENCE)
    assert p.nothing_to_do and p.profile == mini and not p.profile_installed
    # without --profile the board keeps the profile it runs with (/profile.json): staged anew
    # with the firmware, every file copied on the board
    p = plan(s, fw(), None, REFERENCE)
    assert not p.nothing_to_do and p.slot == "b" and p.profile == ref.encode()
    assert p.send == [] and sorted(p.local) == sorted(FILES) and not p.profile_staged
    # a new firmware stages the profile with it, unless the staged slot has it already
    s["slots"]["b"] = slot({}, ref.encode(), stamped=False)
    p = plan(s, fw(files=dict(FILES, **{"main.py": b"v2\n"})), None, REFERENCE)
    assert p.send == ["main.py"] and p.profile_staged and p.profile_installed


def profile_bytes(prof):
    return (json.dumps(prof, indent=1) + "\n").encode()
