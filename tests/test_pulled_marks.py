"""Records the laptop pulled and verified are marked so on the board (PULLED), which offers to
delete them when its flash runs low (BAR in the menu) and deletes only a record whose sha256,
computed again, still matches its mark (issue #15). Runs the board's code on MicroPython."""

import hashlib
import random

import pytest

from bgboard.games import play_record
from bgcore.match import Rules, MONEY
from conftest import run_micropython

from pathlib import Path

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def record():
    return play_record(Rules(MONEY, jacoby=True), random.Random(4), ("Ann", "Bob"), level=1,
                       games=2).encode()


def test_marks_offer_and_delete_only_what_the_laptop_verified(tmp_path, mpy_lib, record):
    data = tmp_path / "data"
    data.mkdir()
    other = record + b"SIG x|00000000\n"
    (data / "0001.bgr").write_bytes(record)
    (data / "0002.bgr").write_bytes(other)
    (data / "0003.bgr").write_bytes(record)
    digest = hashlib.sha256(record).hexdigest()
    r = run_micropython(HERE / "mp" / "index_drive.py", str(data), digest, heap="192k",
                        lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    out = r.stdout.splitlines()
    blocks, cur = [], []
    for line in out:
        cur.append(line)
        if line.startswith("feeds"):
            blocks.append(cur)
            cur = []
    logs1, logs2, p1, p2, p3, p9, pbad, logs3 = blocks[:8]
    want = ["LOGS 3", "LOG 0001.bgr %d %s" % (len(record), digest),
            "LOG 0002.bgr %d %s" % (len(other), hashlib.sha256(other).hexdigest()),
            "LOG 0003.bgr %d %s" % (len(record), digest)]
    assert logs1[:-1] == want and logs2[:-1] == want
    assert int(logs1[-1].split()[1]) >= 3 * (len(record) // 256)     # fed while hashing
    assert p1[0] == "OK PULLED 0001.bgr"
    assert p2[0].startswith("NO PULLED 0002.bgr 0002.bgr has sha256 ")
    assert p3[0] == "NO PULLED 0003.bgr 0003.bgr is the record of the game in progress"
    assert p9[0] == "ERR nofile no file 0009.bgr on the board"
    assert pbad[0].startswith("ERR args PULLED takes a record name and its sha256")
    assert logs3[1] == want[1] + " pulled" and logs3[2] == want[2] and logs3[3] == want[3]
    rest = out[sum(len(b) for b in blocks[:8]):]
    assert rest[0] == ("room flash nearly full (4 KB free): BAR in the menu deletes 1 record the "
                       "laptop holds (%d KB)" % (len(record) // 1024))
    assert rest[1].startswith("deleted deleted 0 records")           # changed after its mark
    assert "0001.bgr" in rest[2]
    assert rest[3] == rest[0]
    assert rest[4].startswith("deleted deleted 1 record the laptop holds")
    assert rest[5] == "files 0002.bgr 0003.bgr"
    assert rest[6] == ("room flash nearly full (4 KB free): pull the records "
                       "(bgboard logs pull --delete)")
    # DEL refuses the record to resume and takes a finished one LOGS lists closed, though the
    # board still names it (`bgboard logs pull --delete` failed on its "ERR busy")
    assert rest[7] == "ERR busy 0003.bgr is the record of the game in progress"
    assert rest[9] == "OK DEL 0002.bgr"
    assert rest[11] == "files 0003.bgr"


def test_the_free_space_is_looked_up_only_when_the_files_change(tmp_path, mpy_lib):
    """Found chasing the soak's longest watchdog gap: littlefs's statvfs walks every file, and
    the board asked for it at every STATE and twice per menu frame (on a flash full of records
    17-28 ms of unix-port CPU and about 13,000 block reads each)."""
    data = tmp_path / "data"
    data.mkdir()
    r = run_micropython(HERE / "mp" / "journal_free.py", str(data), heap="192k", lib=mpy_lib)
    assert r.returncode == 0, r.stderr + r.stdout
    lines = r.stdout.splitlines()
    looks = dict(line.split() for line in lines[:-1])
    # once for 20 frames, again when a record starts, again at each 4 KB appended (2 here)
    assert looks == {"power-up": "1", "frames": "1", "start": "2", "events": "2", "block": "4"}
    # each walk a gap between watchdog feeds of its own (the soak's STATE gaps held the state's
    # fields, the walk and a collection: 15-17 ms of unix-port CPU, 12 of them the walk)
    fed, _, n = lines[-1].split()[1:]
    assert fed == n == looks["block"]
