# What the board says of a fault of its main loop other than the heap's (App.fault, which handles
# the heap's itself) and of a write that failed (write_failed, bgapp.game's record writes too),
# and what it gives back when its loop stops (Ctrl-C: give_back): loaded when one comes, dropped
# after. A fault that comes again in the same view with no key between is not said again, and
# that view is not ticked until a key (App.halted): a tick that fails the same way each time is
# said once and the board answers keys, instead of the same message at every pass of its loop.

from bgapp.journal import WriteFailed


def write_failed(e):
    """The board's one-line message for a write that failed: the flash's (an OSError), or any
    other fault in the middle of a record's write (bgapp.game: its line may be in the file or
    not, the game is as its record says)."""
    if not isinstance(e, OSError):
        return "record write failed (%s): the game is as its record says" % repr(e)[:60]
    if e.args and e.args[0] == 28:        # ENOSPC
        return ("flash full: the last action was not recorded; pull the records "
                "(bgboard logs pull --delete)")
    return "flash write failed (%s): the last action was not recorded" % e


def said(app, e):
    if isinstance(e, WriteFailed):
        # the board's own action (the bot's move, the next game) did not reach flash: the game
        # stands where its record is; the menu shows why (no retry loop)
        app.message = str(e)
        app.link.event("NO " + str(e))
        app.to_menu()
        return
    seen = (app.view, repr(e))
    if seen == app.last_fault:
        app.halted = app.view       # (the message is still on the display)
        return
    app.last_fault = seen
    if isinstance(e, OSError):      # a write the flash refused outside a game's events
        app.message = write_failed(e)
        app.link.event("NO " + app.message)
    else:
        app.anim.hops = None
        app.message = "error: %r" % e
        app.link.event("ERROR %r" % e)
        app.hal.sleep_ms(200)


def give_back(app):
    """Ctrl-C: the application stops and the REPL takes over, where mpremote (and bgboard
    flash) read, hash and copy files: the application's modules leave the heap with it.
    (main.py still names App, whose functions would keep every module bgapp.app imported.)"""
    import gc
    import sys
    if app.game and app.game.held:
        try:
            app.game.write_held()      # (a step shown just before the break)
        except Exception:
            pass
    if app.unsaved:                    # (a setting waiting for the keys' quiet)
        try:
            app.save_settings()
        except Exception:
            pass
    app.journal.close()
    gc.collect()
    mods = sys.modules
    main = mods.get("bgapp.app")
    # one module at a time, allocating nothing: a long session's heap in pieces had no 512
    # bytes for a list of the names, and the break ended in a MemoryError, the modules kept
    while True:
        for k in mods:
            if k.startswith("bgapp.") or k.startswith("bgcore.") or k in ("bgapp", "bgcore"):
                break
        else:
            break
        del mods[k]
    if main:
        main.__dict__.clear()
    gc.collect()
