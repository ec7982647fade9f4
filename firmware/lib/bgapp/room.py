# Room on the flash, loaded only when a game or a demo starts or ends (and dropped after, by
# bgapp.app.App.room): whether a new one may fit (else the board says to pull the records), and
# the removal of a record left with nothing but its opening (an empty game costs no flash block).

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
    return ("flash nearly full (%d KB free): pull the records (bgboard logs pull --delete)"
            % (free // 1024))


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
