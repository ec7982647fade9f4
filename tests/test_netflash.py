"""A board reads its first layer's weights where its network file lies in flash
(bgcore.netflash, here on CPython over the littlefs image the emulated Pico gets): every row read
through the addresses it finds is the file's row, for both networks, rows split between two
blocks included; a damaged copy in flash is not used (the board keeps its heap copy). The heap a
chip saves so is at least what the unix port's heap checks credit it with."""

import io
from array import array

from bgboard import build, chip, vboard
from bgcore import netflash, netfile


def _board(tmp_path):
    image = tmp_path / "flash.img"
    chip.install(image, "reference")
    nets = vboard.read_file(image, "/lib/" + build.NETS_FILE)
    return bytearray(image.read_bytes()), nets


def _layout(nets):
    # (hidden units, the first layer's bytes, one network's bytes) from the file's header
    h, h2, levels, inputs = nets[8], nets[9], nets[10], nets[11]
    from bgcore import net          # (configured by the same networks' modules)
    assert (levels, inputs) == (net.LEVELS, net.SHOTS + 2 * net.CONTACT)
    m = h2 or h
    sizes = (net.ROWS * h, 2 * h, 2 * h2 * h, 4 * h2, 12 * m, 24, 258)
    assert len(netfile.TABLES) == len(sizes) and len(nets) == 12 + 2 * sum(sizes)
    return h, net.ROWS, sum(sizes)


def test_the_first_layer_is_read_where_the_file_lies_in_flash(tmp_path):
    flash, nets = _board(tmp_path)
    h, rows, size = _layout(nets)
    f = io.BytesIO(nets)
    blocks = netflash.locate(memoryview(flash), f, len(nets))
    assert blocks and sum(n for _, _, n in blocks) == len(nets)
    assert len(blocks) > 2          # (a file of several blocks: the lists littlefs keeps)
    spill_at = len(flash)           # the spilled rows' "addresses": after the flash
    split = 0
    for k in (0, 1):                # the main network, then the race network
        tab = array("i", bytes(4 * rows))
        spill = bytearray(h * len(blocks))
        first = 12 + k * size
        netflash.rows(blocks, 0, first, h, tab, spill, spill_at, f)
        memory = bytes(flash) + bytes(spill)
        for r in range(rows):
            want = nets[first + r * h:first + r * h + h]
            assert memory[tab[r]:tab[r] + h] == want, (k, r)
            split += tab[r] >= spill_at
    assert split >= 1               # some row lies across a block boundary, and reads right
    # the unix port's heap checks give it what a chip saves here (bgcore.net.flash_saves): never
    # more than the first layer's copy less the addresses and spilled rows the chip keeps
    from bgcore import net
    assert 0 < net.flash_saves(h, len(nets)) <= rows * h - 4 * rows - len(spill)


def test_a_damaged_copy_in_flash_is_not_used(tmp_path):
    flash, nets = _board(tmp_path)
    blocks = netflash.locate(memoryview(flash), io.BytesIO(nets), len(nets))
    off, at, n = blocks[2]
    flash[at + n // 2] ^= 0x10      # one bit of the file's third block, as flash holds it
    assert netflash.locate(memoryview(flash), io.BytesIO(nets), len(nets)) is None
