# The drive's commands for the tutor (tests/mp/app_drive.py loads this module when one of them
# comes): TURN, BLUNDER, BEST, MEM, OOM (a pass out of memory in a person's move), BREAK
# (the record's next write fails) (see app_drive.py's top), SPLIT and NAMES (below); the
# chouette's CGAME is drive_chouette.py's.
import gc

_pins = []      # SPLIT's small blocks, kept for the rest of the run


def short_game_once():
    """The next game made (bgapp.game.Game, as App.resume makes one from a replay) runs out of
    memory, once."""
    from bgapp import game
    real = game.Game

    def short_game(*args):
        game.Game = real
        raise MemoryError("memory allocation failed (the test)")
    game.Game = short_game


def run(w, app, hal, key_play):
    def settle():
        # run the loop until the board waits for a person
        for i in range(10000):
            app.tick()
            g = app.game
            if not (app.pending or app.anim.hops) and g.actor() is not None \
                    and g.who[g.actor()] is None:
                return
            if g.m.phase in ("game_over", "match_over"):
                return

    def best_play():
        m = app.game.m
        return app.bot(6).hint(m.pos, m.dice[0], m.dice[1])

    if w[0] in ("TURN", "BLUNDER"):
        from bgcore.net import S_OUT
        while True:
            settle()
            g = app.game
            m = g.m
            if m.phase in ("opening", "turn"):
                if w[0] == "TURN" and m.phase == "turn":
                    break
                app.press("OK")
                continue
            if m.phase != "move":
                break
            plays = app.move.plays
            if w[0] == "BLUNDER" and len(plays) > 1:
                eq = app.bot(6).equities(m.pos, plays)
                worst = min(range(len(eq)), key=lambda i: eq[i])
                loss = (max(eq) - eq[worst]) * 1000 // S_OUT
                if loss > app.journal.settings["tutor"]:
                    play = plays[worst].detached()
                    plays = eq = None
                    print("BLUNDER", loss, play)
                    key_play(play, m.turn)
                    break
            plays = None
            play = best_play()
            if play:
                key_play(play, m.turn)
            app.press("OK")
    elif w[0] == "OOM":
        # a pass of the loop that ran out of memory while a person's move waits (App.fault drops
        # the roll's plays), then the loop's ticks: the turn must wait for the person, not pass
        # (the pass would be refused, the roll can be played), and the next keys must play
        while True:
            settle()
            m = app.game.m
            if m.phase in ("opening", "turn"):
                app.press("OK")
                continue
            if m.phase != "move" or len(app.move.plays) > 1:
                break
            play = best_play()
            if play:
                key_play(play, m.turn)
            app.press("OK")
        m = app.game.m
        turn = m.turn
        app.link.reserve = None     # (the emergency reserve already let go: the loop's own path)
        app.fault(MemoryError())
        for i in range(100):
            app.tick()
        print("OOM", m.phase, m.turn == turn, app.move.plays is None, app.message)
        play = best_play()
        print("OOMKEYED", key_play(play, turn), app.press("OK"), app.game.m.turn != turn)
    elif w[0] == "BREAK":
        # BREAK name before|after [resume|build]: the record's next write fails once, with the
        # builtin exception `name`, raised by the file's write before the line reaches the file
        # or after it is in; with `resume`, the replay that follows (App.reload) runs out of
        # memory too, as in a heap still short; with `build`, the replay fits and making the
        # game from it runs out
        import builtins
        j = app.journal
        f = j.f
        e = getattr(builtins, w[1])("broken by the test")
        after = w[2] == "after"
        if w[3:] == ["resume"]:
            def short(name):
                del j.resume      # (once: the class's own from then on)
                raise MemoryError("memory allocation failed (the test)")
            j.resume = short
        elif w[3:] == ["build"]:
            short_game_once()

        class Broken:
            def write(self, b):
                j.f = f           # (once)
                if after:
                    f.write(b)
                    f.flush()
                raise e

            def __getattr__(self, name):
                return getattr(f, name)

        j.f = Broken()
    elif w[0] == "GIVEBACK":
        # GIVEBACK n: the free heap in pieces of about n bytes (each piece then a pin, kept in
        # chains of small nodes: no long list whose block would leave a large hole), then
        # what Ctrl-C does
        import sys
        from bgapp.fault import give_back
        n = int(w[1])
        gc.collect()
        pins = pieces = None
        try:
            while True:
                pieces = (bytearray(n), pieces)
                pins = (pins,)
        except MemoryError:
            pass
        pieces = None
        give_back(app)
        left = 0
        for k in sys.modules:
            left += k.startswith("bgapp") or k.startswith("bgcore")
        print("GIVEBACK", left)
        sys.exit(0)         # (the app's modules are gone: nothing after this)
    elif w[0] == "SPLIT":
        # SPLIT n: the heap as a long session leaves it: most of it free, in pieces of n bytes
        # at most (a small block kept between each two)
        gc.collect()
        n = int(w[1])
        big = []
        try:
            while True:
                big.append(bytearray(n))
                _pins.append(bytearray(1))
        except MemoryError:
            pass
        big = None
        gc.collect()
        print("SPLIT", gc.mem_free())
    elif w[0] == "NAMES":
        # NAMES: MicroPython's table of names (its line: pools, names, bytes)
        import micropython
        micropython.qstr_info()
    elif w[0] == "BEST":
        print("BEST", best_play())
        key_play(best_play(), app.game.m.turn)
    elif w[0] == "MEM":
        gc.collect()
        print("MEM", gc.mem_alloc(), gc.mem_free())
