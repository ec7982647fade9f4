"""Watchdog feeds inside the board's long jobs. The board's journal resumes a long record reading it once and feeding the watchdog inside
(on an RP2040 a long money session's replay outlasts the watchdog's 8 s), and the chain goes on
from the last whole line whether or not a power cut tore the last one (found while bounding the
start-up replay for the soak). Runs the journal on MicroPython."""

import random

import pytest

from bgboard.games import play_record
from bgcore.match import Rules, MONEY
from bgcore.record import replay
from conftest import run_micropython

from pathlib import Path

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def session():
    return play_record(Rules(MONEY, jacoby=True), random.Random(3), ("Ann", "Bob"), games=3)


@pytest.mark.parametrize("tear", [0, 3, 12, -1])
def test_resume_reads_once_feeds_and_goes_on_after_the_last_whole_line(tmp_path, mpy_lib,
                                                                       session, tear):
    # tear: 0 nothing torn; 3 the last line cut in its check; 12 cut before its '|';
    # -1 a line cut right after its first character
    lines = session.splitlines(keepends=True)
    text = session
    if tear == -1:
        text = session + "G"
    elif tear:
        text = session + lines[-1][:-tear]     # a copy of the last line, cut short
    data = tmp_path / "data"
    data.mkdir()
    (data / "0001.bgr").write_text(text)
    games = sum(1 for ln in lines if ln.startswith("GAME "))
    r = run_micropython(HERE / "mp" / "journal_resume.py", str(data), "0001.bgr",
                        "GAME %d" % (games + 1), heap="192k", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    out = dict(line.split(" ", 1) for line in r.stdout.strip().splitlines())
    assert int(out["feeds"]) >= len(lines) // 32 >= 3           # fed inside the replay
    assert (out["torn"] == "None") == (tear == 0)
    assert out["played"] == "1"
    after = (data / "0001.bgr").read_text()
    assert after.startswith(session) and after[len(session):].startswith("GAME %d|" % (games + 1))
    rep, info, torn = replay(after, history=False)              # one chain, nothing torn
    assert torn is None and rep.match.game == games + 1


def test_the_bot_feeds_the_watchdog_while_it_scores_a_roll():
    """Found by the soak: a level-6 move in a demo was the longest gap between feeds (44 ms of
    CPU on the unix port, x200 = 8.9 s, past the RP2040's 8 s): the bot now calls its tick (the
    board's feed) every 16 plays it scores (level 6's look ahead too: every 16 plays of a reply
    and after each roll)."""
    from bgcore import Position
    from bgcore.bot import Bot
    pos = Position.initial()
    plays = max((pos.plays(d, d) for d in range(1, 7)), key=len)
    d = next(d for d in range(1, 7) if len(pos.plays(d, d)) == len(plays))
    bot = Bot(6, seed=1)
    calls = []
    bot.tick = lambda: calls.append(1)
    bot.choose(pos, d, d)
    assert len(plays) >= 32 and len(calls) >= len(plays) // 16
    # a level that never looks ahead: a tick for every 16 plays of the roll, no more
    calls.clear()
    bot = Bot(5, seed=1)
    bot.tick = lambda: calls.append(1)
    bot.choose(pos, d, d)
    assert len(calls) == len(plays) // 16


def test_settings_move_out_of_the_records_folder(tmp_path, mpy_lib):
    """Boards before kept settings.json among the records: it is read from there once and
    written to /data/conf from then on (the old file removed), nothing lost."""
    import json
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"mode": "money", "next": 7, "tutor": 80}))
    code = ("from bgapp.journal import Journal\n"
            "class Hal:\n    data_dir = %r\n    def feed(self): pass\n"
            "    def sync(self): pass\n"
            "j = Journal(Hal())\nprint(j.settings['mode'], j.settings['next'])\n"
            "j.save_settings()\nprint(Journal(Hal()).settings['tutor'])\n" % str(data))
    script = tmp_path / "move.py"
    script.write_text(code)
    r = run_micropython(script, heap="192k", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    assert r.stdout.split() == ["money", "7", "80"]
    assert not (data / "settings.json").exists()
    assert json.loads((data / "conf" / "settings.json").read_text())["next"] == 7


def test_a_settings_write_on_a_full_flash_costs_few_block_reads(tmp_path, mpy_lib):
    """Found chasing the soak's longest watchdog gap (240 ms of unix-port CPU): on a flash full
    of records, rewriting settings.json in the records' folder made littlefs compact that folder
    (73,000 block reads; 1.3 s on the emulated RP2040). In a folder of its own: a few hundred.
    Block reads on the virtual board's littlefs image, counted, not timed."""
    import json
    from bgboard import vboard
    from bgboard.bench_resume import fill_image
    session = play_record(Rules(MONEY, jacoby=True), random.Random(3), ("Ann", "Bob"), level=1,
                          games=2)
    image = tmp_path / "flash.img"
    vboard.new_image(image)
    fill_image(image, session)
    r = run_micropython(HERE / "mp" / "flash_probe.py", "0001.bgr", "0002.bgr", str(image),
                        heap="240k", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    f = json.loads(r.stdout.strip().splitlines()[-1])
    print("settings written on a full flash: %d block reads (a statvfs: %d)"
          % (f["settings_reads"], f["statvfs_reads"]))
    assert f["resume_game"] == 2 and f["statvfs_reads"] > 5000
    assert f["settings_reads"] < 2000


def test_settings_writes_on_a_nearly_full_flash_take_no_block(tmp_path, mpy_lib):
    """Found chasing the soak's longest watchdog gap late in a run (81 ms of unix-port CPU in a
    settings write, on a board whose flash the demos had filled): the settings file (340 bytes
    written whole) was beyond littlefs's inline limit on the virtual board's mount (128 bytes;
    512 on the rp2 port's), so every write took a new block, and on a flash with two blocks
    free nearly every block taken made littlefs walk every file for free ones (its lookahead
    dry): 25,000 block reads a write, two walks of every file. Written as what differs from
    the defaults, it lives in its folder's metadata: no block taken, no walk (600-2,300 reads,
    the most when littlefs compacts the folder's log). Block reads on the
    virtual board's littlefs image, counted, not timed; the CPU figures printed."""
    import json
    from bgboard import vboard
    from bgboard.bench_resume import fill_image
    session = play_record(Rules(MONEY, jacoby=True), random.Random(3), ("Ann", "Bob"), level=1,
                          games=2)
    image = tmp_path / "flash.img"
    vboard.new_image(image)
    fill_image(image, session, free_blocks=2)
    r = run_micropython(HERE / "mp" / "settings_probe.py", str(image), "40", heap="240k",
                        lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    f = json.loads(r.stdout.strip().splitlines()[-1])
    print("40 settings writes with 2 blocks free: block reads median %d, most %d (a walk of "
          "the files: %d); CPU most %.1f ms, longest feed gap %.1f ms (x200: %.1f s)"
          % (sorted(f["reads"])[20], max(f["reads"]), f["walk_reads"], max(f["us"]) / 1000,
             f["gap_us"] / 1000, f["gap_us"] * 200 / 1e6))
    assert max(f["reads"]) < f["walk_reads"] // 3, " ".join(map(str, f["reads"]))
    assert json.loads(vboard.read_file(image, "/data/conf/settings.json"))["next"] == 3 + 40
