"""Power cuts at each named step of a pull and of a flash (`bgboard soak`'s cuts, bgboard.soak_steps),
on a real virtual board with bgboard's own pull and flash code: the cut comes when the host
reaches the step (a line read, a line sent, a file written), not after a delay. What a user would
check: after the next pull every record the board held is in the archive once and whole (and with
--delete gone from the board), no partial file is left; after a cut flash the board boots the old
firmware before the switch and the new one after it, with its profile and its records."""

import time

from bgboard import archive
from bgboard.soak import Soak
from bgboard.soak_steps import FLASH_STEPS

from test_vboard import golden_image  # noqa: F401 (a fixture)

DEMO_DONE_SECONDS = 600       # a demo of two fast games on a loaded machine, well past its time
GUIDED_KEYS = 3000            # keys that carry a game to its end (bgboard.soak.Soak.play_one's)


def _demo(s):
    """A demo of two games: a closed record on the board."""
    assert s.ask("DEMO 2 fast").startswith("OK DEMO")
    t0 = time.monotonic()
    while s.state().get("demo") != "0":
        assert time.monotonic() - t0 < DEMO_DONE_SECONDS, "the demo did not end"
        time.sleep(0.2)


def test_cuts_at_each_named_step_of_a_pull_and_of_a_flash(tmp_path, golden_image):  # noqa: F811
    s = Soak(cuts=0, lines=0, keys=0, seed=1130, fill=False, work=tmp_path / "soak", say=print,
             image=golden_image)
    try:
        s.begin()
        for go_on in (False, True):     # the pull stops at the cut / reconnects and resumes
            _demo(s)
            s.cut_pull_step("GET", go_on=go_on)
        s.cut_pull_step("GET", go_on=False)     # all archived: another laptop pulls them
        _demo(s)                                # a record the board has not marked pulled
        s.cut_pull_step("PULLED")
        s.cut_pull_step("LOGS")
        before = {n: d for n, (size, d, o) in s.c.logs().items() if not o}
        marked = set(s.c.marked)
        # a 1-point match played to its end (OK abandons a game the cuts left in progress): its
        # record is still open on the match-over screen when the pull lists the records; the
        # boot after the cut closes it and the next pull takes it and deletes it (the full soak
        # once called that record lost)
        s.press("MENU")
        for key in ("P10", "P11", "P11", "P11", "P11"):     # a match, its length down to 1
            assert s.press(key) is None
        assert s.press("OK") is None
        for _ in range(GUIDED_KEYS):
            st = s.state()
            if st.get("phase") == "match_over":
                break
            if st.get("wait") == "board":   # the bot may end the match: its OK would start
                time.sleep(0.01)            # the next one (the guide answers the match's end)
                continue
            s.guide()
        assert s.state().get("phase") == "match_over", "the 1-point match did not end"
        finished = s.state().get("record")
        listing = s.c.logs()
        assert listing[finished][2], "the finished match's record is not open at the listing"
        s.cut_pull_step("DEL")
        after = s.c.logs()
        for step in FLASH_STEPS:
            s.cut_flash_step(step)
        s.check(" (at the end)")
    finally:
        s.stop()
    print("\n".join("%s: %s" % kw for kw in s.step_log))
    assert s.faults == []
    assert s.cut_kinds == {"pull:GET": 3, "pull:PULLED": 1, "pull:LOGS": 1, "pull:DEL": 1, "flash:send": 1,
                           "flash:copy": 1, "flash:stamp": 1, "flash:switch": 1,
                           "flash:switched": 1}
    # before the switch the old firmware booted, after it the new one
    assert s.flash_boots == {"old": 4, "new": 1}
    # the demo records: marked pulled before the DEL (the first two in the first laptop's
    # archive, all three in the second's), once each, whole, then deleted from the board; the
    # finished match's record (and a game the OK abandoned) too, whole in the second laptop's
    assert len(before) == 3 and set(before) == marked
    assert finished not in before and not set(listing) & set(after)
    later = [listing[n][1] for n in listing if n not in before]
    assert s.laptops == 2
    for laptop, n, extra in (("laptop1", 2, []), ("laptop2", 3, later)):
        files = [p for p in (s.archives / laptop).rglob("*") if p.is_file()]
        assert sorted(archive.sha256_file(p) for p in files) \
            == sorted([before[k] for k in sorted(before)[:n]] + extra)
        assert not any(p.name.endswith(".part") for p in files)
    # each of them replayed from the archive by the soak's check
    assert set(before.values()) | set(later) <= s.archived_ok
