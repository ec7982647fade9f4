"""The soak's Follower (bgboard.follow): a record read again after each power cut replays only
what was added, and answers exactly as a whole replay of the same text does — the position,
the match, the games finished, the torn last line, and the first damaged line's error."""

import gzip
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bgboard.follow import Follower
from bgboard.games import play_record
from bgboard.soak import replay_text
from bgcore.match import Rules, MATCH

HERE = Path(__file__).parent


def outcome(read, text):
    try:
        rep, info, torn = read(text)
    except ValueError as e:             # RecordError, with its line
        return ("error", str(e))
    m = rep.match
    return (m.pos.id(), m.match_id(), rep.finished, sorted(info.items()), torn)


@pytest.fixture(scope="module")
def texts():
    match = play_record(Rules(MATCH, 5), random.Random(8), ("Ann", "Bob"))
    chouette = gzip.open(HERE / "data" / "chouette-26-games.bgr.gz").read().decode()
    return {"match": match, "chouette": chouette}


@pytest.mark.parametrize("kind", ["match", "chouette"])
def test_a_growing_record_reads_as_a_whole_replay_at_every_length(texts, kind):
    text = texts[kind]
    rnd = random.Random(3)
    # cut at line ends and in the middle of lines (a torn last line), growing as a board writes
    ends = [i + 1 for i, c in enumerate(text) if c == "\n"]
    cuts = sorted(set(ends[::max(1, len(ends) // 30)] + [rnd.randrange(len(text))
                                                         for _ in range(30)] + [len(text)]))
    f = Follower()
    for n in cuts:
        assert outcome(f.feed, text[:n]) == outcome(replay_text, text[:n]), n
    assert f.no == text.count("\n")     # the whole record was read once, not again per length
    assert outcome(f.feed, text)[2] > 0     # games finished in it


def test_a_torn_line_rewritten_or_a_record_cut_short_is_read_from_the_start(texts):
    text = texts["match"]
    lines = text.splitlines(True)
    f = Follower()
    head = "".join(lines[:40])
    torn = head + lines[40][:20]
    assert outcome(f.feed, torn) == outcome(replay_text, torn)
    assert outcome(f.feed, head + lines[40]) == outcome(replay_text, head + lines[40])
    shorter = "".join(lines[:25])       # another record of the same name, or a file truncated
    assert outcome(f.feed, shorter) == outcome(replay_text, shorter)
    assert outcome(f.feed, text) == outcome(replay_text, text)


@given(st.data())
@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_line_changed_after_it_was_read_is_reported_as_a_whole_replay_does(texts, data):
    text = texts["match"]
    lines = text.splitlines(True)
    seen = data.draw(st.integers(2, len(lines)), label="lines read before")
    k = data.draw(st.integers(0, len(lines) - 2), label="line changed")
    body = lines[k].rstrip("\n")
    i = data.draw(st.integers(0, len(body) - 1), label="at")
    c = data.draw(st.sampled_from("0123456789abcdef |xyz"), label="char")
    changed = list(lines)
    changed[k] = body[:i] + c + body[i + 1:] + "\n"
    changed = "".join(changed)
    f = Follower()
    f.feed("".join(lines[:seen]))
    assert outcome(f.feed, changed) == outcome(replay_text, changed)
