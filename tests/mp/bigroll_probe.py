# The bot's largest rolls on MicroPython, for `bgboard bench chip`: run on the emulated RP2040
# (through the raw REPL, with the board's real HAL open and its key scan running) and on the unix
# port. For each position and roll (the rolls with the most plays found in seeded games) and each
# level: the plays listed, the time to list them and to choose (us), and the play chosen. Prints
# one JSON line.
# usage: set ROLLS ([[position id, d1, d2], ...]) and LEVELS before running it (raw REPL), or pass
# them as arguments (unix: "id:d1d2,id:d1d2" "1,6").
import gc
import json
import sys
import time

from bgcore import Position
from bgcore.bot import Bot

try:
    rolls, levels = ROLLS, LEVELS       # type: ignore[name-defined]  # noqa: F821
except NameError:
    rolls = [[w[:14], int(w[15]), int(w[16])] for w in sys.argv[1].split(",")]
    levels = [int(a) for a in sys.argv[2].split(",")]

hal = None
if sys.platform == "rp2":
    import bghal
    from bghal import profile as _profile
    hal = bghal.open(_profile.load("/profile.json"))
    time.sleep_ms(50)

out = []
for pid, d1, d2 in rolls:
    pos = Position.from_id(pid)
    gc.collect()
    t = time.ticks_us()
    n = len(pos.plays(d1, d2))
    listing = time.ticks_diff(time.ticks_us(), t)
    row = {"id": pid, "roll": "%d-%d" % (d1, d2), "plays": n, "list_us": listing}
    for level in levels:
        bot = Bot(level, 1)
        gc.collect()
        t = time.ticks_us()
        play = bot.choose(pos, d1, d2)
        row["level%d_us" % level] = time.ticks_diff(time.ticks_us(), t)
        row["level%d" % level] = str(play)
    out.append(row)
if hal is not None:
    hal.close()
print(json.dumps(out))
