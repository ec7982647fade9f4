"""The board resumes a record applying the rules to its last game only (bgcore.resume): the chain
is still checked over the whole file, and the state it gives is the full replay's. Found by
reading the code for the soak (issue #15): the start-up replay, the return from a demo and the
pips view replayed every move of a long session with the rules, a cost that grew with the
session (a 30-game money session: 1.4 s of unix-port CPU, about 280 s on an RP2040)."""

import io
import random

import pytest

from bgboard.games import play_record
from bgcore import position
from bgcore.match import Rules, MONEY, MATCH, NOCUBE
from bgcore.record import Writer, replay, RecordError
from bgcore.resume import replay_last_game


def _records():
    out = {}
    # a money session of 5 games whose last game holds under a third of its moves (the first
    # seed from 5 that gives one: the bots' play decides how long each game lasts)
    for seed in range(5, 105):
        text = play_record(Rules(MONEY, jacoby=True), random.Random(seed), ("Ann", "Bob"),
                           level=1, games=5)
        last = text.rfind("\nGAME ")
        if 3 * text[last:].count("\nMOVE ") < text.count("\nMOVE "):
            break
    out["money"] = text
    # a 5-point match of three games or more (the first seed from 7 whose bots' match lasts that
    # long: the bots' cube decides how many games a match takes)
    for seed in range(7, 107):
        text = play_record(Rules(MATCH, 5), random.Random(seed), ("Ann", "Bob"), level=1)
        if sum(1 for ln in text.splitlines() if ln.startswith("GAME ")) >= 3:
            break
    out["match"] = text
    out["nocube"] = play_record(Rules(NOCUBE), random.Random(2), ("Ann", "Bob"), level=1,
                                games=3)
    return out


RECORDS = _records()


def _payloads(text):
    return [ln[:ln.rfind("|")] for ln in text.splitlines()]


def _chain(payloads):
    w = Writer()
    return "".join(w.line(p) for p in payloads)


def _state(rep):
    m = rep.match
    return dict(score=list(m.score), game=m.game, crawford=m.crawford,
                crawford_done=m.crawford_done, phase=m.phase, cube=m.cube, owner=m.owner,
                turn=m.turn, pos=m.pos.id(), dice=m.dice, result=m.result, match=m.match_id(),
                offered_by=m.offered_by, finished=rep.finished, ended=rep.ended,
                steps=list(rep.steps), slot=rep.slot, rolls=rep.rolls, real=rep.real_dice,
                tutored=rep.tutored, warning=rep.warning, ranked=dict(rep.ranked))


def _both(text):
    full, info, torn = replay(text, history=False)
    out, fed = [], []
    fast, info2, torn2 = replay_last_game(io.BytesIO(text.encode()), lambda: fed.append(1),
                                          "BGOTC", out)
    assert info2 == info and torn2 == torn
    # what the journal goes on from: the last whole line's check, whether a line beyond the
    # opening was written, where a torn line starts; the watchdog fed every 32 lines of the
    # chain and every 8 of the rules
    whole = text.splitlines(keepends=True)
    if torn:
        whole = whole[:-1]
    assert out == [whole[-1].rstrip("\n")[-8:] if whole else "",
                   int(any(ln[0] not in "BGOTC" for ln in whole)),
                   len("".join(whole).encode()) if torn else None]
    games = [i for i, ln in enumerate(whole) if ln.startswith("GAME ")]
    rules = len(whole) - games[-1] if games else 0      # the last game's lines, with the rules
    assert len(fed) >= len(whole) // 32 + rules // 8
    return _state(full), _state(fast)


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_every_prefix_resumes_to_the_full_replays_state(kind):
    # cut after every line (mid-game, after an END, right after a GAME line, a double offered)
    lines = RECORDS[kind].splitlines(keepends=True)
    assert sum(1 for ln in lines if ln.startswith("GAME ")) >= 3
    # every line near a game's start or end, every 23rd elsewhere
    near = {i + d for i, ln in enumerate(lines) if ln[:3] in ("GAM", "END", "MAT")
            for d in range(-2, 4)}
    for n in sorted(near | set(range(1, len(lines) + 1, 23)) | {len(lines)}):
        if not 1 <= n <= len(lines):
            continue
        full, fast = _both("".join(lines[:n]))
        assert fast == full, "cut after line %d" % n


def test_torn_last_lines_and_steps_and_marks_of_earlier_games():
    p = _payloads(RECORDS["money"])
    # real dice and the tutor in the first game only: still known when the last game resumes
    first_end = next(i for i, x in enumerate(p) if x.startswith("END"))
    p = [x + " real" if x.startswith("ROLL") and i < first_end else x for i, x in enumerate(p)]
    p.insert(2, "TUTOR 0 on 80")
    # the last game cut in a person's move: two checker steps, one taken back
    last_roll = max(i for i, x in enumerate(p) if x.startswith("ROLL"))
    turn = int(p[last_roll].split()[1])
    cut = p[:last_roll + 1] + ["STEP %d 13 7" % turn, "STEP %d 7 5" % turn, "UNDO %d" % turn]
    text = _chain(cut)
    full, fast = _both(text)
    assert fast == full and fast["real"] and fast["tutored"] and fast["steps"] == [(13, 7)]
    for tear in (1, 5, 12):
        full, fast = _both(text + text.splitlines(keepends=True)[-1][:-tear])
        assert fast == full


def test_damage_in_an_early_game_is_still_found_at_its_line():
    lines = RECORDS["money"].splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("MOVE")) + 3
    bad = lines[at][:6] + "x" + lines[at][7:]
    text = "".join(lines[:at] + [bad] + lines[at + 1:])
    with pytest.raises(RecordError) as e_full:
        replay(text, history=False)
    with pytest.raises(RecordError) as e_fast:
        replay_last_game(io.BytesIO(text.encode()))
    assert e_fast.value.line == e_full.value.line == at + 1
    assert "integrity check failed" in str(e_fast.value)


def test_a_rule_broken_in_the_last_game_is_found():
    p = _payloads(RECORDS["money"])
    last_move = max(i for i, x in enumerate(p) if x.startswith("MOVE") and x.count("/") >= 2)
    w = p[last_move].split()
    p[last_move] = " ".join(w[:2] + ["24/1"] + w[3:])
    with pytest.raises(RecordError) as e:
        replay_last_game(io.BytesIO(_chain(p).encode()))
    assert e.value.line == last_move + 1


def test_only_the_last_games_plays_are_checked(monkeypatch):
    # the cost of resuming: the rules' check of a play runs for the last game's moves only
    text = RECORDS["money"]
    games = [[]]
    for x in _payloads(text)[1:]:
        if x.startswith("GAME "):
            games.append([])
        games[-1].append(x)
    checked = []
    real = position.Position.parse_play
    monkeypatch.setattr(position.Position, "parse_play",
                        lambda self, *a: checked.append(1) or real(self, *a))
    replay_last_game(io.BytesIO(text.encode()))
    assert len(checked) == sum(1 for x in games[-1] if x.startswith("MOVE"))
    checked.clear()
    replay(text, history=False)
    assert len(checked) == sum(1 for x in _payloads(text) if x.startswith("MOVE")) > 3 * len(
        [x for x in games[-1] if x.startswith("MOVE")])
