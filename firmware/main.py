# Boot: read /profile.json, open the HAL it names and run the board's application.
# Ctrl-C (byte 0x03 on the serial port) stops the app and leaves the REPL to mpremote.
import gc
import sys

import bghal
from bghal import profile as _profile

# The profile's checks (bghal.profile_check) run at power-up only when the profile or the code
# that checks it changed since they last passed (the stamp in /profile.checked; bgboard flash
# writes it after running the same checks): a quarter of a second on an RP2040.
prof, _faults = _profile.boot_load("/profile.json", "/profile.checked")
for _fault in _faults:
    print("profile.json:", _fault)
if sys.modules.pop("bghal.profile_check", None):     # the checks are done: free their code
    try:
        del bghal.profile_check
    except AttributeError:
        pass
del _faults
hal = bghal.open(prof)
if "bghal.panel" not in sys.modules:       # (no panel to map: the profile's code goes too)
    del sys.modules["bghal.profile"]
    del bghal.profile
del _profile
gc.collect()

from bgapp.app import App

try:
    App(hal, lit_first=True).run()     # (the menu lit before the bot loads)
finally:
    # Ctrl-C (or a crash) leaves the REPL: stop the watchdog and the piezo so that the REPL and
    # mpremote are not reset under the user's hands (the virtual board has nothing to stop)
    close = getattr(hal, "close", None)
    if close:
        close()
