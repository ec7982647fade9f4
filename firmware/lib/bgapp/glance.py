# At power-up with a game in progress: its position, read from the record's end without a check
# (bgcore.resume.glance), lit on the panel while the record is checked (a long session's check
# takes seconds on an RP2040); nothing goes on until the check (App.resume) passed. Loaded for
# that moment only (App.__init__), before the bot's network: the heap is whole again after it.

import gc

from bgapp.app import drop


def lit(app):
    j = app.journal
    name = j.settings["current"]
    try:
        from bgcore.resume import glance
        with open(j.path(name), "rb") as f:
            seen = glance(f, f.seek(0, 2))
    except Exception:               # (unreadable: the check says what is wrong)
        seen = None
    drop("bgcore.resume")           # (the heap whole again for the network)
    gc.collect()
    if seen:
        raw, mover = seen
        r = app.rend
        r.clear()
        r.board(raw, mover)
        r.light("turn%d" % mover, 1, r.side[mover])
        b = j.settings["bright"]
        app.hal.brightness = b if b >= 0 else app.profile["brightness"]["default"]
        app.hal.show(r.frame)
        app.hal.text([name, "checking the record ..."])
