"""What the emulated chip's tests share (test_chip.py, test_chip_keys.py): their module skipped,
with the reason, where the emulated RP2040 cannot run (no Node, no emulator, no rp2 firmware),
and the board's STATE asked over its USB serial link."""

import pytest

from bgboard import chip
from bgboard.link import Board


def need_chip():
    """Skip the calling test module, saying why, unless the emulated chip can run."""
    try:
        chip.check()
    except chip.ChipUnavailable as e:
        pytest.skip("emulated chip: %s" % e, allow_module_level=True)


def state(link):
    """The board's STATE fields as a dict, once it answers (a board booting answers once its
    app runs)."""
    with Board(link) as b:
        b.hello(timeout=180)
        line = b.request("STATE", timeout=60)
    assert line.startswith("STATE "), line
    return dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
