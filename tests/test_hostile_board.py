"""`bgboard` against a hostile fake board (tests/fake_board.py on a pty, real pyserial): names
that lead out of the archive, a board id and a profile name that are paths, floods of lines, a
line without its end, a 10 GB record, escape sequences in every text field. Each case must end
within a bound with a one-line error, write nothing outside its folder, keep the process small
and print no raw control character: the name rule (bgboard.names), the bounds (docs/protocol.md)
and the terminal-safe text (bgboard.safetext) at work in protocol/logs/archive/watch/devices."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fake_board
from fake_board import BOARD_ID, GOOD_NAME, HOSTILE_MARKS

HERE = Path(__file__).parent
BOUND = 8            # seconds a case may take, Python's start-up included
MEMORY_MB = 200      # the most the client may grow to (a flood grew it to 1.5 GB)


@pytest.fixture(scope="module")
def good_bytes():
    return fake_board.good_record()


class Fake:
    """tests/fake_board.py running CASE on a link in the test's folder."""

    def __init__(self, tmp_path, case):
        self.link = str(tmp_path / "port")
        self.proc = subprocess.Popen([sys.executable, str(HERE / "fake_board.py"), "--link",
                                      self.link, "--case", case, "--base", str(tmp_path)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready = self.proc.stdout.readline()     # waits for the link to exist
        assert ready.strip() == "READY", self.proc.stderr.read()

    def stop(self):
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def fake(tmp_path, request):
    boards = []

    def start(case):
        boards.append(Fake(tmp_path, case))
        return boards[-1]
    yield start
    for b in boards:
        b.stop()


class Run:
    def __init__(self, rc, out, err, seconds, max_rss_mb):
        self.rc, self.out, self.err = rc, out, err
        self.seconds, self.max_rss_mb = seconds, max_rss_mb

    def __repr__(self):
        return "rc=%s in %.1f s, %.0f MB\nstdout: %r\nstderr: %r" % (
            self.rc, self.seconds, self.max_rss_mb, self.out[-600:], self.err[-600:])


def bgboard(tmp_path, *args, bound=BOUND, cwd=None):
    """Run `bgboard ARGS` with its own data folder; stopped (rc None) after `bound` seconds.
    Returns its exit code, output, time taken and peak memory (from wait4's rusage)."""
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_RUNTIME_DIR"] = str(tmp_path / "run")
    out_f = open(tmp_path / "client.out", "w+b")
    err_f = open(tmp_path / "client.err", "w+b")
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "bgboard.cli"] + [str(a) for a in args],
                         stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f, env=env,
                         cwd=cwd or tmp_path, start_new_session=True)
    rc = None
    usage = None
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            rc = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() - t0 > bound:
            os.killpg(p.pid, 9)
            _, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.05)
    p.returncode = rc if rc is not None else -9
    seconds = time.monotonic() - t0
    out_f.seek(0)
    err_f.seek(0)
    out = out_f.read().decode("utf-8", "replace")
    err = err_f.read().decode("utf-8", "replace")
    out_f.close()
    err_f.close()
    return Run(rc, out, err, seconds, usage.ru_maxrss / 1024)


def files_under(folder):
    return {p for p in Path(folder).rglob("*")}


def assert_clean(run, refused):
    """Ended within the bound, small, no traceback, no raw control character; when REFUSED, a
    non-zero exit with a short error."""
    assert run.rc is not None, "did not end within %d s: %r" % (BOUND, run)
    assert run.max_rss_mb < MEMORY_MB, run
    assert "Traceback" not in run.err, run
    for mark in HOSTILE_MARKS:
        assert mark not in run.out and mark not in run.err, (mark, run)
    if refused:
        assert run.rc != 0 and run.err.strip(), run
        assert all(len(line) < 400 for line in run.err.splitlines()), run


def assert_nothing_outside(tmp_path, before, allowed):
    """No file or folder appeared under tmp_path except inside ALLOWED (and the client's own
    output files)."""
    allowed = [Path(a).resolve() for a in allowed]
    new = files_under(tmp_path) - before
    stray = [p for p in new
             if p.name not in ("client.out", "client.err")
             and not any(a == p.resolve() or a in p.resolve().parents for a in allowed)
             and not any(p.resolve() in a.parents for a in allowed)]
    assert not stray, "written outside %s: %s" % (allowed, sorted(map(str, stray)))


# ---- the control: the fake board is a board, and today's client works with it ------------------

def test_a_good_fake_board_is_pulled_listed_and_watched(tmp_path, fake, good_bytes):
    board = fake("good")
    out = tmp_path / "out"
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link, "--out", out)
    assert_clean(run, refused=False)
    assert run.rc == 0 and (out / GOOD_NAME).read_bytes() == good_bytes, run
    run = bgboard(tmp_path, "logs", "list", "--port", board.link)
    assert_clean(run, refused=False)
    assert run.rc == 0 and GOOD_NAME in run.out and BOARD_ID in run.out, run
    run = bgboard(tmp_path, "devices", "--port", board.link)
    assert run.rc == 0 and BOARD_ID in run.out and "reference" in run.out, run
    run = bgboard(tmp_path, "watch", "--port", board.link, "--once")
    assert_clean(run, refused=False)
    assert run.rc == 0 and "rolls 5-2" in run.out, run
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link)      # into the archive
    assert run.rc == 0, run
    archived = tmp_path / "data" / "bgboard" / "archive" / BOARD_ID / GOOD_NAME
    assert archived.read_bytes() == good_bytes


# ---- names from the board ---------------------------------------------------------------------

NAME_CASES = [
    "name-dotdot",
    "name-absolute",
    "name-slash",
    "name-dot",
    "name-dotdot-bare",
    "name-tilde",
    "name-suffix",
    "name-long",
]


@pytest.mark.parametrize("case", NAME_CASES)
def test_record_names_that_break_the_rule_are_refused(tmp_path, fake, case, good_bytes):
    # the hostile record is refused (exit 1, one line), the board's other record pulled
    board = fake(case)
    out = tmp_path / "pull" / "out"
    out.mkdir(parents=True)
    before = files_under(tmp_path)
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link, "--out", out)
    assert_nothing_outside(tmp_path, before, [out])
    assert_clean(run, refused=True)
    assert [p.name for p in out.iterdir() if p.name != GOOD_NAME] == [], run
    assert (out / GOOD_NAME).read_bytes() == good_bytes, run


@pytest.mark.parametrize("case", [
    "board-dotdot",
    "board-absolute",
])
def test_a_board_id_that_is_a_path_is_refused(tmp_path, fake, case):
    board = fake(case)
    archive = tmp_path / "data" / "bgboard" / "archive"
    before = files_under(tmp_path)
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link)
    assert_nothing_outside(tmp_path, before, [archive])
    assert_clean(run, refused=True)
    assert "board id" in run.err, run


def test_watch_uses_only_the_projects_profiles(tmp_path, fake):
    board = fake("profile-path")
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notprofile.json").write_text('{"name": "mine", "panel": {}}')
    run = bgboard(tmp_path, "watch", "--port", board.link, "--once", cwd=work)
    assert_clean(run, refused=False)
    assert run.rc == 0 and "rolls 5-2" in run.out, run
    assert "drawn as the reference board" in run.out and "not a known board profile" in run.out


# ---- what a board sends without end -------------------------------------------------------------

@pytest.mark.parametrize("case, bound", [
    ("flood-bang", BOUND),
    ("flood-data", BOUND),
    ("no-newline", 20),
    ("huge-size", BOUND),
])
def test_a_transfer_that_never_ends_is_given_up(tmp_path, fake, case, bound):
    board = fake(case)
    out = tmp_path / "out"
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link, "--out", out, bound=bound)
    assert run.rc is not None, "did not end within %d s: %r" % (bound, run)
    assert_clean(run, refused=True)
    part = out / (GOOD_NAME + ".part")
    assert not part.exists() or part.stat().st_size <= 1_400_000, part.stat().st_size


def test_watch_gives_up_on_a_line_without_end(tmp_path, fake):
    board = fake("long-line")
    run = bgboard(tmp_path, "watch", "--port", board.link, "--once")
    assert_clean(run, refused=True)


# ---- escape sequences in every text field ------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["devices"],
    ["logs", "list"],
    ["logs", "pull"],
    ["watch", "--once"],
])
def test_escape_sequences_never_reach_the_terminal(tmp_path, fake, command):
    board = fake("escapes")
    archive = tmp_path / "data" / "bgboard" / "archive"
    before = files_under(tmp_path)
    run = bgboard(tmp_path, *command, "--port", board.link)
    assert_nothing_outside(tmp_path, before, [archive])
    assert_clean(run, refused=False)


def test_watch_skips_led_frames_that_are_not_frames(tmp_path, fake):
    board = fake("bad-led")
    run = bgboard(tmp_path, "watch", "--port", board.link, "--once")
    assert_clean(run, refused=False)
    assert run.rc == 0 and "rolls 5-2" in run.out, run


# ---- the command line's own edges ---------------------------------------------------------------

def test_a_port_that_does_not_exist_is_one_line(tmp_path):
    run = bgboard(tmp_path, "devices", "--port", tmp_path / "nope")
    assert_clean(run, refused=True)
    assert run.out == "" and run.err.count("\n") == 1 and "nope" in run.err, run


def test_logs_list_into_a_closed_pipe_ends_quietly(tmp_path, fake):
    # `bgboard logs list | head -0`: the reader is gone before the first line is written
    board = fake("good")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_RUNTIME_DIR=str(tmp_path / "run"))
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        p = subprocess.run([sys.executable, "-m", "bgboard.cli", "logs", "list", "--port",
                            board.link], stdout=write_end, stderr=subprocess.PIPE, env=env,
                           timeout=BOUND, text=True)
    finally:
        os.close(write_end)
    assert p.returncode != 0 and "Traceback" not in p.stderr and "Broken" not in p.stderr, \
        p.stderr


@pytest.mark.parametrize("kind", ["link-out", "link-in", "folder"])
def test_a_part_file_that_is_not_a_plain_file_is_not_consumed(tmp_path, fake, kind,
                                                              good_bytes):
    # an existing NAME.part is resumed only when it is a plain file inside the folder
    board = fake("good")
    out = tmp_path / "out"
    out.mkdir()
    part = out / (GOOD_NAME + ".part")
    outside = tmp_path / "outside.txt"
    outside.write_bytes(good_bytes[:100])
    if kind == "link-out":
        os.symlink(outside, part)
    elif kind == "link-in":
        (out / "other").write_bytes(good_bytes[:100])
        os.symlink(out / "other", part)
    else:
        part.mkdir()
    run = bgboard(tmp_path, "logs", "pull", "--port", board.link, "--out", out)
    assert_clean(run, refused=True)
    assert outside.read_bytes() == good_bytes[:100]
    assert not (out / GOOD_NAME).exists() and os.path.lexists(part), run


# ---- the protocol client's bounds, in memory (no pty: each case in well under a second) -------

def _client(answer_lines, endless=b""):
    """A client whose board answers every request with ANSWER_LINES, then sends ENDLESS for as
    long as it is read."""
    from bgboard.protocol import Client
    from bgboard.transport import MemoryTransport

    class Endless(MemoryTransport):
        def read(self, timeout):
            if endless and len(self.incoming) < 4096:
                self.feed(endless * (4096 // len(endless) + 1))
            return MemoryTransport.read(self, timeout)

    def respond(link, data):
        link.feed(b"".join(line.encode() + b"\r\n" for line in answer_lines))
    return Client(Endless(respond, piece=4096), name="fake")


@pytest.mark.parametrize("answer, endless, said", [
    ([], b"LOG x.bgr 1 " + b"0" * 64 + b"\r\n", "no answer to STATE"),      # strays without end
    ([], b"\r\n", "blank lines in a row"),
    ([], b"!EV x\r\n", "'!' or blank lines in a row"),
    ([], b"x" * 1000, "longer than 8192 bytes"),
])
def test_an_answer_that_never_comes_is_a_bounded_fault(answer, endless, said):
    from bgboard.protocol import Flooded
    c = _client(answer, endless)
    t0 = time.monotonic()
    with pytest.raises(Flooded) as e:
        c.request("STATE", timeout=1.0)
    assert said in str(e.value) and time.monotonic() - t0 < 5
    assert len(c.events) <= 64 and len(c.stray) <= 20


def test_a_listing_or_a_record_larger_than_a_board_is_refused():
    from bgboard.protocol import Flooded, RECORD_MAX
    with pytest.raises(Flooded, match="more than its flash can hold"):
        _client(["LOGS 100000"], b"").logs()
    c = _client(["FILE 0001.bgr %d %s" % (RECORD_MAX + 1, "0" * 64)])
    got = []
    with pytest.raises(Flooded, match="more than a board's flash holds"):
        c.get("0001.bgr", sink=got.append)
    assert got == []


def test_a_d_line_beyond_the_declared_size_is_damage():
    import base64
    from bgboard.protocol import Garbled
    chunk = base64.b64encode(b"abcdef").decode()
    c = _client(["FILE 0001.bgr 4 " + "0" * 64, "D 0 " + chunk, "END 0001.bgr 6"])
    got = []
    with pytest.raises(Garbled):
        c.get("0001.bgr", sink=got.append)
    assert got == []


def test_a_transfer_past_its_time_is_given_up(tmp_path, fake, monkeypatch):
    # the whole transfer of a record has a time bound (60 s + 1 s per KB); here it is set in
    # the past, so the first chunk already passes it
    from bgboard import logs
    from bgboard.protocol import Flooded
    board = fake("good")
    monkeypatch.setattr(logs, "TRANSFER_SECONDS", -60)
    out = tmp_path / "out"
    puller = logs.Puller(board.link, out=out, show=False)
    with pytest.raises(Flooded, match="takes longer than"):
        puller.run()
    assert puller.board is None           # the pull that gave up freed its port
    assert not (out / GOOD_NAME).exists()
