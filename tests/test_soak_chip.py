"""`bgboard soak --chip rp2040`: the soak against the emulated RP2040 (MicroPython's rp2 port on
rp2040js) instead of the unix port. What a user would check: the chip survives the power cuts
(kill -9 of the emulator) with nothing lost and every record verified, the watchdog's gaps are
the emulator's (chip time, the boot's included, under the RP2040's 8 s), and a reset the chip
made itself would be a fault (none here)."""

from bgboard.soak import Soak, WATCHDOG_MS

from chip_kit import need_chip

need_chip()


def test_a_short_soak_on_the_emulated_chip_times_the_watchdog_in_chip_time(tmp_path):
    s = Soak(cuts=2, lines=40, keys=40, seed=20261202, fill=False, work=tmp_path / "soak",
             say=print, chip="rp2040")
    try:
        assert s.run() == 0, s.faults
    finally:
        s.stop()
    assert s.faults == [] and s.errors == []
    assert s.cuts >= 2 and s.lost == 0 and s.announced_total > 0
    assert s.lines_sent == 40 and s.keys_sent == 40
    assert s.verified["records"] == s.verified["verified"]
    # chip time: the power-up's longest step (the bot's network, about 340 emulated ms) is a
    # gap the unix port's CPU clock puts at a few ms
    assert 50_000 < s.feed_gap < WATCHDOG_MS * 1000
    assert s.chip_resets.get("timeout", 0) == 0             # the watchdog never fired
