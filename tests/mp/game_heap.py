# Does a whole level-6 game, the bot's import included, run on this chip in KB kilobytes of
# heap? For `bgboard bench chip`, through the raw REPL of the emulated RP2040: the heap beyond KB
# is taken first by one block, then bgcore's bot is imported and two level-6 bots play a game with
# seeded dice (chip_probe.py's). Prints one JSON line: whether it ran, the moves, the code the
# bot's scan compiled to (a heap too small for the native code leaves the Python loops: that is
# no fit, and the game is not played), and where a MemoryError stopped it.
# usage: set KB and SEED before running it.
import gc
import json
import sys

gc.collect()
_taken = bytearray(max(0, gc.mem_free() + gc.mem_alloc() - KB * 1024))  # noqa: F821
out = {"kb": KB, "ok": False, "moves": 0, "code": "-", "stopped": None}  # noqa: F821
try:
    from bgcore import bot as _bot
    from bgcore.bot import Bot
    from bgcore.position import Position
    out["code"] = _bot.scan_code()
    if out["code"] == "python":
        raise MemoryError("the native scan did not compile")
    state = [SEED * 7919 + 1]  # noqa: F821

    def die():
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 16) % 6 + 1

    bots = (Bot(6, SEED), Bot(6, SEED + 1))  # noqa: F821
    pos = Position.initial()
    side = 0
    while not pos.is_over():
        d1, d2 = die(), die()
        pos = pos.apply(bots[side].choose(pos, d1, d2))
        side = 1 - side
        out["moves"] += 1
    out["ok"] = True
except MemoryError as e:
    _taken = None           # (room to report it)
    import io
    tb = io.StringIO()
    sys.print_exception(e, tb)
    lines = tb.getvalue().strip().splitlines()
    out["stopped"] = " ".join(line.strip() for line in lines[-2:])[:160]
print(json.dumps(out))
