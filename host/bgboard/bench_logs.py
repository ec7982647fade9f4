"""`bgboard bench logs`: how fast records come off a board over the serial protocol (GET,
base64 lines, sha256-verified: `bgboard logs pull`) against `mpremote fs cp` of the same files,
in the same run, on the same board. Without --port it starts a virtual board of its own with
records written by bot-against-bot play. Prints both rates and their ratio (a figure, not a
test)."""

import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgboard import paths, vboard
from bgboard.link import Board, LinkError
from bgboard.logs import Puller


def _records_image(image, count=40, seed=7):
    """A board image with the firmware and COUNT records (about 200 KB) in /data."""
    import random
    from bgcore.match import MATCH, Rules
    from bgboard.games import play_record
    vboard.install(image, "reference")
    fs = vboard.open_image(image)
    fs.makedirs("/data", exist_ok=True)
    rng = random.Random(seed)
    for i in range(count):
        text = play_record(Rules(MATCH, 3), rng, ("Bot1A", "Bot1B"), start="2026-01-01T00:00:00",
                           level=1)
        with fs.open("/data/%04d.bgr" % (100 + i), "wb") as f:
            f.write(text.encode())
    vboard.save_image(fs, image)


def _start_vboard(tmp):
    link = Path(tmp) / "link"
    image = Path(tmp) / "flash.img"
    print("making a virtual board with records ...", file=sys.stderr)
    _records_image(image)
    return str(link), vboard.launch(link, image)


def measure(port, work, limit=None):
    """(protocol seconds, mpremote seconds, bytes, names) for the board's finished records (the
    first LIMIT of them); both copies checked equal to the board's sha256."""
    with Board(port) as b:
        b.hello()
        logs = {n: v for n, v in b.logs().items() if not v[2]}
    names = sorted(logs)[:limit]
    logs = {n: logs[n] for n in names}
    total = sum(logs[n][0] for n in names)
    ours = Path(work) / "protocol"
    theirs = Path(work) / "mpremote"
    theirs.mkdir(parents=True)
    p = Puller(port, out=ours, show=False, only=set(names))
    t0 = time.monotonic()
    p.run()
    t_ours = time.monotonic() - t0
    mp = paths.tool("mpremote")
    cmd = [mp, "connect", port, "fs", "cp"] + [":/data/" + n for n in names] + [str(theirs) + "/"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t_mp = time.monotonic() - t0
    if r.returncode != 0:
        raise LinkError("mpremote fs cp failed: %s" % r.stderr.strip()[-300:])
    # mpremote leaves the board at its REPL: HELLO restarts the firmware from there
    with Board(port) as b:
        b.hello()
    for n in names:
        a = (ours / n).read_bytes()
        if a != (theirs / n).read_bytes() or hashlib.sha256(a).hexdigest() != logs[n][1]:
            raise LinkError("%s differs between the two copies" % n)
    return t_ours, t_mp, total, names


def run(port=None):
    proc = None
    tmp = tempfile.mkdtemp(prefix="bgboard-bench-logs-")
    try:
        if port is None:
            port, proc = _start_vboard(tmp)
        t_ours, t_mp, total, names = measure(port, Path(tmp) / "out")
        kb = total / 1024
        print("%d records, %.1f KB, on %s" % (len(names), kb, port))
        print("bgboard logs pull (protocol, sha256-verified): %6.2f s  %7.1f KB/s"
              % (t_ours, kb / t_ours))
        print("mpremote fs cp (raw REPL):                     %6.2f s  %7.1f KB/s"
              % (t_mp, kb / t_mp))
        print("ratio: the protocol is %.1fx the speed of mpremote fs cp" % (t_mp / t_ours))
        return 0
    finally:
        if proc is not None:
            vboard.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
