# The virtual HAL's names for the work between two watchdog feeds (STATE gapwhat=), read from
# stdin as the board reads its link: after each read that brought something, one line "read N
# NAMES" (NAMES: the job's names joined by '+', '-' for none), then a feed. For
# tests/test_feed_gap_names.py, which writes a request in pieces.
import sys
import time

from bghal.virtual import VirtualHal

hal = VirtualHal({"brightness": {"default": 8}})
for _ in range(int(sys.argv[1])):
    while True:
        data = hal.read()
        if data:
            break
        time.sleep_ms(1)
    print("read %d %s" % (len(data), "+".join(hal._job) or "-"))
    hal._job = []
