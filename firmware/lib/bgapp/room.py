# Room on the flash, loaded only when a game or a demo starts or ends (and dropped after, by
# bgapp.app.App.room): whether a new one may fit (else the board says to pull the records, or
# offers to delete the ones the laptop pulled and verified: BAR in the menu), and the removal of
# a record left with nothing but its opening (an empty game costs no flash block).

import os

# Free flash below which no game starts (a long session's record, the settings' rewrites and
# littlefs's copies on write), and what each demo game takes on top of it
ROOM_GAME = 16384
ROOM_DEMO_GAME = 2560


def no_room(journal, games=0):
    """Why a new game (and `games` demo games) may not fit on the flash, or None."""
    free = journal.free()
    if free is None or free >= ROOM_GAME + games * ROOM_DEMO_GAME:
        return None
    n, size = offer(journal)
    if n:
        return ("flash nearly full (%d KB free): BAR in the menu deletes %d record%s the laptop "
                "holds (%d KB)" % (free // 1024, n, "s" if n > 1 else "", size // 1024))
    return ("flash nearly full (%d KB free): pull the records (bgboard logs pull --delete)"
            % (free // 1024))


def offer(journal):
    """(records, bytes) the laptop pulled and verified (bgapp.index), kept until the files
    change (the menu asks at every frame)."""
    if journal.offer is None:
        from bgapp import index
        names, size = index.pulled(journal)
        journal.offer = (len(names), size)
        _drop_index()
    return journal.offer


def delete_pulled(journal):
    """BAR in the menu, confirmed: the records the laptop holds deleted (each checked again
    against its mark). Returns the board's message."""
    from bgapp import index
    n, size = index.delete_pulled(journal, journal.hal.feed)
    _drop_index()
    free = journal.free()
    return "deleted %d record%s the laptop holds (%d KB)%s" % (
        n, "" if n == 1 else "s", size // 1024,
        ": %d KB free" % (free // 1024) if free is not None else "")


def _drop_index():
    import sys
    sys.modules.pop("bgapp.index", None)
    pkg = sys.modules.get("bgapp")
    if pkg and hasattr(pkg, "index"):
        delattr(pkg, "index")


def discard(journal):
    """Leave an empty record: the settings stop naming it first (a power cut in between leaves
    at worst a stray empty file, never a named record that is missing), then it is removed."""
    name = journal.name
    journal.close()
    if not name:
        return
    s = journal.settings
    if s["current"] == name:
        s["current"] = ""
        journal.save_settings()
    try:
        os.remove(journal.path(name))
    except OSError:
        pass
    journal.hal.sync()
    journal.changed()
