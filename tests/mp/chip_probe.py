# What the firmware's parts cost on MicroPython, for `bgboard bench chip`: run on the emulated
# RP2040 (through the raw REPL, with the board's real HAL open and its key scan running) and on
# the unix port (the bot only). Prints one JSON line: per bot level the time of every move in us
# and the lowest free heap after a move; on the chip also `show` and the HAL's background share of
# the CPU, and the live heap the bot holds once imported with its first bot made. Bots at the
# same level play each other with seeded dice, as in mp_bot_game.py.
# usage: set LEVELS, GAMES, SEED before running it (raw REPL), or pass them as arguments (unix).
import gc
import json
import sys
import time

gc.collect()
_before = gc.mem_alloc()
from bgcore import Position  # noqa: E402
from bgcore.bot import Bot  # noqa: E402

Bot(6)                  # (the first bot makes its network's tables)
gc.collect()
out = {"bot_live": gc.mem_alloc() - _before}
try:
    args = (LEVELS, GAMES, SEED)      # type: ignore[name-defined]  # noqa: F821
except NameError:
    args = ([int(a) for a in sys.argv[1].split(",")], int(sys.argv[2]), int(sys.argv[3]))
levels, games, seed = args


def us(f, *a):
    t = time.ticks_us()
    f(*a)
    return time.ticks_diff(time.ticks_us(), t)


def spin():
    x = 0
    for i in range(3000):
        x += i
    return x


hal = None
if sys.platform == "rp2":
    import bghal
    from bghal import profile as _profile
    base = min(us(spin) for _ in range(3))
    hal = bghal.open(_profile.load("/profile.json"))
    time.sleep_ms(50)
    busy = min(us(spin) for _ in range(3))
    out["hal_cpu_pct"] = 100 - 100 * base / busy
    frame = bytearray(3 * hal.panel.count)
    for i in range(len(frame)):
        frame[i] = (i * 37) & 0xFF
    shows = sorted(us(hal.show, frame) for _ in range(5))
    out["show_us"] = shows[2]

state = [seed * 7919 + 1]


def die():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 16) % 6 + 1


for level in levels:
    times = []
    low = None
    bots = (Bot(level, seed), Bot(level, seed + 1))
    for g in range(games):
        pos = Position.initial()
        side = 0
        while not pos.is_over():
            d1, d2 = die(), die()
            gc.collect()
            t = time.ticks_us()
            play = bots[side].choose(pos, d1, d2)
            times.append(time.ticks_diff(time.ticks_us(), t))
            free = gc.mem_free()
            if low is None or free < low:
                low = free
            pos = pos.apply(play)
            side = 1 - side
    out["level%d" % level] = {"us": times, "low_free": low}
if hal is not None:
    hal.close()
print(json.dumps(out))
