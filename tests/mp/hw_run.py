# Run by MicroPython's unix port: every check of the rp2 hardware layer (tests/mp/hw_checks.py)
# against the pin-level fakes, with the real framebuf module. Prints "ok NAME" or
# "FAIL NAME: reason" per check. Argument: the hardware/profiles directory.
import sys
import framebuf

import hw_checks

hw_checks.PROFILES = sys.argv[1]
hw_checks.FRAMEBUF = framebuf

for check in hw_checks.BOTH + (hw_checks.check_oled_pixels,):
    try:
        check()
        print("ok", check.__name__)
    except Exception as e:
        print("FAIL", check.__name__ + ":", type(e).__name__, e)
