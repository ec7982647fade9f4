# Boot loader, installed as /main.py by `bgboard flash`. The firmware lives in one of two slots,
# /fw/a and /fw/b (each: main.py, lib/, version.json); /fw/active names the one to run. A flash
# stages the new firmware in the other slot, verifies it, writes its version.json last, then
# renames a new /fw/active over the old one: one atomic step on littlefs, so a power cut at any
# moment leaves either the old or the new firmware booting. A slot without version.json is
# incomplete and never run.
import os
import sys


def _complete(slot):
    try:
        os.stat("/fw/%s/version.json" % slot)
        return True
    except OSError:
        return False


def _slot():
    try:
        with open("/fw/active") as f:
            want = f.read().strip()
    except OSError:
        want = ""
    for slot in (want, "a", "b"):
        if slot in ("a", "b") and _complete(slot):
            return slot
    return ""


_s = _slot()
if _s:
    sys.path.insert(0, "/fw/%s/lib" % _s)
    with open("/fw/%s/main.py" % _s) as _f:
        _src = _f.read()
    _code = compile(_src, "main.py", "exec")
    del _f, _src
    exec(_code, {"__name__": "__main__"})
else:
    print("bgboard: no complete firmware in /fw: flash it again (bgboard flash)")
