# Boot: read /profile.json, open the HAL it names and run the board's application.
# Ctrl-C (byte 0x03 on the serial port) stops the app and leaves the REPL to mpremote.
import gc
import os
import sys

import bghal
from bghal import profile as _profile

# The profile's checks take a quarter of a second on an RP2040: they run when CHECKED does not
# hold the stamp of this profile and of the code that checks it (bgboard.build.profile_stamp:
# sha256 over each part's length and bytes), the pair that last passed them. The board writes it
# after its own check passed; `bgboard flash` writes it after the same check on the laptop.
CHECKED = "/profile.checked"
CHECK_CODE = ("profile", "profile_check")       # bghal's modules that check a profile


def _stamp(data):
    import binascii
    import hashlib
    h = hashlib.sha256()
    where = getattr(_profile, "__file__", "")
    lib = where[:where.rfind("/") + 1]
    ext = where[where.rfind("."):]
    parts = [data]
    for name in CHECK_CODE:
        try:
            with open(lib + name + ext, "rb") as f:
                parts.append(f.read())
        except OSError:
            return None         # the code is not where the stamp can see it: always check
    for part in parts:
        h.update(b"%d\n" % len(part))
        h.update(part)
    return binascii.hexlify(h.digest())


def _checked(stamp):
    try:
        with open(CHECKED, "rb") as f:
            return f.read() == stamp
    except OSError:
        return False


with open("/profile.json", "rb") as _f:
    _data = _f.read()
prof = _profile.loads(_data, "/profile.json")
_s = _stamp(_data) if "/" in getattr(_profile, "__file__", "") else None
if not _s or not _checked(_s):
    _faults = _profile.check(prof)
    for fault in _faults:
        print("profile.json:", fault)
    if not _faults and _s:
        try:
            with open(CHECKED, "wb") as _f:
                _f.write(_s)
        except OSError:
            pass
    del _faults
    sys.modules.pop("bghal.profile_check", None)     # the checks are done: free their code
del _s, _data, _f
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
