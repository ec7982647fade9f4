# The bot's equities of every play along a seeded game played to its end (level 6's hints, the
# dice from a linear congruential generator), for tests/test_chip.py: run on the emulated chip
# (its scan in native code, the first layer's sums in Thumb code, its weights read in flash) and
# on CPython (Python loops), the same integers. Prints one JSON line: the code of the scan's
# delta, where the first layer's weights are read (flash, heap, or a module's), the plays
# scored, and the sum of their equities position by position.
import json

from bgcore import bot as _bot
from bgcore import net as _net
from bgcore.bot import Bot
from bgcore.position import Position

bot = Bot(6, 1)
x = [2026]


def die():
    x[0] = (x[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (x[0] >> 8) % 6 + 1


pos = Position.initial()
plays_scored = 0
sums = []
for move in range(200):          # the whole game: its race too (the race network)
    d1, d2 = die(), die()
    plays = pos.plays(d1, d2)
    eq = bot.equities(pos, plays)
    plays_scored += len(eq)
    sums.append(sum(eq))
    pos = pos.apply(bot.hint(pos, d1, d2))
    if pos.is_over():
        break
first = "flash" if _net._FLASH else ("heap" if _net.FILE else "module")
print(json.dumps({"delta": _bot.DELTA_CODE, "first_layer": first, "plays": plays_scored,
                  "sums": sums}))
