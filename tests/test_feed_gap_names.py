"""The virtual board names the work of each gap between watchdog feeds by the requests whose
lines end in it (STATE gapwhat=, the soak's longest gap): a request that reaches the board in two
reads is named by its start when its end arrives, where its work is done (the soak once blamed
a 34 ms gap on a garbage line 'FROB', the first line begun in the read that ended an earlier
request). Runs the virtual HAL on MicroPython, its stdin a pipe written piece by piece."""

import os
import subprocess
from pathlib import Path

from conftest import FIRMWARE_LIB, micropython_path

HERE = Path(__file__).parent

PIECES = [
    (b"KEY P", "-"),                # a line begun: no work yet
    (b"5\nFROB x\nDEMO 2 fa", "KEY+FROB"),   # KEY's and FROB's work; DEMO not ended
    (b"st\n", "DEMO"),
    (b"LOGS\n", "LOGS"),
    (b"x" * 40, "-"),               # a long line's start, not a name
    (b"y" * 40 + b"\n", "-"),
]


def test_a_request_read_in_pieces_is_named_where_its_line_ends():
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE_LIB))
    p = subprocess.Popen([micropython_path(), str(HERE / "mp" / "vhal_jobs.py"),
                          str(len(PIECES))], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    try:
        for piece, names in PIECES:
            p.stdin.write(piece)
            p.stdin.flush()
            line = p.stdout.readline().decode()       # the board read the piece
            assert line.split() == ["read", str(len(piece)), names], (piece, line, names)
    finally:
        p.stdin.close()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:   # (a piece it never read: not left running)
            p.kill()
            p.wait()
    assert p.returncode == 0, p.stderr.read().decode()
