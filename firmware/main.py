# Boot: read /profile.json, open the HAL it names and run the board's application.
# Ctrl-C (byte 0x03 on the serial port) stops the app and leaves the REPL to mpremote.
import gc
import sys

import bghal
from bghal import profile as _profile

prof = _profile.load("/profile.json")
for fault in _profile.check(prof):
    print("profile.json:", fault)
hal = bghal.open(prof)
if "bghal.panel" not in sys.modules:       # the checks are done: free their code
    del sys.modules["bghal.profile"]
    del bghal.profile
del _profile
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
