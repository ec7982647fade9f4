# Boot: read /profile.json, open the HAL it names and run the board's application.
# Ctrl-C (byte 0x03 on the serial port) stops the app and leaves the REPL to mpremote.
import gc
import os
import sys

import bghal
from bghal import profile as _profile

# The profile's checks take a quarter of a second on an RP2040: they run when the profile or
# the checking code is not the pair that last passed them (its sha256 and size, in CHECKED).
CHECKED = "/profile.checked"


def _stamp():
    import binascii
    import hashlib
    with open("/profile.json", "rb") as f:
        h = hashlib.sha256(f.read()).digest()
    try:
        size = os.stat(_profile.__file__)[6]
    except (AttributeError, OSError):
        size = 0
    return "%s %d" % (binascii.hexlify(h).decode(), size)


def _checked(stamp):
    try:
        with open(CHECKED) as f:
            return f.read() == stamp
    except OSError:
        return False


prof = _profile.load("/profile.json")
_s = _stamp()
if not _checked(_s):
    _faults = _profile.check(prof)
    for fault in _faults:
        print("profile.json:", fault)
    if not _faults:
        try:
            with open(CHECKED, "w") as _f:
                _f.write(_s)
        except OSError:
            pass
    del _faults
del _s
hal = bghal.open(prof)
if "bghal.panel" not in sys.modules:       # the checks are done: free their code
    del sys.modules["bghal.profile"]
    del bghal.profile
del _profile, _stamp, _checked
gc.collect()

from bgapp.app import App

try:
    App(hal).run()
finally:
    # Ctrl-C (or a crash) leaves the REPL: stop the watchdog and the piezo so that the REPL and
    # mpremote are not reset under the user's hands (the virtual board has nothing to stop)
    close = getattr(hal, "close", None)
    if close:
        close()
