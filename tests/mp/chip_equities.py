# The bot's equities of every play along a seeded game played to its end (level 6's hints, the
# dice from a linear congruential generator), for tests/test_chip.py: run on the emulated chip
# (its scan in native code, the first layer's sums in Thumb code, its weights read in flash) and
# on CPython (Python loops), the same integers. Prints one JSON line: the code of the scan's
# delta, where the first layer's weights are read (flash, heap, or a module's), the plays
# scored, and the sum of their equities position by position.
# With MOVES set before it (raw REPL), only that many moves; with PYTHON_SCAN set, the bot's
# Python loops instead of its native scan (what a board runs whose heap was too broken up to
# compile it), the first layer still read in flash. Either way it ends with level 6's hint for
# the largest roll known (a 1-1 of 748 plays, shortlisted: bgcore.shortlist).
import json

from bgcore import bot as _bot
from bgcore import net as _net
from bgcore.bot import Bot
from bgcore.position import Position

try:
    MOVES       # type: ignore[used-before-def]  # noqa: F821
except NameError:
    MOVES = 200
try:
    PYTHON_SCAN         # type: ignore[used-before-def]  # noqa: F821
    _bot._native[0] = None
except NameError:
    pass
bot = Bot(6, 1)
x = [2026]


def die():
    x[0] = (x[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (x[0] >> 8) % 6 + 1


pos = Position.initial()
plays_scored = 0
sums = []
for move in range(MOVES):        # the whole game: its race too (the race network)
    d1, d2 = die(), die()
    plays = pos.plays(d1, d2)
    eq = bot.equities(pos, plays)
    plays_scored += len(eq)
    sums.append(sum(eq))
    pos = pos.apply(bot.hint(pos, d1, d2))
    if pos.is_over():
        break
big = str(bot.hint(Position.from_id("+w0IEFGWmwpEBQ"), 1, 1))
first = "flash" if _net._FLASH else ("heap" if _net.FILE else "module")
print(json.dumps({"delta": _bot.scan_code(), "first_layer": first, "plays": plays_scored,
                  "sums": sums, "big": big}))
