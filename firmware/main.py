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

App(hal).run()
