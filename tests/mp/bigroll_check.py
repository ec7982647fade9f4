# The bot on the largest rolls found in seeded games (doubles with hundreds of plays): per roll
# the plays listed, how many the network scored (Bot.hint: bgcore.bot.CAP + AGAIN, the rest
# shortlisted out by bgcore.shortlist), the first round's shortlist, and every level's choice,
# one line each, the same on CPython and MicroPython (native code or, with "python", the Python
# loops, the search for a roll's plays included).
# usage: bigroll_check.py "id:d1d2,id:d1d2" [python]
import sys

from bgcore import Position
from bgcore import position as position_mod
from bgcore import net as net_mod

if len(sys.argv) > 2 and sys.argv[2] == "python":    # (before bgcore.bot makes its network)
    net_mod._native[:] = [None] * len(net_mod._native)
    position_mod._native = None         # the search for the plays too
from bgcore import bot as bot_mod       # noqa: E402
from bgcore.bot import Bot              # noqa: E402
from bgcore.shortlist import shortlist

scored = [0]
_scan = bot_mod.Bot._scan


def counting(self, pos, plays, noise, out=None, pick=None):
    if pick is None:
        scored[0] += len(plays)
    else:
        for byte in pick:
            while byte:
                scored[0] += byte & 1
                byte >>= 1
    return _scan(self, pos, plays, noise, out, pick)


bot_mod.Bot._scan = counting
if bot_mod._native_for(Bot(6).net) is None:
    print("python")         # the scan's and the shortlist's Python loops
else:
    print("native")
for word in sys.argv[1].split(","):
    pos = Position.from_id(word[:14])
    d1, d2 = int(word[15]), int(word[16])
    plays = pos.plays(d1, d2)
    n = len(plays)
    pick = shortlist(Bot(6), pos, plays, bot_mod.CAP)
    plays = None
    h = 0
    for i in range(n):
        if pick[i >> 3] >> (i & 7) & 1:
            h = (h * 31 + i) % 1000003
    scored[0] = 0
    best = Bot(6, 1).hint(pos, d1, d2)
    line = [word, n, scored[0], h, str(best)]
    for level in range(1, 7):
        line.append(str(Bot(level, level).choose(pos, d1, d2)))
    print(" | ".join(str(x) for x in line))
