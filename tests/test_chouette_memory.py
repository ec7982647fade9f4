"""A long chouette's heap on the virtual board (issue 15's soak, board 1: a 7-player chouette of
10 games, a 40 KB record, real dice keyed in, bots of levels 1-2 in the line, WATCH on; after
27 minutes keys were answered 'ERR memory out of memory while answering KEY').

The board resumes that chouette (its record and the soak board's settings) at a heap tighter
than the virtual board's 256k and answers a few hundred requests and keys with WATCH on (every
frame a `!LED` line) without one `ERR memory`: the pips view's check of the whole record, the
menu coming and going, garbage lines, LOGS and GET, refused keys. No key here rolls or moves
(the dice are keyed in and none is), so no random choice of a bot's decides the run.

Before: each frame went out as one 1.5 KB object, STATE's long line was copied three times on
its way out, and each press of PIPS loaded bgcore.resume (the replay of a game that is not a
chouette's, ~5 KB on the unix port) and kept it; from a heap of about 216k down the board
answered KEY PIPS, KEY MENU and STATE with ERR memory (each needs a block of ~600 bytes: a
littlefs file for an import, the STATE line) while 25-35 KB were free in pieces."""

import binascii
import gzip
import json
import shutil
from pathlib import Path

from conftest import run_micropython
from test_vboard import Client, VBoard, STARTUP, golden_image  # noqa: F401  (a fixture)

HEAP = "216k"          # the margin: before, this run failed at 216k in 1 of 2 runs and at 208k
                       # always (each PIPS, MENU, STATE); now it passes at 216k (and fails at 212k)
LOWEST_FREE = 26 * 1024     # the free heap after a collection, STATE's heap=, at its lowest over
                            # the run: before 27.7 KB at 216k (36.2 KB at 224k), then 32.8-34.2 KB,
                            # 29.0 KB with the move view's native loops resident (chip3)
                            # (42.3 KB at 224k)
ROUNDS = 12            # of the requests below: 12 x 18 = 216 requests, plus a STATE a round

SETTINGS = {"mode": "money", "length": 6, "bright": 40, "ch_n": 7, "jacoby": 0, "country": "",
            "entry": "", "ranked": 1, "forced": 1, "opponent": 2, "auto": 1, "resign": 1,
            "tutor": 0, "next": 22, "confirm": 1, "names": "Ann Ben Cy Dee Eve Fay Gus Hal",
            "name": "", "ch_cubes": "single", "ch_bots": 92, "real": 1, "current": "0021.bgr",
            "beavers": 1}

REQUESTS = ("KEY PIPS", "KEY PIPS", "STATE", "garbage", "KEY MENU", "KEY MENU", "KEY HINT",
            "KEY P16", "KEY UNDO", "KEY OK", "KEY SELECT", "LOGS", "GET", "KEY PIPS", "KEY P16",
            "STATE", "KEY MENU", "KEY MENU")


def _image(tmp_path, golden_image):
    from bgboard import vboard
    img = tmp_path / "flash.img"
    shutil.copy(golden_image, img)
    record = gzip.decompress((Path(__file__).parent / "data" / "chouette-7p-40k.bgr.gz")
                             .read_bytes())
    fs = vboard.open_image(img)
    fs.makedirs("/data/conf", exist_ok=True)
    for name, data in (("/data/0021.bgr", record),
                       ("/data/conf/settings.json", json.dumps(SETTINGS).encode())):
        with fs.open(name, "wb") as f:
            f.write(data)
    vboard.save_image(fs, img)
    return img, len(record)


def test_a_long_chouette_answers_hundreds_of_requests_with_watch_on_at_a_tight_heap(
        tmp_path, golden_image):
    img, size = _image(tmp_path, golden_image)
    vb = VBoard(tmp_path, img, heap=HEAP)
    answers = []
    frames = 0
    lowest = 1 << 30
    try:
        c = Client(vb.link)
        c.hello(STARTUP)
        first = c.cmd("STATE")
        assert first.startswith("STATE view=play phase=turn") and " game=10 " in first, first
        assert " record=0021.bgr chouette=single " in first, first
        assert c.cmd("WATCH on") == "OK WATCH on"
        for _ in range(ROUNDS):
            for req in REQUESTS:
                if req == "garbage":
                    c.ser.write(b"\x01garbage \xff\n" + b"X" * 300 + b"\n")
                    a = [c.reply(), c.reply()]
                    assert all(x.startswith("ERR ") for x in a), a   # (binary, toolong)
                elif req == "LOGS":
                    head = c.cmd("LOGS")
                    a = [head] + [c.reply() for _ in range(int(head.split()[1])
                                                          if head.startswith("LOGS ") else 0)]
                elif req == "GET":          # the record's tail
                    head = c.cmd("GET 0021.bgr %d" % (size - 1500))
                    a = [head]
                    if head.startswith("FILE "):
                        while not a[-1].startswith("END "):
                            a.append(c.reply())
                else:
                    a = [c.cmd(req)]
                answers += [(req, x) for x in a]
            answers.append(("STATE", c.cmd("STATE")))
            if answers[-1][1].startswith("STATE "):
                lowest = min(lowest, int(answers[-1][1].split(" heap=")[1].split()[0]))
            for e in c.events:
                if e.startswith("!LED "):
                    # a frame's line: the brightness, then the 16 x 16 RGB frame in hex
                    # (before, a frame that ran out of memory half-written was joined to the
                    # next line: '!LED 40 ERR memory ...')
                    w = e.split(" ")
                    assert len(w) == 3 and w[1].isdigit() and len(w[2]) == 16 * 16 * 6, e[:80]
                    hexed = w[2]
                    binascii.unhexlify(hexed)
                    frames += 1
            c.events.clear()
        last = c.state()
    finally:
        vb.stop()
    failed = [(req, a) for req, a in answers if a.startswith("ERR memory")]
    assert not failed, "%d of %d answers: %s" % (len(failed), len(answers), failed[:6])
    assert frames >= ROUNDS                 # WATCH was on: the frames came
    assert lowest >= LOWEST_FREE, "the free heap fell to %d bytes" % lowest
    # nothing moved: the same game, waiting for the dice
    assert last["record"] == "0021.bgr" and last["game"] == "10" and last["phase"] == "turn"
    print("a 7-player chouette's 40 KB record at heap %s: %d answers, %d frames, none ERR "
          "memory; lowest free heap %d bytes" % (HEAP, len(answers), frames, lowest))


_FRAME_SCRIPT = r'''
import binascii, sys
from bgapp.link import Link
class Hal:
    def __init__(self):
        self.out = []
    def write(self, b):
        self.out.append(bytes(b))
frame = bytearray((i * 37 + 11) & 255 for i in range(int(sys.argv[1])))
hal = Hal()
link = Link(hal, None)
link.watching = True
link.frame(7, frame)
line = b"".join(hal.out)
print("SAME" if line == b"!LED 7 " + binascii.hexlify(frame) + b"\r\n" else "DIFFERS", len(line),
      max(len(b) for b in hal.out))
'''


def test_an_led_frame_goes_out_in_pieces_as_the_same_line(tmp_path, mpy_lib):
    """A `!LED` frame line is the bytes it always was (the frame in hex, one line) and goes out
    in pieces of at most 128 characters: no object of the whole line's size."""
    script = tmp_path / "frame.py"
    script.write_text(_FRAME_SCRIPT)
    for n in (768, 100, 64, 3):
        r = run_micropython(script, str(n), lib=mpy_lib)
        assert r.returncode == 0, r.stdout + r.stderr
        same, length, piece = r.stdout.split()
        assert same == "SAME" and int(length) == 7 + 2 * n + 2, r.stdout
        assert int(piece) <= 128, r.stdout
