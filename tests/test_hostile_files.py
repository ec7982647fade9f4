"""Hostile record and .mat files: readers that take time in proportion to their input (no
backtracking pattern, no quadratic string building, on CPython and on MicroPython), absurd
numbers refused with one line, names that cannot break an export, and random or mutated input
that only ever gives a clear ValueError (Hypothesis)."""

import gc
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bgboard import matfile
from bgboard.games import play_record
from bgcore import Position
from bgcore.match import Rules, MATCH, MONEY
from bgcore.record import RecordError, Writer, parse_header, quote, replay, unquote
from conftest import run_micropython

HERE = Path(__file__).parent
GROWTH = 8           # the big input is 8 times the small one
LINEAR_AT_MOST = 32  # times slower it may be: linear gives about 8, quadratic 64
SLOW = settings(max_examples=4, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAT_HEAD = "\n 1 point match\n\n Game 1\n"


def bgboard(*args):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


def _best_time(fn, arg, repeats=3):
    # CPU time of this process (other programs on a loaded machine do not count), the garbage
    # collector held off (its pauses are not the reader's work)
    best = None
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            t = time.process_time()
            try:
                fn(arg)
            except ValueError:
                pass
            dt = time.process_time() - t
            best = dt if best is None or dt < best else best
    finally:
        gc.enable()
    return best


def assert_linear(fn, make, base):
    """fn(make(n)) for n = base and GROWTH * base: the time may grow GROWTH-fold, with a wide
    margin for a loaded machine, but not with the square of the size. The small size is first
    doubled until it takes a few milliseconds, so that timer noise cannot decide."""
    small = _best_time(fn, make(base))
    while small < 0.004 and base < 1 << 16:
        base *= 2
        small = _best_time(fn, make(base))
    big = _best_time(fn, make(base * GROWTH), repeats=2)
    ratio = big / small
    # (a reader that takes under 0.2 s for the big input is not quadratic, whatever the
    # ratio: quadratic from 4 ms would be 0.26 s; at a few milliseconds, memory effects
    # outweigh the work)
    assert ratio < LINEAR_AT_MOST or big < 0.2, \
        "%d -> %d characters: %.4f s -> %.4f s (%.0fx)" % (base, base * GROWTH, small, big, ratio)


# ---- .mat -------------------------------------------------------------------------------------

_OLD_NAMES = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")


def test_the_backtracking_names_line_of_issue_18_reads_at_once():
    # ' '*n + ':1' + ' '*n + 'x' took 7.3 s at n=100 and minutes at 1 KB with the old pattern
    for n in (100, 1000, 100_000):
        line = " " * n + ":1" + " " * n + "x"
        assert matfile._names(line) is None
        with pytest.raises(matfile.MatError) as e:
            matfile.parse(MAT_HEAD + line + "\n")
        assert "players' names" in str(e.value)
    assert_linear(matfile.parse, lambda n: MAT_HEAD + " " * n + ":1" + " " * n + "x\n", 4000)


@given(st.text(alphabet=" \t:09x", max_size=24))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_names_line_reads_as_the_old_pattern_did(line):
    old = _OLD_NAMES.match(line)
    new = matfile._names(line)
    if old and old.group(2).isascii() and old.group(4).isascii():
        assert new == old.groups()
    else:
        assert new is None


@pytest.mark.parametrize("line", ["Ann : 0        Bob : 2", " bot 6 : 12   Jo : Ann : 3",
                                  "a:b : 1  c:d : 2 ", "  : 0   : 1"])
def test_names_lines_gnubg_writes(line):
    old = _OLD_NAMES.match(line)
    assert matfile._names(line) == old.groups()


_units = st.text(alphabet=" \t:0123456789%|=abAFx()/*", min_size=1, max_size=6)


@given(_units)
@SLOW
def test_mat_reader_is_linear_on_any_repeated_line(unit):
    names = "Ann : 0      Bob : 0\n"
    assert_linear(matfile.parse, lambda n: MAT_HEAD + unit * (n // len(unit)) + "\n", 8000)
    assert_linear(matfile.parse, lambda n: MAT_HEAD + names + "  1) " + unit * (n // len(unit))
                  + "\n", 8000)
    assert_linear(matfile.parse, lambda n: unit * (n // len(unit)) + "\n" + MAT_HEAD, 8000)


@pytest.mark.parametrize("text, where", [
    (" 100 point match\n\n Game 1\n A : 0   B : 0\n", "line 1: a match is played to 1-99"),
    (" %s point match\n" % ("9" * 5000), "line 1: the match length '99999"),
    (" 5 point match\n\n Game %s\n" % ("1" * 5000), "line 3: the game number '11111"),
    (" 5 point match\n\n Game 1\n A : %s   B : 0\n" % ("7" * 5000), "line 4: a score '77777"),
    (" 5 point match\n\n Game 1\n A : 0   B : %s\n" % ("7" * 5000), "line 4: a score"),
    (" 5 point match\n\n Game 1\n A : 0   B : 0\n  1)  Doubles => %s\n" % ("2" * 5000),
     "line 5: the cube value '22222"),
    (" 5 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n Wins %s point\n"
     % ("1" * 5000), "line 6: the points won '11111"),
    (" 5 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 %s\n" % ("6" * 5000), "line 5"),
])
def test_absurd_numbers_in_a_mat_are_one_clear_line(tmp_path, text, where):
    f = tmp_path / "absurd.mat"
    f.write_text(text)
    cmds = [["verify", f]] + ([["export", f, "--format", "mat"]] if "100 point" in text else [])
    for cmd in cmds:
        r = bgboard(*cmd)
        assert r.returncode == 1 and r.stdout == "", r.stdout
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr[:300]
        assert where in r.stderr and len(r.stderr) < 300, r.stderr[:300]


SGF_HEAD = "(;FF[4]GM[6]CA[UTF-8]AP[x]MI[length:0][game:0][ws:0][bs:0]RU[]PB[a]PW[b]"


@pytest.mark.parametrize("text, why", [
    (SGF_HEAD + "CV[\u00b2];W[31hfhg])", "CV[\u00b2] is not a cube value"),
    (SGF_HEAD + ";W[\u00b21hfhg])", "W[\u00b21hfhg] is not a move, double, take or drop"),
    (SGF_HEAD + "CV[%s];W[31hfhg])" % ("9" * 5000), "CV[99999"),
])
def test_other_scripts_digits_in_an_sgf_are_one_clear_line(tmp_path, text, why):
    # str.isdigit() takes a superscript two, int() does not
    f = tmp_path / "odd.sgf"
    f.write_text(text, encoding="utf-8")
    r = bgboard("verify", f)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-300:]
    assert r.stderr.count("\n") == 1 and why in r.stderr, r.stderr


def test_mat_error_messages_are_terminal_safe(tmp_path):
    hostile = "Ann\x1b]0;owned\x07\u202e"
    f = tmp_path / "names.mat"
    f.write_text(" 5 point match\n\n Game 1\n %s : 0   B : 0\n  1) 31: 8/5 6/5\n 52: 13/8 13/11"
                 "\n Wins 1 point\n\n Game 2\n X : 0   B : 1\n" % hostile)
    f2 = tmp_path / "step.mat"
    f2.write_text(" 5 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5\x9b2J\u202e 6/5\n")
    for path, why in ((f, "names changed"), (f2, "8/5\\x9b2J\\u202e")):
        r = bgboard("verify", path)
        assert r.returncode == 1 and why in r.stderr, r.stderr
        assert "\x1b" not in r.stderr and "\x07" not in r.stderr and "\u202e" not in r.stderr


# ---- native records ---------------------------------------------------------------------------

def _record(*payloads):
    w = Writer()
    return "".join(w.line(p) for p in payloads)


def test_a_megabyte_name_in_a_header_reads_in_linear_time(tmp_path):
    # a 1 MB p0= name took verify 19 s; 5 MB did not finish in 200 s
    for unit in ("a", "%41", "%20"):
        assert_linear(parse_header, lambda n: "BGR 1 mode=money p0=" + unit * (n // len(unit)),
                      30000)
    f = tmp_path / "big.bgr"
    f.write_text(_record("BGR 1 mode=money p0=" + "%41" * 100_000 + "a" * 700_000 + " p1=B", "GAME 1"))
    t = time.monotonic()
    r = bgboard("verify", f, "--json")
    assert r.returncode == 0, r.stderr
    assert time.monotonic() - t < 30


@given(_units)
@SLOW
def test_record_reader_is_linear_on_any_repeated_text(unit):
    assert_linear(parse_header, lambda n: "BGR 1 mode=money p0=" + unit * (n // len(unit)), 8000)
    assert_linear(replay, lambda n: _record("BGR 1 mode=money p0=" + quote(unit) * (n // len(unit))),
                  8000)
    assert_linear(replay, lambda n: _record("BGR 1 mode=money", "GAME 1", "OPEN 3 1",
                                            "MOVE 0 " + unit * (n // len(unit))), 8000)


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_quote_and_unquote_are_inverse(text):
    q = quote(text)
    assert not any(ch in q for ch in " |=\n\r\t")
    assert unquote(q) == text


@pytest.mark.parametrize("payloads, why", [
    (["BGR 1 mode=match length=%s" % ("5" * 5000)], "'55555"),
    (["BGR 1 mode=money auto=%s" % ("1" * 5000)], "'11111"),
    (["BGR 1 mode=money", "GAME 1", "OPEN %s 1" % ("3" * 5000)], "'33333"),
    (["BGR 1 mode=money", "GAME %s" % ("1" * 5000)], "expected GAME 1"),
    (["BGR 1 mode=money", "GAME 1", "OPEN 3 1", "MOVE 0 8/5 6/5", "DOUBLE 1 %s" % ("2" * 5000)],
     "'22222"),
    (["BGR %s mode=money" % ("1" * 5000)], "version '11111"),
    (["BGR 1 mode=money", "GAME 1", "OPEN 3 1", "MOVE 0 8/5 6/5" + " 8/5" * 100_000], "line 4"),
    (["BGR 1 mode=money", "GAME 1", "OPEN 3 1", "MOVE 0 8/%s" % ("5" * 5000)], "line 4"),
])
def test_absurd_numbers_in_a_record_are_one_clear_line(tmp_path, payloads, why):
    f = tmp_path / "absurd.bgr"
    f.write_text(_record(*payloads))
    r = bgboard("verify", f)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[:300]
    assert why in r.stderr and r.stderr.count("\n") == 1 and len(r.stderr) < 600, r.stderr[:300]


HOSTILE_NAMES = ["Ann\nBob : 3", "tab\there", "esc\x1b[2J", "co:lon", "bidi\u202eevil",
                 "x" * 1000, "", "   ", "Jos\u00e9"]


def _check_export(tmp_path, name, cli):
    """A record with player 0 called NAME exports to a .mat whose names line stays one line and
    which verifies with the same score (through the command line when CLI)."""
    text = play_record(Rules(MATCH, 3), random.Random(7), (name, "Bob Smith"))
    rep, _, _ = replay(text)
    written = matfile.mat_name(name, 0)
    assert written and written.isprintable() and " " not in written and len(written) <= 40
    if cli:
        f = tmp_path / "g.bgr"
        f.write_text(text)
        out = tmp_path / "g.mat"
        r = bgboard("export", f, "--format", "mat", "-o", out)
        assert r.returncode == 0, r.stderr
        mat = out.read_text()
        v = bgboard("verify", out, "--json")
        assert v.returncode == 0, v.stdout + v.stderr
        got = json.loads(v.stdout)
        assert got["score"] == rep.match.score and got["players"] == [written, "Bob_Smith"]
    else:
        mat = matfile.write(rep)
        again = matfile.replay_mat(mat)
        assert again.match.score == rep.match.score and again.players == [written, "Bob_Smith"]
    lines = mat.splitlines()
    heads = [lines[i + 1] for i, l in enumerate(lines) if l.startswith(" Game ")]
    assert len(heads) == rep.match.game
    for h in heads:
        assert h.isprintable() and h.split(" : ")[0].strip() == written


def test_a_newline_in_a_name_never_reaches_a_mat_and_verify_takes_the_export(tmp_path):
    _check_export(tmp_path, "Ann\nBob : 3", cli=True)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_export_to_mat_keeps_any_name_on_its_line(tmp_path, name):
    _check_export(tmp_path, name, cli=False)


def test_plain_names_export_as_before():
    assert [matfile.mat_name(n, 0) for n in ("Ann", "bot:6", "Bob Smith", "Jos\u00e9")] == \
        ["Ann", "bot6", "Bob_Smith", "Jos\u00e9"]


# ---- random and mutated input: a ValueError, never another exception ---------------------------

@given(st.one_of(st.text(max_size=30), st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijk"
                                                   "lmnopqrstuvwxyz0123456789+/=", max_size=20)))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_position_from_id_is_a_position_or_a_value_error(text):
    try:
        pos = Position.from_id(text)
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
    else:
        assert Position.from_id(pos.id()) == pos


@given(st.data())
@settings(max_examples=300, deadline=None, derandomize=True)
def test_mutated_position_ids(data):
    pid = Position.initial().apply(Position.initial().plays(3, 1)[0]).id()
    chars = list(pid)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(chars) - 1))
        chars[i] = data.draw(st.sampled_from("ABCDgw/+=A9\x00 é"))
    try:
        Position.from_id("".join(chars))
    except ValueError:
        pass


@given(st.text(alphabet="0123456789/*() barof\t-", max_size=40) | st.text(max_size=20),
       st.integers(-1, 8), st.integers(-1, 8))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_parse_play_is_a_play_or_a_value_error(text, d1, d2):
    pos = Position.initial()
    try:
        play = pos.parse_play(text, d1, d2)
    except ValueError as e:
        assert str(e)
    else:
        assert play is None or play in pos.plays(d1, d2)


def _mutate(data, text):
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(st.sampled_from(["set", "insert", "delete", "digits"]))
        i = data.draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "set" and chars:
            chars[i] = data.draw(st.sampled_from(list(" :\n0123456789%|=x\x1b\u202e/*")))
        elif op == "insert":
            chars.insert(i, data.draw(st.sampled_from(["\n", " ", ":", "Game 1", " point match",
                                                       "Doubles =>", "Wins", "%", "9" * 30])))
        elif op == "delete" and chars:
            del chars[i:i + data.draw(st.integers(1, 40))]
        else:
            chars.insert(i, "9" * data.draw(st.integers(5, 5000)))
    return "".join(chars)


@pytest.fixture(scope="module")
def samples():
    rec = play_record(Rules(MATCH, 3), random.Random(11), ("Ann", "Bob"))
    money = play_record(Rules(MONEY), random.Random(12), ("Ann", "Bob"))
    rep, _, _ = replay(rec)
    return rec, money, matfile.write(rep)


@given(st.data())
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_mutated_mat_files_are_read_or_refused_with_a_value_error(samples, data):
    text = _mutate(data, samples[2])
    try:
        matfile.replay_mat(text)
    except (matfile.MatError, RecordError) as e:
        msg = str(e)
        assert msg and "\n" not in msg and msg.isprintable(), msg


@given(st.data())
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_mutated_records_are_read_or_refused_with_a_value_error(samples, data):
    # mutate the payloads, then chain them again as a forger would: the replay must refuse
    # what the rules do not allow, with a RecordError
    src = samples[data.draw(st.integers(0, 1))]
    payloads = [l.rsplit("|", 1)[0] for l in src.splitlines()]
    text = _mutate(data, "\n".join(payloads))
    try:
        replay(_record(*[p for p in text.split("\n")]))
    except RecordError as e:
        assert str(e) and "\n" not in str(e)


# ---- the same reader on MicroPython -----------------------------------------------------------

def test_record_header_is_linear_on_micropython(mpy_lib):
    base = 8000
    out = run_micropython(HERE / "mp" / "record_header.py", str(base), str(base * GROWTH),
                          heap="4m", lib=mpy_lib, timeout=120)
    assert out.returncode == 0, out.stderr + out.stdout
    rows = [l.split() for l in out.stdout.splitlines()]
    assert [r[0] for r in rows] == ["ab", "%41", "%_"]
    for unit, small, big in rows:
        ratio = int(big) / max(int(small), 100)
        print("MicroPython header %s: %d -> %d characters: %s -> %s us (%.1fx)"
              % (unit, base, base * GROWTH, small, big, ratio))
        assert ratio < LINEAR_AT_MOST, (unit, small, big)


def test_verify_and_games_show_a_hostile_player_name_escaped(tmp_path, capsys):
    # a record's player names reach the terminal only through bgboard.safetext
    from bgboard.cli import main
    from fake_board import HOSTILE_MARKS, HOSTILE_TEXT
    f = tmp_path / "g.bgr"
    # seed 1: Bob wins, so Ann's name shows twice (verify's line, the table's players)
    f.write_text(play_record(Rules(MATCH, 1), random.Random(1), ("Ann" + HOSTILE_TEXT, "Bob")))
    assert main(["verify", str(f)]) == 0
    assert main(["games", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "Ann\\x1b]0;owned\\x07" in out.out and out.out.count("Ann\\x1b") == 2, out.out
    for mark in HOSTILE_MARKS:
        assert mark not in out.out and mark not in out.err, mark
