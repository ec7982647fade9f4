# The bot network's evaluations over a seeded random game: every play's equity (Bot.equities) and
# the five probabilities of each position reached, as one sha256 and a count: the same line on
# CPython (the Python loops; with `builtins` bgcore.net_cpython's, as the host runs them) and
# on MicroPython (the native loops of bgcore.net; with `python` the Python loops).
# usage: net_native.py [python|builtins]
import sys
import binascii
import hashlib

from bgcore import net as net_mod
from bgcore import Position

if len(sys.argv) > 1 and sys.argv[1] == "python":       # (before bgcore.bot makes its network)
    net_mod._native[:] = [None] * len(net_mod._native)
if len(sys.argv) > 1 and sys.argv[1] == "builtins":     # CPython: as the host package does
    from bgcore import net_cpython
    net_cpython.install()
from bgcore.bot import Bot              # noqa: E402
if not net_mod._natives()[0]:
    print("python")
elif "bgcore.net_cpython" in sys.modules:
    print("builtins")                   # CPython's versions of the loops
else:
    print("native")
state = [4242]


def rnd(n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n


bot = Bot(6, 1)
net = bot.net
acc = net.new_acc()
h = hashlib.sha256()
count = 0
for game in range(1):
    pos = Position.initial()
    while not pos.is_over():
        d1, d2 = rnd(6) + 1, rnd(6) + 1
        plays = pos.plays(d1, d2)
        if len(plays):
            eq = bot.equities(pos, plays)
            h.update(repr(eq).encode())
            count += len(eq)
            pos = pos.apply(plays[rnd(len(plays))])
        else:                           # no legal play: the turn passes
            pos = pos.apply(bot.choose(pos, d1, d2))
        net = bot._judge(pos)           # the race network in a race
        net.load(acc, pos.raw)
        h.update(repr(net.probabilities(acc)).encode())
print(count, binascii.hexlify(h.digest()).decode())
