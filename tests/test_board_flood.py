"""One answer per request under a flood, on the real virtual board (`bgboard vboard`, pyserial
over its pty): 2,000 `WATCH on`, 1,500 `KEY`/`STATE` and a block of random bytes written as fast
as the link takes them, while another thread reads. Every line that is not blank gets exactly one
answer, in order (docs/protocol.md, "Flow control"), and the board plays on afterwards.

Deterministic: the flood is made from a fixed seed, the test counts answers (it waits for the
answer to a last request, which marks the end, and never for an amount of time), and what is
checked after it does not depend on the board's dice."""

import random
import threading

from test_vboard import Client, board, golden_image, play_person_turn  # noqa: F401 (fixtures)

JUNK = 1 << 20             # random bytes in the flood (the case: 1 MB)
END = b"KEY P99\n"         # the last request: its answer (ERR badkey P99) marks the end
_KEYS = (b"OK", b"MENU", b"UNDO", b"HINT", b"PIPS", b"P8", b"P13", b"P24")


def flood(seed=18):
    """The requests as (bytes, what the answer starts with or None for any) and the junk."""
    rng = random.Random(seed)
    reqs = [(b"WATCH on\n", "OK WATCH on")] * 2000
    for _ in range(1500):
        if rng.random() < 0.3:
            reqs.append((b"STATE\n", "STATE "))
        else:
            k = rng.choice(_KEYS)
            reqs.append((b"KEY %s\n" % k, ("OK KEY %s" % k.decode(), "NO KEY %s " % k.decode())))
    rng.shuffle(reqs)
    # random bytes, never 0x03 (Ctrl-C stops the application by design: a client never sends
    # it), cut into the stream at random places
    junk = bytes(b for b in rng.randbytes(JUNK) if b != 3)
    cuts = sorted(rng.randrange(len(reqs)) for _ in range(64))
    out, k = [], 0
    for i, r in enumerate(reqs):
        while k < len(cuts) and cuts[k] == i:
            part = junk[k * len(junk) // 64:(k + 1) * len(junk) // 64]
            out += [(seg, None) for seg in lines_of(part + b"\n")]
            k += 1
        out.append(r)
    return out


def lines_of(data):
    """The request lines in DATA that the board answers: every line that is not blank (a blank
    line is empty or holds only spaces and tabs, at most 120 of them), each with its ending."""
    out = []
    start = 0
    for i, b in enumerate(data):
        if b in (10, 13):
            seg = data[start:i]
            if seg.strip(b" \t") or len(seg) > 120:
                out.append(seg + b"\n")
            start = i + 1
    return out


def test_every_request_in_a_flood_gets_one_answer_in_order_and_the_board_plays_on(board):
    c = Client(board.link)
    c.hello()
    reqs = flood()
    stream = b"".join(r for r, _ in reqs) + END
    answers = []
    done = threading.Event()

    def reader():
        buf = b""
        while not done.is_set():
            buf += c.ser.read(max(1, c.ser.in_waiting))
            *lines, buf = buf.split(b"\n")
            for ln in lines:
                if not ln.startswith(b"!"):
                    answers.append(ln.rstrip(b"\r").decode("ascii", "replace"))
                    if ln.startswith(b"ERR badkey P99"):
                        done.set()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    c.ser.write(stream)             # waits while the board is behind (flow control)
    # wait for the last answer; a bound only for a board that lost requests (or died): no new
    # answer at all for a minute
    seen, quiet = -1, 0
    while not done.wait(1) and quiet < 60:
        quiet = quiet + 1 if len(answers) == seen else 0
        seen = len(answers)
    ended = done.is_set()
    done.set()
    t.join(5)
    assert ended, "the flood's last request was never answered (%d answers)" % len(answers)
    assert len(answers) == len(reqs) + 1, (len(answers), len(reqs) + 1)
    for (req, want), got in zip(reqs, answers):
        if want is None:
            assert got.startswith("ERR "), (req[:60], got)
        else:
            assert got.startswith(want), (req, got)
    assert answers[-1].startswith("ERR badkey P99")

    # the board plays on: to the menu, a new single game against the bot, a turn each
    assert c.hello().startswith("HELLO bgboard")
    assert c.cmd("FAST on") == "OK FAST on"
    for _ in range(4):
        if c.state()["view"] == "menu":
            break
        c.cmd("KEY MENU")
    assert c.state()["view"] == "menu"
    assert c.cmd("KEY P8") == "OK KEY P8"
    assert c.cmd("KEY OK") == "OK KEY OK"
    if c.state()["view"] == "menu":     # the flood's game in progress: "abandon this game?"
        assert c.cmd("KEY OK") == "OK KEY OK"
    assert c.cmd("WATCH on") == "OK WATCH on"
    c.events.clear()
    rng = random.Random(3)
    for _ in range(200):
        moved = {e.split()[2] for e in c.events if e.startswith("!EV MOVE ")}
        if moved == {"0", "1"}:
            break
        st = c.wait_player()
        assert st["phase"] != "game_over", st
        if st["phase"] == "move":
            play_person_turn(c, st, rng)
        else:
            assert c.cmd("KEY OK") == "OK KEY OK", st
    assert moved == {"0", "1"}, c.events[-5:]


def to_person_move(c):
    """Keys OK until the person (player 0) has a roll to play; its STATE."""
    for _ in range(50):
        st = c.wait_player()
        if st["phase"] == "move":
            return st
        assert c.cmd("KEY OK") == "OK KEY OK", st
    raise AssertionError("no move for the person")


def test_a_new_game_started_in_the_middle_of_a_move_has_the_new_rolls_plays(board):
    """(found by the flood) MENU, then OK, while a person's play is being keyed: the new game's
    first play is keyed against its own roll, not the legal plays of the old game's."""
    c = Client(board.link)
    c.hello()
    assert c.cmd("FAST on") == "OK FAST on"
    assert c.cmd("KEY OK") == "OK KEY OK"
    old = to_person_move(c)
    for _ in range(20):             # until the new game's turn differs from the old one's
        assert c.cmd("KEY MENU") == "OK KEY MENU"
        assert c.cmd("KEY OK") == "OK KEY OK"       # "abandon this game?"
        assert c.cmd("KEY OK") == "OK KEY OK"       # yes
        st = to_person_move(c)
        if (st["pos"], st["dice"]) != (old["pos"], old["dice"]):
            break
    assert (st["pos"], st["dice"]) != (old["pos"], old["dice"])
    play_person_turn(c, st, random.Random(1))
