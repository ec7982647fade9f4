# The board's date and time, for the start= of a record's header. A Pico has no battery-backed
# clock: the host sets it in its HELLO (`HELLO time=2026-11-30T21:05:00`), and the board keeps
# the difference to its own clock until the next power-up. Unset, a clock that still shows a year
# before 2024 gives "" (the header then says start=-).

import time

_offset = None            # the host's time minus the board's, in seconds, once a HELLO set it


def set_from(text):
    """`YYYY-MM-DDTHH:MM:SS` from a HELLO: the clock follows it. None, or why not."""
    global _offset
    try:
        day, hms = text.split("T")
        y, mo, d = [int(x) for x in day.split("-")]
        h, mi, s = [int(x) for x in hms.split(":")]
    except ValueError:
        return "time=%s is not YYYY-MM-DDTHH:MM:SS" % text[:24]
    if not (2024 <= y <= 2099 and 1 <= mo <= 12 and 1 <= d <= 31 and h < 24 and mi < 60
            and s < 60):
        return "time=%s is out of range" % text[:24]
    _offset = time.mktime((y, mo, d, h, mi, s, 0, 0)) - time.time()
    return None


def now():
    """The date and time as YYYY-MM-DDTHH:MM:SS, or "" when the board does not know it."""
    t = time.localtime(time.time() + (_offset or 0))
    if t[0] < 2024:
        return ""
    return "%04d-%02d-%02dT%02d:%02d:%02d" % t[:6]
