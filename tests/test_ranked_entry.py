"""The board's name and country entry (bgapp.naming) by logical keys, as both input schemes
send them, and its best-wins file (bgapp.best): ranking, the top 10, rebuilt from the records
when missing or damaged. Run on CPython with the firmware's own modules and a data folder."""

import sys

import pytest

from conftest import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))

from bgapp.naming import Entry  # noqa: E402
from bgapp.best import Best  # noqa: E402
from bgapp.journal import Journal  # noqa: E402
from bgboard.ranked import play_ranked  # noqa: E402
from bgcore.ranked import person_won  # noqa: E402
from bgcore.record import replay  # noqa: E402


def keys(entry, *names):
    return [entry.key(k) for k in names]


def test_a_name_and_a_country_typed_with_keys():
    e = Entry()
    # A N N space L E E: P1, P14, P14, HINT, P12, P5, P5; a digit from the second page
    assert keys(e, "P1", "P14", "P14", "HINT", "P12", "P5", "P5") == [None] * 7
    assert keys(e, "DOUBLE", "P2", "P11", "DOUBLE", "BAR", "OFF") == [None] * 6
    assert e.text == "ANN LEE1-YZ"
    assert e.key("UNDO") is None and e.text == "ANN LEE1-Y"
    assert e.key("OK") is None and e.stage == "country" and e.name == "ANN LEE1-Y"
    assert e.key("P14") is None and e.key("OFF") is None            # N Z
    assert e.key("OK") is None and (e.stage, e.country) == ("done", "NZ")


def test_refusals_name_what_is_wrong():
    e = Entry()
    assert e.key("OK") == "the name is empty"
    assert e.key("HINT") == "no space here"
    assert e.key("DOUBLE") is None
    assert e.key("P20") == "not a character on this page (DOUBLE: letters)"
    for _ in range(12):
        assert e.key("P1") is None
    assert e.key("P2") == "a name has at most 12 characters"
    assert e.key("OK") is None
    assert e.key("P24") is None and e.key("P24") is None               # X X
    assert e.key("P1") == "a country code is two letters (UNDO removes one)"
    assert e.key("OK") == "XX is not a country code (ISO 3166-1)"
    assert e.key("DOUBLE") == "a country code is two letters"
    assert e.key("UNDO") is None and e.key("UNDO") is None and e.key("UNDO") == "nothing to remove"


def test_the_last_name_and_country_are_offered_first_and_an_entry_resumes():
    e = Entry("ANN LEE", "NZ")
    assert e.text == "ANN LEE" and e.key("OK") is None and e.text == "NZ"
    saved = e.saved()
    back = Entry.restore(saved, "NZ")
    assert (back.stage, back.name, back.text) == ("country", "ANN LEE", "NZ")
    assert back.key("OK") is None and back.country == "NZ"
    assert Entry.restore("garbage") is None
    assert Entry.restore("country 0 bad<name|NZ") is None


class Hal:
    """What the journal and the best-wins file need of a board: a data folder."""

    def __init__(self, data):
        self.data_dir = str(data)
        self.fed = 0

    def sync(self):
        pass

    def feed(self):
        self.fed += 1

    def board_id(self):
        return "test"


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Ranked records as the board keeps them: wins, losses, an unranked game."""
    d = tmp_path_factory.mktemp("data")
    n = 0
    wins = []
    for k in range(12):
        level = 1 + k % 2
        text = play_ranked(level, 6, "P%d" % k, "SE", nonce=bytes([k]) * 32, person_seed=k)
        n += 1
        (d / ("%04d.bgr" % n)).write_text(text)
        points, pips = person_won(replay(text, history=False)[0])     # by the rules' replay
        if points:
            wins.append((level, points, pips, "%04d.bgr" % n, "P%d" % k))
    from bgboard.games import play_record
    import random
    from bgcore.match import Rules
    n += 1
    (d / ("%04d.bgr" % n)).write_text(play_record(Rules("nocube"), random.Random(1)))
    return d, wins


def test_best_wins_rebuilt_from_the_records_and_kept(records):
    d, wins = records
    hal = Hal(d)
    best = Best(hal, Journal(hal))
    table = best.load()
    assert best.note == "best wins missing: rebuilt from the records"
    for level in (1, 2):
        want = sorted((w for w in wins if w[0] == level), key=lambda w: (-w[1], -w[2], w[3]))
        assert [(e[0], e[1], e[2], e[5]) for e in table[level]] == [w[1:] for w in want][:10]
    assert hal.fed >= 13
    # read back as written; damaged (one changed digit): rebuilt to the same table
    again = Best(hal, Journal(hal))
    assert again.load() == table and again.note == ""
    text = (d / "best.txt").read_text()
    (d / "best.txt").write_text(text.replace(" SE ", " NO ", 1))
    third = Best(hal, Journal(hal))
    assert third.load() == table and third.note == "best wins damaged: rebuilt from the records"
    # a new win goes in its place; a poor one stays out of a full top 10
    top = table[1][0]
    assert third.add(1, (top[0], top[1] + 1, "0999.bgr", "-", "NZ", "NEW")) == 1
    if len(table[1]) == 10:
        assert third.add(1, (1, 0, "1000.bgr", "-", "NZ", "LAST")) == 0
    assert Best(hal, Journal(hal)).load()[1][0][5] == "NEW"


class TicketHal(Hal):
    def __init__(self, data):
        Hal.__init__(self, data)
        self.n = 0

    def seed(self):
        self.n += 1
        return self.n * 2654435761 & 0x7FFFFFFF

    def ticks_ms(self):
        return 0


def test_a_ranked_game_takes_each_ticket_once_and_keeps_its_seed(tmp_path):
    from bgapp.tickets import Tickets
    data = tmp_path / "data"
    data.mkdir()
    hal = TicketHal(data)
    t = Tickets(hal)
    assert t.dir == str(tmp_path / "ranked")
    made = t.ask(3)
    assert t.add(str(made[0][0]), "T1", "11" * 16) is None
    assert t.add(str(made[2][0]), "T3", "33" * 16) is None
    assert t.status() == (2, 1)
    nonce, secret, tid = t.begin("0001.bgr")
    import hashlib
    assert (tid, secret) == ("T1", bytes([0x11]) * 16)
    assert hashlib.sha256(nonce).hexdigest() == made[0][1]      # the nonce the server saw
    assert t.game("0001.bgr") == (nonce, secret, "T1") and t.game("0002.bgr") is None
    assert t.status() == (1, 1)
    # a power cut after the game was kept but before the list was written: T1 is back in the
    # list, and is not used again
    rows = t.rows() + [[str(made[0][0]), nonce.hex(), "T1", "11" * 16]]
    t._write("tickets", rows)
    assert t.begin("0002.bgr")[2] == "T3"
    assert t.status() == (0, 1)
    # no ticket left: a fresh nonce, no secret
    n3, s3, id3 = t.begin("0003.bgr")
    assert (s3, id3) == (b"", "") and len(n3) == 32 and n3 not in (nonce,)
    t.forget_game()
    assert t.game("0003.bgr") is None
