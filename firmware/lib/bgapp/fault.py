# What the board says of a fault of its main loop other than the heap's (App.fault, which handles
# the heap's itself): loaded when one comes, dropped after. A fault that comes again in the same
# view with no key between is not said again, and that view is not ticked until a key
# (App.halted): a tick that fails the same way each time is said once and the board answers
# keys, instead of the same message at every pass of its loop.

from bgapp.journal import WriteFailed, write_failed


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
