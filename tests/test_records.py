"""Game records: bot-against-bot records replay and verify; torn, altered and malformed files
are named precisely; the same replay runs on MicroPython."""

import json
import re
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bgcore.match import Rules, MATCH, MONEY, NOCUBE
from bgcore.record import RecordError, replay
from bgboard.games import play_record
from conftest import run_micropython

HERE = Path(__file__).parent


def bgboard(*args):
    return subprocess.run([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def match_text():
    return play_record(Rules(MATCH, 5), random.Random(5), ("Ann", "Bob Smith"), start="2026-11-29")


def test_selfplay_writes_records_that_verify(tmp_path):
    r = bgboard("selfplay", "--match", 3, "--seed", 1, "--out", tmp_path / "m")
    assert r.returncode == 0, r.stderr
    r = bgboard("selfplay", "--games", 3, "--cube", "--seed", 2, "--out", tmp_path / "g")
    assert r.returncode == 0, r.stderr
    files = sorted((tmp_path / "g").iterdir())
    assert [f.name for f in files] == ["game-001.bgr", "game-002.bgr", "game-003.bgr"]
    for f in files + list((tmp_path / "m").iterdir()):
        v = bgboard("verify", f, "--json")
        assert v.returncode == 0, v.stdout + v.stderr
        out = json.loads(v.stdout)
        assert out["ok"] and out["error"] is None and len(out["position"]) == 14
        assert set(out) == {"ok", "players", "score", "games", "position", "error"}


def test_replay_rebuilds_the_match(match_text):
    rep, info, torn = replay(match_text)
    assert torn is None
    assert info["p1"] == "Bob Smith"
    m = rep.match
    assert m.phase == "match_over" and max(m.score) >= 5
    assert len(rep.history) == m.game


def test_a_torn_last_line_is_dropped_and_reported(match_text, tmp_path):
    lines = match_text.splitlines(True)
    cut = "".join(lines[:40]) + lines[40][:7]         # power cut in the middle of line 41
    rep, info, torn = replay(cut)
    assert "line 41" in torn
    full, _, _ = replay("".join(lines[:40]))
    assert rep.match.pos == full.match.pos and rep.match.score == full.match.score
    f = tmp_path / "torn.bgr"
    f.write_text(cut)
    v = bgboard("verify", f)
    assert v.returncode == 0 and "line 41 is incomplete" in v.stdout


@pytest.mark.parametrize("change", ["alter", "remove", "swap"])
def test_changed_lines_are_detected(match_text, tmp_path, change):
    lines = match_text.splitlines(True)
    i = next(k for k, l in enumerate(lines) if l.startswith("MOVE") and k > 20)
    if change == "alter":
        lines[i] = lines[i][:5] + ("1" if lines[i][5] == "0" else "0") + lines[i][6:]
    elif change == "remove":
        del lines[i]
    else:
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    with pytest.raises(RecordError) as e:
        replay("".join(lines))
    assert e.value.line == i + 1
    f = tmp_path / "changed.bgr"
    f.write_text("".join(lines))
    v = bgboard("verify", f)
    assert v.returncode == 1 and "line %d" % (i + 1) in v.stderr and "integrity" in v.stderr


def test_an_illegal_move_with_a_valid_check_is_refused(match_text):
    # Rewrite a play (and recompute every check, as a forger would): the rules catch it.
    from bgcore.record import Writer
    lines = [l.rsplit("|", 1)[0] for l in match_text.splitlines()]
    i = next(k for k, l in enumerate(lines) if l.startswith("MOVE 1 ") and k > 10)
    lines[i] = lines[i].split()[0] + " 1 24/1"
    w = Writer()
    forged = "".join(w.line(l) for l in lines)
    with pytest.raises(RecordError) as e:
        replay(forged)
    assert e.value.game == 1 and e.value.line == i + 1
    assert "24/1" in e.value.where()


def test_malformed_files_get_clear_messages(tmp_path):
    cases = {
        "empty.bgr": (b"", "empty|no ' N point match'"),
        "binary.mat": (b"\xff\xfe\x00garbage", "not a text file"),
        "junk.mat": (b"hello world\n", "N point match"),
        "bad-move.mat": (b" 1 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5 x/y\n",
                         "line 5"),
    }
    for name, (data, why) in cases.items():
        f = tmp_path / name
        f.write_bytes(data)
        for cmd in (["verify", f], ["export", f, "--format", "mat"]):
            r = bgboard(*cmd)
            assert r.returncode == 1, (name, r.stdout)
            assert str(f) in r.stderr and any(w in r.stderr for w in why.split("|")), r.stderr
            assert "Traceback" not in r.stderr
    r = bgboard("verify", tmp_path / "missing.bgr", "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["ok"] is False


def test_exports(match_text, tmp_path):
    f = tmp_path / "m.bgr"
    f.write_text(match_text)
    for fmt in ("mat", "sgf", "json"):
        out = tmp_path / ("m." + fmt)
        r = bgboard("export", f, "--format", fmt, "-o", out)
        assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "m.json").read_text())
    rep, _, _ = replay(match_text)
    assert data["score"] == rep.match.score and len(data["games"]) == rep.match.game
    assert (tmp_path / "m.sgf").read_text().count("(;FF[4]GM[6]") == rep.match.game
    mat = (tmp_path / "m.mat").read_text()
    assert " 5 point match" in mat and "Bob_Smith" in mat
    v = bgboard("verify", tmp_path / "m.mat", "--json")
    assert json.loads(v.stdout)["score"] == rep.match.score


def test_replay_on_micropython_matches_cpython(tmp_path, mpy_lib):
    for i, rules in enumerate((Rules(MATCH, 5), Rules(MONEY, jacoby=True), Rules(NOCUBE))):
        text = play_record(rules, random.Random(20 + i), ("A", "B"))
        f = tmp_path / ("r%d.bgr" % i)
        f.write_text(text[:-30])                          # with a torn last line, too
        rep, _, torn = replay(text[:-30])
        out = run_micropython(HERE / "mp" / "replay.py", str(f), heap="96k", lib=mpy_lib)
        assert out.returncode == 0, out.stdout + out.stderr
        m = rep.match
        assert out.stdout.split() == [m.pos.id(), m.match_id(), str(m.score[0]),
                                      str(m.score[1]), str(torn is not None)]


def test_json_reads_back_and_is_checked(match_text, tmp_path):
    """bgboard's JSON is read as well as written: replayed with the rules, it verifies with
    the record's score and re-exports byte for byte; a move, a result or a final score changed
    in it is named."""
    from bgboard import jsonfile
    from bgboard.games import FileError, load
    f = tmp_path / "m.bgr"
    f.write_text(match_text)
    assert bgboard("export", f, "--format", "json", "-o", tmp_path / "m.json").returncode == 0
    text = (tmp_path / "m.json").read_text()
    rep, _, _ = replay(match_text)
    ld = load(tmp_path / "m.json")
    assert ld.kind == "json" and ld.replay.match.score == rep.match.score
    assert ld.replay.match.match_id() == rep.match.match_id() and jsonfile.write(ld) == text
    v = bgboard("verify", tmp_path / "m.json", "--json")
    assert v.returncode == 0 and json.loads(v.stdout)["score"] == rep.match.score
    data = json.loads(text)
    move = next(i for i, a in enumerate(data["games"][0]["actions"])
                if a["type"] == "move" and a["moves"] and i > 4)
    bad = json.loads(text)
    bad["games"][0]["actions"][move]["moves"][0] = [3, 24]          # backwards
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(FileError, match="game 1 move \\d+: "):
        load(tmp_path / "bad.json")
    bad = json.loads(text)
    bad["games"][0]["result"]["winner"] = 1 - bad["games"][0]["result"]["winner"]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(FileError, match="the file says player"):
        load(tmp_path / "bad.json")
    bad = json.loads(text)
    bad["score"] = [9, 9]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(FileError, match="final score \\[9, 9\\]"):
        load(tmp_path / "bad.json")
    (tmp_path / "bad.json").write_text('{"format": "bgboard-json", "version": 1}')
    v = bgboard("verify", tmp_path / "bad.json")
    assert v.returncode == 1 and "not bgboard's JSON: a part is missing" in v.stderr


def test_sgf_reads_back_and_is_checked(match_text, tmp_path):
    """Our .sgf is read as well as written: replayed, it gives the record's score, position and
    Match ID; a move changed in it, or a result, is named; a file that is no backgammon SGF is
    said to be so."""
    from bgboard.games import FileError, load
    f = tmp_path / "m.bgr"
    f.write_text(match_text)
    assert bgboard("export", f, "--format", "sgf", "-o", tmp_path / "m.sgf").returncode == 0
    text = (tmp_path / "m.sgf").read_text()
    rep, _, _ = replay(match_text)
    ld = load(tmp_path / "m.sgf")
    assert ld.kind == "sgf" and ld.replay.match.score == rep.match.score
    assert ld.replay.match.match_id() == rep.match.match_id()
    assert ld.replay.match.pos == rep.match.pos and ld.replay.players == ["Ann", "Bob Smith"]
    v = bgboard("verify", tmp_path / "m.sgf", "--json")
    assert v.returncode == 0 and json.loads(v.stdout)["score"] == rep.match.score
    # the third move of the first game goes backwards
    nodes = text.split(";")
    k = [i for i, n in enumerate(nodes) if n[:2] in ("W[", "B[") and n[2:4].isdigit()][2]
    nodes[k] = nodes[k][:4] + nodes[k][5] + nodes[k][4] + nodes[k][6:]
    (tmp_path / "bad.sgf").write_text(";".join(nodes))
    with pytest.raises(FileError, match="game 1 move [23]: step .* from higher to lower"):
        load(tmp_path / "bad.sgf")
    first = text.split(")\n", 1)[0]
    won = re.search(r"RE\[([WB])\+(\d+)\]", first)
    (tmp_path / "bad.sgf").write_text(text.replace(won.group(0), "RE[%s+%s]" % (
        "BW"["WB".index(won.group(1))], won.group(2)), 1))
    with pytest.raises(FileError, match="game 1 move \\d+: the file says"):
        load(tmp_path / "bad.sgf")
    for bad, why in (("(;FF[4]GM[1]SZ[19];B[pd])", "not a backgammon file"),
                     ("(;FF[4]GM[6]MI[length:3];W[21mk", "not closed"),
                     ("(;FF[4]GM[6];W[9zz])", "W[9zz] is not a move")):
        (tmp_path / "bad.sgf").write_text(bad)
        r = bgboard("verify", tmp_path / "bad.sgf")
        assert r.returncode == 1 and why in r.stderr and "Traceback" not in r.stderr, r.stderr
