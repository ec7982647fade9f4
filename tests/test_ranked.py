"""Ranked games on the laptop: the dice generator and HMAC against Python's own, the same dice and
bot seeds on MicroPython, ranked records made by `selfplay --ranked` verified with `--ranked`,
and every attack of docs/leaderboard.md tried on them (with the hash chain recomputed, as a
forger would) and rejected with its message; names and countries refused clearly."""

import hashlib
import hmac
import json
import subprocess
import sys

import pytest

from bgcore import ranked as rk
from bgcore import rankfields as rf
from bgcore.position import Position
from bgcore.record import Writer, checked_lines
from bgboard.ranked import play_ranked, verify_ranked
from conftest import run_micropython
from test_gnubg_files import final_score, gnubg

LEVEL = 3


def bgboard(*args):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


def payloads(text):
    return [p for _, p in checked_lines(text)]


def rechain(lines):
    """A record of these payloads with a freshly computed chain: what anyone can make."""
    w = Writer()
    return "".join(w.line(p) for p in lines)


def _won(seed_byte, person_level=6):
    # a ranked win (the person played by a strong bot) with a name and a country
    for k in range(40):
        nonce = bytes([seed_byte, k]) + bytes(30)
        text = play_ranked(LEVEL, person_level, "ANN LEE", "NZ", nonce=nonce, person_seed=k)
        if verify_ranked(text).points:
            return text
    raise AssertionError("no win in 40 games")


@pytest.fixture(scope="module")
def won():
    return _won(1)


@pytest.fixture(scope="module")
def other():
    return _won(2)


def test_hmac_and_dice_are_the_documented_ones():
    for key in (b"", b"k", bytes(range(32)), bytes(64), bytes(100)):
        for msg in (b"", b"dice\x00\x00\x00\x01\x00"):
            assert rk.hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()
    seed = rk.make_seed(bytes(32), bytes(16))
    assert seed == hashlib.sha256(b"bgboard ranked seed 1" + bytes(48)).digest()
    assert rk.commitment(seed) == hashlib.sha256(seed).hexdigest()
    # roll r: the first two bytes below 252 of HMAC(seed, "dice" | r | block 0)
    block = hmac.new(seed, b"dice" + (7).to_bytes(4, "big") + b"\x00", hashlib.sha256).digest()
    want = [b % 6 + 1 for b in block if b < 252][:2]
    assert rk.dice(seed, 7) == want
    h = hmac.new(seed, b"bot" + (7).to_bytes(4, "big"), hashlib.sha256).digest()
    assert rk.bot_seed(seed, 7) == int.from_bytes(h[:4], "big") & 0x3FFFFFFF


def test_a_reused_bot_plays_as_a_new_one(won):
    # the board re-seeds one Bot per level instead of making one per play: same plays
    from bgcore.bot import Bot
    from bgcore.record import replay
    rep = replay(won)[0]
    seed = rk.make_seed(bytes(32))
    for level in (1, 3, 5):
        reused = Bot(level, 99)
        for r, (player, kind, data) in enumerate(x for x in rep.history[0] if x[1] == "move"):
            dice, before, play, text = data
            assert rk.bot_play(level, seed, r, before, *dice, bot=reused) == \
                Bot(level, rk.bot_seed(seed, r)).choose(before, *dice)


def test_dice_are_fair():
    # 36 outcomes over 18,000 rolls of one seed: chi-square with 35 degrees of freedom stays
    # under 66.6 (p = 0.001) for fair dice; a biased mapping (say b % 6 of every byte) fails
    seed = rk.make_seed(b"\x05" * 32)
    counts = [0] * 36
    n = 18000
    for r in range(n):
        a, b = rk.dice(seed, r)
        counts[(a - 1) * 6 + b - 1] += 1
    e = n / 36
    chi = sum((c - e) ** 2 / e for c in counts)
    assert chi < 66.6, (chi, counts)


def test_micropython_derives_the_same_dice_bot_seeds_and_countries(tmp_path, mpy_lib):
    script = tmp_path / "dice.py"
    script.write_text(
        "from bgcore import ranked as rk\n"
        "from bgcore import rankfields as rf\n"
        "s = rk.make_seed(bytes(range(32)), bytes(16))\n"
        "print(rk.commitment(s))\n"
        "print([rk.dice(s, r) for r in range(60)])\n"
        "print([rk.bot_seed(s, r) for r in range(10)])\n"
        "print([rf.is_country(c) for c in ('NZ', 'ZN', 'DA', 'AD', 'ZW', 'nz')])\n"
        "print(rk.hexs(rk.hmac_sha256(bytes(100), b'msg')))\n")
    r = run_micropython(script, heap="64k", lib=mpy_lib)   # compiled, as a board runs it
    assert r.returncode == 0, r.stderr
    s = rk.make_seed(bytes(range(32)), bytes(16))
    want = "\n".join([rk.commitment(s), str([rk.dice(s, r) for r in range(60)]),
                      str([rk.bot_seed(s, r) for r in range(10)]),
                      str([True, False, False, True, True, False]),
                      hmac.new(bytes(100), b"msg", hashlib.sha256).hexdigest()])
    assert r.stdout.strip() == want


def test_the_country_list_is_iso_3166_1():
    pycountry = pytest.importorskip("pycountry")
    codes = sorted(c.alpha_2 for c in pycountry.countries)
    assert rf.COUNTRIES == "".join(codes)


def test_a_ranked_record_verifies_with_its_header_reveal_and_name(won):
    lines = payloads(won)
    head = lines[0]
    assert " ranked=1 level=3 bot=%d commit=" % rk.BOT_PLAY in head
    assert head.endswith(" ticket=-")
    assert "p0=you p1=bot:3" in head
    end = [i for i, p in enumerate(lines) if p.startswith("END 0 ")][0]
    assert lines[end + 1].startswith("SEED ") and lines[end + 2:] == [
        "NAME ANN LEE", "COUNTRY NZ", lines[-1]]
    assert lines[-1].startswith("MATCHEND 0 ")
    res = verify_ranked(won)
    assert res.ok and res.error is None and res.level == LEVEL
    assert res.name == "ANN LEE" and res.country == "NZ" and res.points >= 1
    # the pips come from the replay: the bot's checkers left on the final position
    from bgcore.record import replay
    rep = replay(won)[0]
    assert res.opponent_pips == rep.match.pos.pips()[0] > 0


def test_verify_cli_json_and_the_plain_tools_still_read_it(won, tmp_path):
    f = tmp_path / "won.bgr"
    f.write_text(won)
    r = bgboard("verify", f, "--ranked", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    res = verify_ranked(won)
    assert out["ranked"] is True and out["level"] == LEVEL and out["ok"] is True
    assert (out["points"], out["opponent_pips"], out["name"], out["country"]) == (
        res.points, res.opponent_pips, "ANN LEE", "NZ")
    r = bgboard("verify", f)
    assert r.returncode == 0 and "you vs bot:3" in r.stdout, r.stderr
    r = bgboard("verify", f, "--ranked")
    assert r.returncode == 0 and "ranked game against the level-3 bot, won" in r.stdout
    # GNU Backgammon imports the exported game without a warning, with the same score
    r = bgboard("export", f, "--format", "mat", "-o", tmp_path / "won.mat")
    assert r.returncode == 0, r.stderr
    got = gnubg("set jacoby off\nimport mat %s\nshow score\n" % (tmp_path / "won.mat"), tmp_path)
    assert "WARNING" not in got.upper().replace("WARRANTY", ""), got[-3000:]
    assert final_score(got) == [res.points, 0]


def test_an_unranked_record_is_no_ranked_game(tmp_path):
    r = bgboard("selfplay", "--games", 1, "--seed", 3, "--out", tmp_path)
    f = next(tmp_path.iterdir())
    r = bgboard("verify", f, "--ranked", "--json")
    assert r.returncode == 1
    assert "not a ranked game" in json.loads(r.stdout)["error"]


# ---- the attacks -------------------------------------------------------------------------------

def _index(lines, prefix, nth=0):
    return [i for i, p in enumerate(lines) if p.startswith(prefix)][nth]


def _rejected(text):
    res = verify_ranked(text)
    assert not res.ok and res.error, res
    return res.error


def test_a_changed_die_is_rejected(won):
    lines = payloads(won)
    i = _index(lines, "ROLL 0 ", 3)
    w = lines[i].split()
    w[3] = str(w[3] == "6" and 5 or int(w[3]) + 1)
    lines[i] = " ".join(w)
    # a forger also fixes the move that follows, when the new dice need another play
    err = _rejected(rechain(lines))
    assert "dice %s-%s are not the ones the seed gives" % (w[2], w[3]) in err
    assert err.startswith("game 1 move ")


def test_a_changed_bot_move_is_rejected(won):
    lines = payloads(won)
    from bgcore.record import replay
    # the fifth bot play replaced by another legal play of the same roll
    i = _index(lines, "MOVE 1 ", 4)
    rep = replay(rechain(lines[:i]))[0]
    m = rep.match
    plays = m.pos.plays(*m.dice)
    mine = m.pos.parse_play(" ".join(lines[i].split()[2:]), *m.dice)
    alt = [p for p in plays if p != mine][0]
    lines[i] = "MOVE 1 " + " ".join("%d/%d" % s for s in alt.moves)
    err = _rejected(rechain(lines))
    assert err.startswith("game 1 move %d: not the level-3 bot's play" % rep.move_no())


def test_a_swapped_human_move_is_rejected(won):
    lines = payloads(won)
    from bgcore.record import replay
    i = _index(lines, "MOVE 0 ", 2)
    rep = replay(rechain(lines[:i]))[0]
    m = rep.match
    mine = m.pos.parse_play(" ".join(lines[i].split()[2:]), *m.dice)
    alt = [p for p in m.pos.plays(*m.dice) if p != mine][0]
    lines[i] = "MOVE 0 " + " ".join("%d/%d" % s for s in alt.moves)
    err = _rejected(rechain(lines))
    # the bot's answer (or a later play of the person) no longer fits the new position
    assert err.startswith("game 1 move "), err
    assert int(err.split()[3].rstrip(":")) >= 3


def test_a_spliced_line_from_another_game_is_rejected(won, other):
    mine, theirs = payloads(won), payloads(other)
    i = _index(mine, "ROLL 1 ", 2)
    j = _index(theirs, "ROLL 1 ", 2)
    k = 0
    while theirs[j] == mine[i]:          # a line that differs
        k += 1
        i, j = _index(mine, "ROLL 1 ", 2 + k), _index(theirs, "ROLL 1 ", 2 + k)
    # as it is (its own check): the chain breaks at that line
    raw = won.splitlines(True)
    spliced = raw[:i] + [other.splitlines(True)[j]] + raw[i + 1:]
    err = _rejected("".join(spliced))
    assert err == "line %d: integrity check failed: the line was altered, or a line before it " \
                  "was removed or changed" % (i + 1)
    # with the chain made again: the other game's dice are not this seed's
    mine[i] = theirs[j]
    assert "are not the ones the seed gives" in _rejected(rechain(mine))


def test_a_reveal_that_does_not_match_the_commitment_is_rejected(won, other):
    lines = payloads(won)
    i = _index(lines, "SEED ")
    lines[i] = payloads(other)[_index(payloads(other), "SEED ")]
    assert _rejected(rechain(lines)) == ("line %d: the revealed seed does not match the "
                                         "header's commitment" % (i + 1))
    lines = payloads(won)
    lines[i] = "SEED 12345 -"
    assert _rejected(rechain(lines)) == "line %d: the revealed nonce is not 64 hex digits" % (i + 1)
    # a header claiming another level: the commitment holds, the bot's plays do not
    lines = payloads(won)
    lines[0] = lines[0].replace("level=3", "level=6").replace("p1=bot:3", "p1=bot:6")
    assert "not the level-6 bot's play" in _rejected(rechain(lines))


def test_a_record_cut_before_the_reveal_is_rejected(won):
    lines = payloads(won)
    i = _index(lines, "SEED ")
    for cut in (lines[:i], lines[:i // 2]):
        err = _rejected(rechain(cut))
        assert err == ("line %d: the record ends before its seed is revealed (no SEED line): "
                       "the game is unfinished or was cut short" % len(cut))
    # the seed moved up to the start: the dice would be known during the game
    moved = [lines[0], lines[i]] + lines[1:i] + lines[i + 1:]
    assert "before the game is over" in _rejected(rechain(moved))


@pytest.mark.parametrize("change,why", [
    (("commit=", "commit=xyz "), "line 1: header: commit=xyz is not a SHA-256 in 64 lower-case "
                                 "hex digits"),
    (("level=3", "level=9"), "line 1: header level=9 is not a bot level 1-6"),
    (("level=3", "level=\u00b3"), "line 1: header level=\u00b3 is not a bot level 1-6"),
    (("bot=", "bot=\u00b2"), "line 1: header bot=\u00b2%d is not a version number" % rk.BOT_PLAY),
    (("ticket=-", "ticket=a<b"), "line 1: header: a ticket id holds only letters, digits, "
                                 "'-' and '_'"),
    (("ranked=1", "ranked=0"), "line 1: not a ranked game (its header has no ranked=1)"),
    (("mode=nocube", "mode=money"), "line 1: a ranked game is a single game without cube, "
                                    "not mode=money"),
    (("p0=you", "p0=bot:6"), "line 1: player 0 of a ranked game is a person, not bot:6"),
])
def test_a_malformed_header_is_named(won, change, why):
    lines = payloads(won)
    old, new = change
    if old == "commit=":
        lines[0] = lines[0].split(" commit=")[0] + " " + new + "ticket=-"
    else:
        lines[0] = lines[0].replace(old, new)
    assert _rejected(rechain(lines)) == why


def test_the_header_names_the_bots_choices_and_a_replay_refuses_other_ones(won):
    """A board whose bots chose differently (older firmware) gets its ranked records refused by
    name, not as a move that is not the bot's, at every level (version 3's network, version 5's
    race network, version 6's contact inputs and version 10's networks of 64+16 units changed them
    all; a header without bot= is version 1). Versions 7, 8 and 9 changed level 6 only."""
    lines = payloads(won)
    tag = " bot=%d " % rk.BOT_PLAY
    assert tag in lines[0]

    def with_field(record_lines, field):
        return rechain([record_lines[0].replace(tag, field)] + record_lines[1:])

    assert verify_ranked(won).ok
    for field, v in ((" ", 1), (" bot=1 ", 1), (" bot=2 ", 2), (" bot=3 ", 3), (" bot=4 ", 4),
                     (" bot=5 ", 5), (" bot=6 ", 6), (" bot=7 ", 7), (" bot=8 ", 8), (" bot=9 ", 9)):
        assert _rejected(with_field(lines, field)) == (
            "line 1: the level-3 bot of this game (bot=%d) chose differently from this replay's "
            "(%d): its board needs new firmware (bgboard flash) before ranked games"
            % (v, rk.BOT_PLAY))
    six = payloads(play_ranked(6, 6, nonce=bytes(32), person_seed=3))
    assert verify_ranked(rechain(six)).ok
    older = ("line 1: the level-6 bot of this game (bot=1) chose differently from this replay's "
             "(%d): its board needs new firmware (bgboard flash) before ranked games"
             % rk.BOT_PLAY)
    assert _rejected(with_field(six, " ")) == older
    assert _rejected(with_field(six, " bot=1 ")) == older
    assert _rejected(with_field(six, " bot=4 ")) == older.replace("(bot=1)", "(bot=4)")
    assert _rejected(with_field(six, " bot=5 ")) == older.replace("(bot=1)", "(bot=5)")
    assert _rejected(with_field(six, " bot=6 ")) == older.replace("(bot=1)", "(bot=6)")
    assert _rejected(with_field(six, " bot=7 ")) == older.replace("(bot=1)", "(bot=7)")
    assert _rejected(with_field(six, " bot=8 ")) == older.replace("(bot=1)", "(bot=8)")
    assert _rejected(with_field(six, " bot=9 ")) == older.replace("(bot=1)", "(bot=9)")
    assert _rejected(with_field(six, " bot=%d " % (rk.BOT_PLAY + 1))) == (
        "line 1: the level-6 bot of this game (bot=%d) is newer than this replay's (%d): "
        "update bgboard" % (rk.BOT_PLAY + 1, rk.BOT_PLAY))
    assert _rejected(with_field(six, " bot=two ")) == (
        "line 1: header bot=two is not a version number")


def test_garbage_is_no_ranked_record(tmp_path):
    assert _rejected("") == "line 1: the record is empty"
    assert _rejected("hello") == ("line 1: the record is empty (its only line was torn or is "
                                  "not a record line)")
    f = tmp_path / "x.bgr"
    f.write_bytes(b"\x00\xff garbage\n" * 3)
    r = bgboard("verify", f, "--ranked", "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["ranked"] is False and "not a text file" in out["error"]


def test_other_forgeries_are_rejected(won):
    lines = payloads(won)
    end = _index(lines, "END ")
    # the bot resigning a backgammon
    forged = (lines[:_index(lines, "MOVE 1 ", 3)] + ["RESIGN 1 3", "END 0 3 resign"]
              + lines[end + 1:])
    assert "the bot never resigns" in _rejected(rechain(forged))
    # the game made unranked by a hint
    assert "unranked (hint)" in _rejected(rechain(lines[:5] + ["UNRANK hint"] + lines[5:]))
    # real dice
    i = _index(lines, "ROLL 0 ")
    assert "real dice in a ranked game" in _rejected(
        rechain(lines[:i] + [lines[i] + " real"] + lines[i + 1:]))
    # a second game after the first
    assert _rejected(rechain(lines[:end + 2] + ["GAME 2"])) == (
        "line %d: GAME after the end of the game" % (end + 3))
    # a win's points changed by a claimed END line: the replay's result stands
    w = lines[end].split()
    claim = "END 0 1 single" if w[2] == "3" else "END 0 3 backgammon"
    assert "the rules give player 0 %s point(s)" % w[2] in _rejected(
        rechain(lines[:end] + [claim] + lines[end + 1:]))


@pytest.mark.parametrize("name,country,why", [
    ("ANN<B>", "NZ", "'<' is not allowed in a name"),
    ("ann", "NZ", "'a' is not allowed in a name"),
    ("ANN", "XX", "'XX' is not an ISO 3166-1 alpha-2 country code"),
    ("", "NZ", "the name is empty"),
    ("ABCDEFGHIJKLM", "NZ", "a name has at most 12 characters, not 13"),
    ("ANN  LEE", "NZ", "no leading, trailing or double spaces"),
    ("ANN", "nz", "'nz' is not an ISO 3166-1 alpha-2 country code"),
])
def test_bad_names_and_countries_are_refused(won, tmp_path, name, country, why):
    lines = payloads(won)
    lines[_index(lines, "NAME ")] = ("NAME " + name).rstrip()
    lines[_index(lines, "COUNTRY ")] = "COUNTRY " + country
    err = _rejected(rechain(lines))
    assert why in err and err.startswith("line ")
    r = bgboard("selfplay", "--ranked", "--level", 1, "--games", 1, "--name", name,
                "--country", country, "--out", tmp_path / "x")
    assert r.returncode == 2 and why in r.stderr and not (tmp_path / "x").exists()


def test_selfplay_ranked_and_the_local_board(tmp_path):
    r = bgboard("selfplay", "--ranked", "--level", 1, "--person-level", 6, "--games", 4,
                "--name", "BO", "--country", "SE", "--seed", 9, "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4
    results = [verify_ranked(f.read_text()) for f in files]
    assert all(res.ok for res in results)
    wins = sorted((res for res in results if res.points),
                  key=lambda res: (-res.points, -res.opponent_pips))
    assert wins, "level 6 lost four games to level 1"
    r = bgboard("board", tmp_path, "--level", 1)
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert rows[0] == "level 1 (beginner): %d ranked win(s)" % len(wins)
    body = [row.split() for row in rows[2:]]
    assert [(b[0], b[1]) for b in body] == [(str(k + 1), "BO") for k in range(len(wins))]
    assert [int(b[-5]) for b in body] == [w.points for w in wins]
    assert [int(b[-4]) for b in body] == [w.opponent_pips for w in wins]
    assert "Sweden" in rows[2]
    r = bgboard("games", tmp_path)
    assert r.returncode == 0 and r.stdout.count(" on level 1") == len(wins), r.stdout


def test_a_game_with_the_tutor_on_is_no_ranked_game(won):
    """The tutor's advice has no place in a ranked game: a record holding a TUTOR line (here
    the tutor turned on at the start, the chain made anew) is refused."""
    lines = payloads(won)
    i = _index(lines, "GAME 1", 0)
    err = _rejected(rechain(lines[:i + 1] + ["TUTOR 0 on 80"] + lines[i + 1:]))
    assert err == "line %d: the tutor was on: a ranked game is played without it" % (i + 2)
