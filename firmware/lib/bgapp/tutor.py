# The tutor on the board: before a person's play or cube action is made, what it loses against
# the bot's best choice (bgcore.tutor, level 6) is compared with the setting; above it a TUTOR
# warning goes to the record (so a power cut resumes it) and the screen that took the key (the
# move, roll or cube view) waits for the answer: OK keeps the action, HINT shows the better
# choice, UNDO takes it back. Imported only when the tutor is on.

from bgcore import tutor as figures

_BETTER = {"double": "no double: roll", "take": "drop", "drop": "take"}


def warn(app, p, what, loss):
    """A TUTOR warning when `loss` (millipoints) is over the threshold: True when warned."""
    g = app.game
    if loss <= g.tutor():
        return False
    g.ev("TUTOR %d %s %d" % (p, what, loss))
    return True


def scorer(app, m, plays):
    """Scores the plays of the person's roll in the background (bgcore.tutor.Scorer)."""
    return figures.Scorer(app.bot(6), m.pos, plays)


def double_loss(app, m):
    return figures.double_loss(app.bot(6), m)


def answer_loss(app, m, take):
    return figures.answer_loss(app.bot(6), m, take)


def answer(app, key, act):
    """A key while a cube warning is open: OK keeps it (act() makes the action), UNDO takes it
    back, HINT names the better choice. Returns None, or why the key is refused."""
    g = app.game
    w = g.rep.warning
    p = w[0]
    if key == "OK":
        g.ev("TUTOR %d keep" % p)
        act()
    elif key == "UNDO":
        g.ev("TUTOR %d undo" % p)
    elif key == "HINT":
        g.ev("TUTOR %d hint" % p)
        app.message = "hint: " + _BETTER[w[1]]
        return None
    else:
        return refusal(w)
    app.changed()
    return None


def move_answer(view, key):
    """A key in the move view while a warning on the play is open: OK keeps the play, UNDO
    takes all its steps back (None: done); HINT is noted and returns "HINT" (the view shows
    the hint as ever); another key returns why it is refused."""
    app = view.app
    g = app.game
    p = g.m.turn
    if key == "OK":
        g.ev("TUTOR %d keep" % p)
        view._confirm(view.complete, False)
        return None
    if key == "UNDO":
        g.ev("TUTOR %d undo" % p)
        for _ in range(len(g.rep.steps)):
            g.ev("UNDO %d" % p)
        app.changed()
        return None
    if key != "HINT":
        return refusal(g.rep.warning)
    g.ev("TUTOR %d hint" % p)
    return "HINT"


def points(mp):
    """Millipoints as points: 213 -> '0.213'."""
    return "%d.%03d" % (mp // 1000, mp % 1000)


def refusal(w):
    return "tutor: the %s loses %s: OK keeps it, HINT shows better, UNDO takes it back" % (
        w[1], points(w[2]))
