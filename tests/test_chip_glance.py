"""The glance a board with a game in progress lights at power-up before its record is checked
(bgcore.resume.glance; on the emulated RP2040 a 30-game session's check takes over 2 s): read
from the record's last game without any check, it gives the position the full replay gives, the
turn's steps made, after every line of seeded money and match records with keyed steps and steps
taken back; a tail it cannot read gives None, never an exception. On MicroPython too."""

import functools
import io
import random
import sys

from conftest import FIRMWARE_LIB, ROOT, run_micropython

sys.path[:0] = [str(FIRMWARE_LIB), str(ROOT / "host")]
from bgboard.games import play_record  # noqa: E402
from bgcore.match import MATCH, MONEY, Rules  # noqa: E402
from bgcore.record import Replay, Writer, parse_header  # noqa: E402
from bgcore.resume import glance  # noqa: E402


def with_steps(text):
    """The record with each play of player 0 keyed first as steps (one taken back and made
    again), as the board writes a person's move: STEP lines, an UNDO, then the MOVE."""
    out = []
    w = Writer()
    for line in text.splitlines():
        payload = line.rsplit("|", 1)[0]
        words = payload.split()
        if words[0] == "MOVE" and words[1] == "0" and len(words) > 2:
            hops = [h.split("/") for h in words[2:]]
            out.append(w.line("STEP 0 %s %s" % tuple(hops[0])))
            out.append(w.line("UNDO 0"))
            for s, t in hops:
                out.append(w.line("STEP 0 %s %s" % (s, t)))
        out.append(w.line(payload))
    return "".join(out)


@functools.lru_cache(maxsize=1)
def records():
    money = play_record(Rules(MONEY, jacoby=True), random.Random(3), ("Ann", "bot:1"), level=1,
                        games=3)
    match = play_record(Rules(MATCH, 3), random.Random(5), ("Ann", "bot:1"), level=1)
    return [with_steps(money), with_steps(match)]


def seen(rep):
    """(Match, position bytes with the turn's steps made) of a Replay."""
    m = rep.match
    raw = bytearray(m.pos.raw)
    for s, t in rep.steps:
        raw[s] -= 1
        raw[t] += 1
        if t and raw[51 - t] == 1:
            raw[51 - t] = 0
            raw[51] += 1
    return m, bytes(raw)


def test_glance_gives_the_replayed_position_after_every_line():
    compared = 0
    for text in records():
        lines = text.splitlines(keepends=True)
        assert any(ln.startswith("STEP ") for ln in lines)
        rules, info = parse_header(lines[0].rsplit("|", 1)[0])
        rep = Replay(rules, (info["p0"], info["p1"]), False)
        data = lines[0].encode()
        for k, line in enumerate(lines[1:], 2):
            rep.event(line.rsplit("|", 1)[0].split(), k)
            data += line.encode()
            got = glance(io.BytesIO(data), len(data))
            m, raw = seen(rep)
            if m.phase in ("move", "turn", "doubled"):
                assert got is not None, line
                assert (bytes(got[0]), got[1]) == (raw, m.turn), (k, line)
                compared += 1
    assert compared > 400


def test_a_tail_it_cannot_read_gives_none():
    text = records()[0]
    w = Writer(text.splitlines()[-1].rsplit("|", 1)[1])
    cases = [b"",                                           # nothing
             text.split("GAME 1")[0].encode(),              # a header, no game
             (text + w.line("MOVE 0 30/2")).encode(),        # a point that is none
             (text + w.line("MOVE 1 13/x")).encode(),        # no number
             (text + "STEP 0 8").encode()]                  # torn: no check, too few words
    got = [glance(io.BytesIO(data), len(data)) for data in cases]
    assert got[:4] == [None] * 4
    assert got[4] is None or len(got[4][0]) == 52


def test_glance_on_micropython(tmp_path, mpy_lib):
    text = records()[1]
    path = tmp_path / "r.bgr"
    path.write_text(text)
    script = tmp_path / "g.py"
    script.write_text("import sys\nfrom bgcore.resume import glance\n"
                      "f = open(sys.argv[1], 'rb')\nraw, view = glance(f, f.seek(0, 2))\n"
                      "print(bytes(raw).hex(), view)\n")
    r = run_micropython(script, str(path), heap="64k", lib=mpy_lib)
    assert r.returncode == 0, r.stderr
    data = text.encode()
    want = glance(io.BytesIO(data), len(data))
    assert r.stdout.split() == [bytes(want[0]).hex(), str(want[1])]
