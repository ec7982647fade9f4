"""A short `bgboard soak` (host/bgboard/soak.py) against a real virtual board: a few power cuts
(at random instants and at named moments), a few hundred garbage lines and random keys. What a
user would check: the board answered HELLO after every cut, no event it announced was lost,
every record on it replays and verifies, the heap did not grow over garbage lines, and no
request was answered with an internal error. The full soak is `bgboard soak` (README)."""

from bgboard.soak import Soak, board_answers

from test_vboard import golden_image  # noqa: F401 (a fixture: the firmware installed once)


def test_the_board_answers_each_garbage_line_once_as_its_framing_says():
    assert board_answers(b"STATE\n") == 1
    assert board_answers(b"\n\r\n  \t \n") == 0            # blank lines: no answer
    assert board_answers(b"x" * 121 + b"\n") == 1           # ERR toolong
    assert board_answers(b"a\x00b\r\n") == 1                # ERR binary, then an empty line
    assert board_answers(b"KEY P1") == 0                     # no line end yet


def test_a_short_soak_finds_no_fault(tmp_path, golden_image):
    s = Soak(cuts=10, lines=200, keys=200, seed=20261130, fill=False, work=tmp_path / "soak",
             say=print, image=golden_image)
    try:
        assert s.run() == 0, s.faults
    finally:
        s.stop()
    assert s.faults == []
    kinds = sum(s.cut_kinds.values())
    assert kinds >= 10 and len(s.boot_times) == kinds        # HELLO came after every cut
    assert s.lost == 0 and s.announced_total > 0
    assert s.lines_sent == 200 and s.keys_sent == 200
    assert s.profile == "minimal"                           # both input schemes
    assert s.errors == []                                    # no !ERROR from the application
    pulled = sorted(p.name for p in (tmp_path / "soak" / "pulled").glob("*.bgr"))
    assert pulled and len(pulled) == len(s.pulled)
    for before, after in s.heaps:                            # garbage lines did not grow the heap
        assert before - after <= 1024
    assert 0 < s.feed_gap
