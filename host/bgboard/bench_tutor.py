"""`bgboard bench tutor`: how long a person waits for the tutor on the chip. The firmware runs on
the emulated RP2040 (rp2040js, MicroPython rp2: emulated time, cycles at 125 MHz, whatever the
host's load); a person plays a money game against the level-6 bot with the tutor at 0.04, keying
every play on the key matrix's GPIOs (a press held 80 ms) and confirming with OK (OK also keeps a
warned play). Measured: from the press of a play's completing step to the changed LED frame that
shows the play checked (the warning's blink, or the complete play waiting for OK), beside the same
figure for the steps before it (the key-to-frame time of any step, the floor). A person's pace:
`--think` ms after the dice show before the first key, `--gap` ms between the frame a step
changed and the next key (0 and 0: each key as soon as the board has shown the last one).
The plays keyed are the bot's best, and every fourth turn the worst legal play (a blunder the
tutor warns about).

Then, through the raw REPL with the HAL open (tests/mp/tutor_probe.py), the parts on their own,
on the chip and on the unix port: a whole roll's plays scored at the completing step (the worst
case: a play keyed before the board's loop ran once), one background slice (what each pass of
the loop does while the person keys) and the completing step once the background is done."""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bgboard import chip, paths

HOLD_MS = 80
PROBE = paths.MP_SCRIPTS / "tutor_probe.py"


def _state(b):
    line = b.request("STATE", timeout=300)
    return dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)


class _Pace:
    def __init__(self, board):
        self.board = board

    def now(self):
        return self.board.stats()["ns"]

    def wait_ms(self, ms):
        """Until `ms` of emulated time have passed."""
        t0 = self.now()
        while self.now() < t0 + ms * 1e6:
            time.sleep(0.05)

    def press(self, key, what):
        """Press `key` on the GPIOs; (emulated ms from the press to the changed LED frame, the
        frame's emulated ns)."""
        t = self.now()
        self.board.key(key, hold_ms=HOLD_MS)
        found = []

        def changed():
            frames = list(self.board.frames)
            for i, (ft, f) in enumerate(frames):
                if ft > t and i and f != frames[i - 1][1]:
                    found.append(ft)
                    return True
            return False

        self.board.wait(changed, 300, what)
        self.wait_ms(HOLD_MS + 20)          # released before the next press
        return (found[0] - t) / 1e6, found[0]


def _keys(play):
    """The keys of a play by player 0 (the person): from, to for each step."""
    out = []
    for s, t in play.moves:
        for q in (s, t):
            out.append("BAR" if q == 25 else "OFF" if q == 0 else "P%d" % q)
    return out


def play_game(board, link_board, say, think_ms, gap_ms, turns):
    sys.path.insert(0, str(paths.FIRMWARE_LIB))
    from bgcore import Position
    from bgcore.bot import Bot
    from bgcore.net import S_OUT
    bot = Bot(6, 1)
    pace = _Pace(board)
    done, steps, warned, counts = [], [], 0, []
    turn_no = 0
    while turn_no < turns:
        st = _state(link_board)
        ph = st.get("phase")
        if st.get("wait") == "board" or st.get("turn") != "0" and ph not in (
                "doubled", "game_over", "match_over"):
            time.sleep(0.3)
            continue
        if ph in ("game_over", "match_over"):
            pace.press("OK", "the next game")
            continue
        if "warning" in st:                 # a cube warning: keep the action
            pace.press("OK", "OK on a warning")
            continue
        if ph in ("opening", "turn", "doubled"):
            pace.press("OK", "the roll")
            continue
        if ph != "move" or st.get("steps", "-") != "-":
            time.sleep(0.3)
            continue
        pos = Position.from_id(st["pos"])
        d1, d2 = int(st["dice"][0]), int(st["dice"][1])
        plays = pos.plays(d1, d2)
        if len(plays) < 2:                  # no play or a forced one: the board makes it
            time.sleep(0.3)
            continue
        turn_no += 1
        eq = bot.equities(pos, plays)
        pick = eq.index(min(eq)) if turn_no % 4 == 0 else eq.index(max(eq))
        loss = (max(eq) - eq[pick]) * 1000 // S_OUT
        keys = _keys(plays[pick])
        pace.wait_ms(think_ms)
        for i, k in enumerate(keys):
            ms, _ = pace.press(k, "the step %s" % k)
            if i == len(keys) - 1:
                done.append(ms)
            else:
                steps.append(ms)
                if gap_ms:
                    pace.wait_ms(gap_ms)
        counts.append(len(plays))
        st = _state(link_board)
        if "warning" in st:
            warned += 1
        say("turn %2d: %3d plays, %s%s, completing step -> frame %.0f ms%s"
            % (turn_no, len(plays), st["dice"], " (loses %d.%03d)" % (loss // 1000, loss % 1000)
               if loss else "", done[-1], ", warned" if "warning" in st else ""))
        if st.get("complete") == "1" or "warning" in st:
            pace.press("OK", "OK")
    return done, steps, warned, counts


def probe(board, rolls, seed):
    """tutor_probe.py on the chip (raw REPL, the HAL open), then the app again."""
    return chip.run_script(board, "ROLLS = %d\nSEED = %d\n" % (rolls, seed) + PROBE.read_text())


def unix_probe(rolls, seed):
    from bgboard.bench_chip import run_unix
    return run_unix(PROBE, (rolls, seed))


def _figures(say, chip_res, unix_res):
    say("%-40s %24s %24s" % ("the tutor's parts (%d rolls, %d-%d plays)"
                             % (len(chip_res["plays"]), min(chip_res["plays"]),
                                max(chip_res["plays"])),
                             "chip median / worst ms", "unix median / worst ms"))
    for key, what in (("cold_us", "all plays scored at the completing step"),
                      ("slice_us", "one background slice (a loop pass)"),
                      ("warm_us", "completing step, background done")):
        c, u = chip_res[key], unix_res[key]
        say("%-40s %12.1f / %9.1f %12.2f / %9.2f" % (
            what, statistics.median(c) / 1000, max(c) / 1000, statistics.median(u) / 1000,
            max(u) / 1000))
    worst = max(range(len(chip_res["cold_us"])), key=lambda i: chip_res["cold_us"][i])
    say("the worst roll: %d plays, %.0f ms on the chip, %.1f ms on the unix port (%.0fx)"
        % (chip_res["plays"][worst], chip_res["cold_us"][worst] / 1000,
           unix_res["cold_us"][worst] / 1000,
           chip_res["cold_us"][worst] / max(1, unix_res["cold_us"][worst])))


def run(turns=12, think_ms=400, gap_ms=250, seed=2026, profile="reference", rolls=30):
    try:
        chip.check()
    except chip.ChipUnavailable as e:
        print("bgboard bench tutor: %s" % e, file=sys.stderr)
        return 1

    def say(text):
        print(text, flush=True)

    from bgboard.link import Board
    t0 = time.monotonic()
    say("the tutor on the emulated RP2040 (rp2040js, MicroPython rp2), emulated ms; a person's "
        "pace: %d ms before the first key, %d ms between keys" % (think_ms, gap_ms))
    with tempfile.TemporaryDirectory() as tmp:
        chip.install(Path(tmp) / "flash.img", profile)
        board = chip.ChipBoard(Path(tmp) / "link", Path(tmp) / "flash.img",
                               log=open(os.devnull, "w")).start()
        try:
            board.wait(lambda: len(board.frames) > 0, 600, "the first LED frame")
            with Board(board.link) as b:
                b.hello(timeout=600)
                # the tutor at 0.04 (P23 three times), money play, the level-6 bot, a new game
                for line in ("KEY P23", "KEY P23", "KEY P23", "KEY P9", "KEY P6", "KEY OK"):
                    b.request(line, timeout=120)
                st = _state(b)
                if st.get("tutor") != "40" or st.get("mode") != "money":
                    raise RuntimeError("the board did not take the settings: %s" % st)
                done, steps, warned, counts = play_game(board, b, say, think_ms, gap_ms, turns)
            chip_res = probe(board, rolls, seed) if rolls else None
        finally:
            board.stop()
    if done:
        say("completing step -> frame: median %.0f ms, worst %.0f ms (%d plays keyed, %d warned; "
            "%d-%d legal plays a roll)" % (statistics.median(done), max(done), len(done),
                                           warned, min(counts), max(counts)))
    if steps:
        say("any other step -> frame:  median %.0f ms, worst %.0f ms (%d steps)"
            % (statistics.median(steps), max(steps), len(steps)))
    if chip_res:
        _figures(say, chip_res, unix_probe(rolls, seed))
    say("(%.0f s of host time)" % (time.monotonic() - t0))
    return 0
