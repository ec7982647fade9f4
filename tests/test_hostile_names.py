"""Names and text from a board or a file: the one name rule (record names, board ids, profile
names, paths kept inside their folder) and the one function that makes text terminal-safe."""

import os

import pytest

from bgboard.names import BadName, NAME_MAX, board_id, file_name, inside, profile_name, record_name
from bgboard.paths import profile_names
from bgboard.safetext import for_terminal


@pytest.mark.parametrize("name", ["0001.bgr", "demo-0002.bgr", "a_b.c.bgr", "X" * 36 + ".bgr"])
def test_record_names_the_board_makes_pass(name):
    assert record_name(name) == name


@pytest.mark.parametrize("name, why", [
    ("", "empty"), (".", "dot"), ("..", "dot"), ("../x.bgr", "dot"),
    ("../../../../tmp/escaped.bgr", "dot"), ("/tmp/x/absolute.bgr", "only letters"),
    ("a/b.bgr", "only letters"), ("~/x.bgr", "only letters"), ("a\\b.bgr", "only letters"),
    (".hidden.bgr", "dot"), ("x" * (NAME_MAX - 3) + ".bgr", "longer than 40"),
    ("notes.txt", "does not end in .bgr"), ("0001.bgr.part", "does not end in .bgr"),
    (".bgr", "dot"), ("a b.bgr", "only letters"), ("a\x1b]0;owned\x07.bgr", "only letters"),
    ("caf\u00e9.bgr", "only letters"), ("a\x00.bgr", "only letters"), ("a\n.bgr", "only letters"),
])
def test_record_names_that_fail_the_rule_say_why_on_one_line(name, why):
    with pytest.raises(BadName) as e:
        record_name(name)
    msg = str(e.value)
    assert why in msg and "\n" not in msg and "\x1b" not in msg and "\x00" not in msg
    assert isinstance(e.value, ValueError)


def test_file_name_is_the_rule_without_the_suffix():
    assert file_name("settings.json") == "settings.json"
    with pytest.raises(BadName):
        file_name("..")


@pytest.mark.parametrize("good", ["12eaf73b5c2fd700", "E6614C311B7A9F2B", "0"])
def test_board_ids_are_hex(good):
    assert board_id(good) == good


@pytest.mark.parametrize("bad", ["", "../../../../../esc", "/tmp/abs", "12eaf73b/..", ".",
                                 "g00d", "ab cd", "a" * 33, "12\x1b[2J", "unknown"])
def test_board_ids_that_are_not_hex_are_refused(bad):
    with pytest.raises(BadName) as e:
        board_id(bad)
    assert "board id" in str(e.value) and "\x1b" not in str(e.value)


def test_profiles_are_only_the_projects_own():
    assert {"reference", "minimal"} <= set(profile_names())
    assert profile_name("reference") == "reference"
    for bad in ["../../x/notprofile", "../../x/notprofile.json", "/etc/passwd", "reference.json",
                "hardware/profiles/reference", "", "Reference", "minimal\x1b[2J"]:
        with pytest.raises(BadName) as e:
            profile_name(bad)
        assert "not a known board profile" in str(e.value) and "\x1b" not in str(e.value)


@pytest.mark.parametrize("name", ["..", "../x", "a/../../x", "/etc/passwd", ".", "", "a/..",
                                  "./", "a/../..", "\x00x"])
def test_paths_must_stay_inside_their_folder(tmp_path, name):
    folder = tmp_path / "archive"
    folder.mkdir()
    with pytest.raises(BadName):
        inside(folder, name)


def test_paths_inside_are_resolved(tmp_path):
    folder = tmp_path / "archive"
    (folder / "sub").mkdir(parents=True)
    assert inside(folder, "0001.bgr") == (folder / "0001.bgr").resolve()
    assert inside(folder, "sub/../0002.bgr") == (folder / "0002.bgr").resolve()
    assert inside(folder, "~/x") == (folder / "~" / "x").resolve()     # no home expansion
    # a symbolic link inside the folder that points out of it does not count as inside
    os.symlink(tmp_path, folder / "out")
    with pytest.raises(BadName):
        inside(folder, "out/x.bgr")


def test_plain_text_is_unchanged():
    for text in ["Ann", "bot:6", "Bob Smith", "Jos\u00e9 M\u00fcller", "\u738b\u5c0f\u660e",
                 "a\u00a0b", "", "100%"]:
        assert for_terminal(text) == text


@pytest.mark.parametrize("raw, shown", [
    ("\x1b]0;owned\x07", "\\x1b]0;owned\\x07"),              # window title
    ("\x1b[2J\x1b[3J", "\\x1b[2J\\x1b[3J"),                  # clear screen and scrollback
    ("\x1b]52;c;aGk=\x07", "\\x1b]52;c;aGk=\\x07"),          # clipboard (OSC 52)
    ("\x1b[?1049h", "\\x1b[?1049h"),                          # alternate screen
    ("\x1b]8;;http://x\x1b\\link", "\\x1b]8;;http://x\\x1b\\link"),  # hyperlink
    ("\x9b2J", "\\x9b2J"), ("\x9d0;t\x9c", "\\x9d0;t\\x9c"),  # C1 CSI, OSC, ST
    ("a\x7fb", "a\\x7fb"), ("a\rb\nc\td\x00", "a\\x0db\\x0ac\\x09d\\x00"),
    ("\u202egnp.exe", "\\u202egnp.exe"), ("a\u2066b\u2069", "a\\u2066b\\u2069"),
    ("a\u200bb", "a\\u200bb"), ("a\u2028b", "a\\u2028b"), ("\ud800", "\\ud800"),
])
def test_control_characters_are_shown_escaped(raw, shown):
    out = for_terminal(raw)
    assert out == shown
    assert all(ch.isprintable() for ch in out)


def test_bytes_and_limits():
    assert for_terminal(b"ok\x1b[2J\xff") == "ok\\x1b[2J\\xff"
    long = "x" * 1000 + "\x1b"
    out = for_terminal(long, limit=50)
    assert out == "x" * 50 + "... (951 more characters)"
    assert for_terminal("\x1b" * 10, limit=3) == "\\x1b" * 3 + "... (7 more characters)"
