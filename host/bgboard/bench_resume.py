"""`bgboard bench resume`: what a long record and a full flash cost the board, on the unix port
(CPU time, the virtual board's littlefs image mounted as its shim mounts it) and on the emulated
RP2040 (emulated time, the board's own littlefs): the journal's resume of a 30-game money
session (its time and the longest gap between two watchdog feeds: the power-up replay, the
return from a demo, the pips view's check), the filesystem's statvfs, listdir, stat, an append
and the settings' write on a flash filled with records, and the boot after a power cut with
that session in progress (the first LED frame). With --before REV the firmware of git revision
REV is measured the same way first. Figures, not a test."""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bgboard import chip, paths, vboard
from bgboard.bench_chip import firmware_at

PROBE = paths.MP_SCRIPTS / "flash_probe.py"
SESSION = "0001.bgr"
FILLER = "0002.bgr"


def session_record(games=30, seed=30):
    """A money session of GAMES games between level-1 bots (seeded), as the board writes it."""
    from bgboard.games import play_record
    from bgcore.match import MONEY, Rules
    return play_record(Rules(MONEY, jacoby=True), random.Random(seed), ("Ann", "bot:6"),
                       level=1, games=games)


def fill_image(image, session, free_blocks=24):
    """The session in progress (named in the settings) and copies of its first 4 KB as other
    records until FREE_BLOCKS blocks are left."""
    fs = vboard.open_image(image)
    fs.makedirs("/data", exist_ok=True)
    with fs.open("/data/" + SESSION, "wb") as f:
        f.write(session.encode())
    fs.makedirs("/data/conf", exist_ok=True)
    for path in ("/data/settings.json", "/data/conf/settings.json"):   # (boards before: the
        with fs.open(path, "wb") as f:                                   # first)
            f.write(json.dumps({"current": SESSION, "mode": "money", "next": 3}).encode())
    piece = session.encode()[:4000]
    n = 2
    while vboard.BLOCK_COUNT - fs.used_block_count > free_blocks:
        with fs.open("/data/%04d.bgr" % n, "wb") as f:
            f.write(piece)
        n += 1
    vboard.save_image(fs, image)
    return n - 2


def unix_figures(fw_dir, image):
    from bgboard.build import compile_lib
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib"
        compile_lib(lib, Path(fw_dir) / "lib")
        copy = Path(tmp) / "flash.img"
        shutil.copy(image, copy)
        env = dict(os.environ, MICROPYPATH=str(lib))
        r = subprocess.run([paths.tool("micropython"), "-X", "heapsize=240k", str(PROBE),
                            SESSION, FILLER, str(copy)], capture_output=True, text=True, env=env)
        if r.returncode:
            raise RuntimeError("the probe failed on the unix port: %s"
                               % (r.stderr + r.stdout)[-400:])
        return json.loads(r.stdout.strip().splitlines()[-1])


def chip_figures(fw_dir, image, say):
    with tempfile.TemporaryDirectory() as tmp:
        img = Path(tmp) / "flash.img"
        shutil.copy(image, img)
        board = chip.ChipBoard(Path(tmp) / "link", img, log=open(os.devnull, "w")).start()
        try:
            _first_frame(board, say, "the first LED frame")
            f = {"boot_ms": board.frames[0][0] / 1e6}
            with board.cond:
                board.frames.clear()
            os.kill(board.node.pid, 9)            # a power cut: the session resumed again
            _first_frame(board, say, "the first LED frame after a power cut")
            f["reboot_ms"] = board.frames[0][0] / 1e6
            say("chip: boot after a power cut, the session in progress: %.0f ms"
                % f["reboot_ms"])
            f.update(chip.run_script(board, "RECORD = %r\nOTHER = %r\n" % (SESSION, FILLER)
                                     + PROBE.read_text()))
            return f
        finally:
            board.stop()


def _first_frame(board, say, what, minutes=60):
    # the emulator runs at a fraction of real time (less on a loaded machine): wait for the
    # event, saying how far the emulated clock got meanwhile
    for _ in range(minutes):
        try:
            board.wait(lambda: len(board.frames) > 0, 60, what)
            return
        except TimeoutError:
            say("chip: waiting for %s (emulated %.1f s, resets: %s)"
                % (what, board.stats()["ns"] / 1e9, board.resets or "none"))
    raise TimeoutError("%s: nothing after %d minutes" % (what, minutes))


def measure(fw_dir, session, tmp, say, on_chip):
    image = Path(tmp) / "records.img"
    if image.exists():
        image.unlink()
    chip.install(image, "reference", fw_dir=fw_dir)      # (the unix port's probe ignores it)
    fillers = fill_image(image, session)
    say("flash: the firmware, the session (%d bytes, %d lines) and %d other records of 4000 "
        "bytes" % (len(session), session.count("\n"), fillers))
    f = {"unix": unix_figures(fw_dir, image)}
    say("unix port: %s" % json.dumps(f["unix"]))
    if on_chip:
        try:
            f["chip"] = chip_figures(fw_dir, image, say)
            say("chip: %s" % json.dumps(f["chip"]))
        except chip.ChipUnavailable as e:
            say("the emulated chip: not measured (%s)" % e)
    return f


ROWS = (("resume_us", "resume of the 30-game session (ms)"),
        ("resume_gap_us", "  longest gap between watchdog feeds in it (ms)"),
        ("statvfs_us", "statvfs: the free space (ms)"),
        ("listdir_us", "listdir of /data (ms)"),
        ("stat_us", "stat of a record (ms)"),
        ("append_us", "append a line to a record, synced (ms)"),
        ("settings_us", "settings written and renamed (ms)"))


def run(games=30, seed=30, before=None, on_chip=True):
    def say(text):
        print(text, file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        say("a %d-game money session (level-1 bots, seed %d) ..." % (games, seed))
        session = session_record(games, seed)
        trees = [("this tree", paths.FIRMWARE)]
        if before:
            (Path(tmp) / "before").mkdir()
            trees.insert(0, (before, firmware_at(before, Path(tmp) / "before")))
        figures = {}
        for name, fw in reversed(trees):      # this tree's figures first (the faster one)
            figures[name] = measure(fw, session, tmp, say, on_chip)
        figures = [(name, figures[name]) for name, _ in trees]
    names = " / ".join(n for n, _ in figures)
    print("figures (%s); unix port: CPU time, x200 for an RP2040; chip: emulated time" % names)
    for where in ("unix", "chip"):
        if not all(where in f for _, f in figures):
            continue
        print("%s:" % ("unix port" if where == "unix" else "emulated RP2040"))
        if where == "chip":
            print("  %-50s %s" % ("boot after a power cut, the session resumed (ms)",
                                  " / ".join("%.0f" % f["chip"]["reboot_ms"] for _, f in figures)))
        for key, what in ROWS:
            vals = [f[where].get(key) for _, f in figures]
            if None in vals:
                continue
            text = " / ".join("%.1f" % (v / 1000) for v in vals)
            reads = [f[where].get(key.replace("_us", "_reads")) for _, f in figures]
            if None not in reads:
                text += "   (%s block reads)" % " / ".join(str(r) for r in reads)
            print("  %-50s %s" % (what, text))
    return 0
