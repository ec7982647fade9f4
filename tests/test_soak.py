"""A short `bgboard soak` (host/bgboard/soak.py) against a real virtual board: a few power cuts
(at random instants and at named moments), a few hundred garbage lines and random keys. What a
user would check: the board answered HELLO after every cut, no event it announced was lost,
every record on it replays and verifies, the heap did not grow over garbage lines, and no
request was answered with an internal error. The full soak is `bgboard soak` (README)."""

import hashlib

from bgboard.soak import Soak, board_answers
from bgcore.record import replay

from test_vboard import Client, board, golden_image, key_for  # noqa: F401 (fixtures)


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
    # HELLO came after every cut (timed where the soak cut; a cut in the middle of a pull is
    # followed by the next pull, then HELLO)
    steps = sum(n for k, n in s.cut_kinds.items() if ":" in k)
    assert kinds >= 10 and steps >= 2 and len(s.boot_times) == kinds - steps
    assert s.lost == 0 and s.announced_total > 0
    assert s.lines_sent == 200 and s.keys_sent == 200
    assert s.profile == "minimal"                           # both input schemes
    assert s.errors == []                                    # no !ERROR from the application
    # every record the soak pulled is on the laptop, byte for byte: in the pull's folder, or in
    # its archive when a `logs pull --delete` took it off the board since
    on_laptop = {hashlib.sha256(p.read_bytes()).hexdigest()
                 for p in (tmp_path / "soak" / "pulled").rglob("*.bgr")}
    assert on_laptop and all(hashlib.sha256(text.encode()).hexdigest() in on_laptop
                             for text in s.pulled.values()), sorted(s.pulled)
    for before, after in s.heaps:                            # garbage lines did not grow the heap
        assert before - after <= 1024
    assert 0 < s.feed_gap


# ---- faults the soak found, each with its regression test ----------------------------------------

def _legal_keys(st):
    """The keys of one legal play for the side on roll (its points in player 0's numbering)."""
    from bgcore import Position
    pos = Position.from_id(st["pos"])
    play = pos.plays(int(st["dice"][0]), int(st["dice"][1]))[0]
    turn = int(st["turn"])
    return [key_for(q if turn == 0 or q in (0, 25) else 25 - q) for m in play.moves for q in m]


def _abandon(c):
    """MENU, OK: a new game; the board first asks "abandon this game?" when the game in
    progress has a move in its record (then OK again)."""
    assert c.cmd("KEY MENU") == "OK KEY MENU"
    assert c.cmd("KEY OK") == "OK KEY OK"
    if c.state()["view"] == "menu":
        assert c.cmd("KEY OK") == "OK KEY OK"


def test_a_new_game_started_in_the_middle_of_a_move_takes_the_new_dice(board):
    """Found by the soak: MENU, OK (a new game) while a person was moving kept the old roll's
    legal plays; the new game's steps were checked against them and OK answered ERR internal
    (the record refused the play), then the board repeated '... a play is required'."""
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    assert c.cmd("KEY P7") == "OK KEY P7"          # two players: every move is keyed
    assert c.cmd("KEY OK") == "OK KEY OK"
    first = None
    for _ in range(30):                             # until a new game's opening roll differs
        st = c.wait_player()
        while st["phase"] == "opening":
            assert c.cmd("KEY OK") == "OK KEY OK"
            st = c.wait_player()
        assert st["phase"] == "move", st
        if first is None:
            first = st["dice"]
            _abandon(c)                             # a new game, the old one left mid-move
            continue
        for k in _legal_keys(st):
            assert c.cmd("KEY " + k) == "OK KEY " + k, (k, st)
        assert c.state().get("complete") == "1"
        assert c.cmd("KEY OK") == "OK KEY OK"
        if st["dice"] != first and st["dice"] != first[::-1]:
            break
        _abandon(c)
    else:
        raise AssertionError("thirty opening rolls were all %s" % first)
    assert not any(e.startswith("!ERROR") for e in c.events)


def test_tickets_lines_do_not_grow_the_heap(board):
    """Found by the soak: each TICKETS line left the tickets' code (and the ticket id checks)
    on the heap, 7 KB after a few garbage lines."""
    c = Client(board.link)
    c.hello()
    c.state()
    before = c.heap
    for line in ("TICKETS FOO", "TICKETS", "TICKETS ADD 1 x y", "TICKETS ASK x") * 5:
        assert c.cmd(line).split()[0] in ("ERR", "TICKETS"), line
    c.state()
    assert before - c.heap < 1024, (before, c.heap)


def test_a_new_game_while_the_tutor_warns_closes_the_old_session(board):
    """Found by the soak: MENU, OK (a new game) while the tutor's warning was open wrote the old
    money session's MATCHEND over the unanswered warning: the record refused it and OK answered
    ERR internal. Now the warned action is taken back (TUTOR undo) and the session closes."""
    c = Client(board.link)
    c.hello()
    c.cmd("FAST on")
    c.cmd("WATCH on")
    assert c.cmd("KEY P9") == "OK KEY P9"          # money (a cube) against the bot
    for _ in range(3):                              # the tutor at its finest, 0.04
        assert c.cmd("KEY P23") == "OK KEY P23"
    assert c.state()["tutor"] == "40"
    assert c.cmd("KEY OK") == "OK KEY OK"
    for _ in range(40):                             # to the person's turn before the roll
        st = c.wait_player()
        if st["phase"] == "turn" and st["turn"] == "0" and st["cube"] == "1":
            break
        if st["phase"] == "move":
            for k in _legal_keys(st):
                c.cmd("KEY " + k)
            st = c.state()
        c.cmd("KEY OK")                             # roll, confirm, keep a warned play
    else:
        raise AssertionError("the person's turn did not come")
    assert c.cmd("KEY DOUBLE") == "OK KEY DOUBLE"  # a double this early: the tutor warns
    st = c.state()
    assert st.get("warning", "").startswith("double:"), st
    record = st["record"]
    _abandon(c)                                     # the new game: not ERR internal
    assert c.state()["record"] != record
    data, _, _ = c.get(record)
    rep, info, torn = replay(data.decode(), history=False)
    lines = data.decode().splitlines()
    assert lines[-2].startswith("TUTOR 0 undo") and lines[-1].startswith("MATCHEND")
    assert rep.ended and not any(e.startswith("!ERROR") for e in c.events)
