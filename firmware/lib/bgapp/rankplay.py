# A ranked game on the board (docs/leaderboard.md): starting one (its seed kept on flash before
# the header commits to it, a server ticket taken when the board has one), resuming one after a
# power cut (the kept seed must match the header's commitment), its end (the reveal, then the
# name and country after a win, the best-wins table), and unranking it (UNRANK). The dice and the
# bot's plays come from bgcore.ranked, exactly as `bgboard selfplay --ranked` and
# `bgboard verify --ranked` derive them. Not a view: the views call these.

from bgcore.ranked import Ranked, person_won, due
from bgapp.tickets import Tickets


def clock():
    """The date and time for a header's start=, when the board's clock has been set."""
    from bgapp.clock import now
    return now()


def new(app, level):
    """A new ranked game against `level` (bgapp.game.Game): its seed is kept on flash (with the
    ticket it takes) before the header commits to it."""
    from bgcore.match import Rules
    from bgcore.record import Replay
    from bgapp.game import Game
    nonce, secret, tid = Tickets(app.hal).begin(app.journal.next_name())
    rk = Ranked(level, nonce, secret, tid)
    rules = Rules("nocube")
    names = ("you", "bot:%d" % level)
    g = Game(app, Replay(rules, names, history=False), names)
    g.ranked = rk
    g.started = clock() or "-"
    app.journal.start(rules, names, app.FW, extra=rk.header(), start=g.started)
    return g


def drop(*more):
    """Take this module and bgapp.tickets (and bgapp modules `more`) off the heap: a game in
    progress needs neither (its dice and its bot's plays come from bgcore.ranked); they are
    imported again when needed."""
    import sys
    pkg = sys.modules.get("bgapp")
    for m in ("rankplay", "tickets") + more:
        sys.modules.pop("bgapp." + m, None)
        if pkg and hasattr(pkg, m):
            delattr(pkg, m)


def confirmed(app, key):
    """A step that unranks the game asks first: True on the second press of `key` in a row."""
    if app.confirm == key:
        app.confirm = ""
        return True
    app.confirm = key
    return False


def resume(app, g, info):
    """After a power cut: the ranked part of game `g` from its header and the kept seed. A game
    whose seed is lost (or does not match its commitment) goes on unranked."""
    if info.get("ranked") != "1" or "UNRANK" in g.rep.ranked:
        return
    g.started = info.get("start", "-")
    if "SEED" in g.rep.ranked:        # over and revealed: only the name may still be due
        if not due(g.rep):
            close(app, g)
        return
    kept = Tickets(app.hal).game(app.journal.name)
    lv = info.get("level", "")
    rk = Ranked(int(lv), kept[0], kept[1], kept[2]) if kept and lv.isdigit() and \
        1 <= int(lv) <= 6 else None
    if rk is None or not rk.matches(info):
        g.ev("UNRANK seed")
        app.note = "the ranked game's seed is lost: it goes on unranked"
        return
    g.ranked = rk
    if g.rep.match.result:            # cut between END and the reveal
        reveal(app, g)


def menu_key(app, n):
    """A menu key while a ranked game is in progress: changing the bot level (P1-P7) or
    turning real dice (P18) or the tutor (P23) on unranks it, after a confirmation. None: go on
    with the key."""
    g = app.game
    if not (g and g.ranked) or g.rep.match.result:
        return None
    s = app.journal.settings
    if 1 <= n <= 7 and n != g.ranked.level:
        what, reason = "changing the level", "level"
    elif n == 18 and not s["real"]:
        what, reason = "real dice make", "real"
    elif n == 23 and not s["tutor"]:
        what, reason = "the tutor makes", "tutor"
    else:
        return None
    if not confirmed(app, "P%d" % n):
        return "%s the game in progress unranked: P%d again to confirm" % (
            what + (" makes" if reason == "level" else ""), n)
    unrank(app, g, reason)
    return None


def can_start(s):
    """Why a ranked game cannot start with these settings, or None."""
    if not s["opponent"]:
        return "a ranked game is against the bot: choose its level (P1-P6)"
    if s["real"]:
        return "a ranked game uses the board's dice: P18 turns real dice off"
    if s["tutor"]:
        return "a ranked game is played without the tutor: P23 until it is off"
    return None


def unrank(app, g, reason):
    g.ev("UNRANK " + reason)
    g.ranked = None
    Tickets(app.hal).forget_game()
    app.message = "this game is no longer ranked (%s)" % reason


def reveal(app, g):
    """After END: the seed revealed, then MATCHEND unless a name is due. True when the person
    won and is to enter a name and country."""
    if "SEED" not in g.rep.ranked:
        g.ev(g.ranked.reveal())
    Tickets(app.hal).forget_game()
    if person_won(g.rep)[0]:
        return True
    close(app, g)
    return False


def close(app, g):
    m = g.rep.match
    if not g.rep.ended:
        sc = m.score
        g.ev("MATCHEND %d %d %d" % (m.result[0], sc[0], sc[1]))
    j = app.journal
    if j.settings["current"] == j.name:
        j.settings["current"] = ""
        j.save_settings()
    j.finish()                # complete: LOGS no longer shows it open, a pull takes it


def sign(app, g, name, country, date="-"):
    """The name and country entered after a win: written to the record (which is then closed)
    and remembered as the last ones. Returns (level, best-wins entry)."""
    from bgcore.rankfields import name_lines
    for payload in name_lines(name, country):
        g.ev(payload)
    record = app.journal.name
    points, pips = person_won(g.rep)
    close(app, g)
    s = app.journal.settings
    s["name"] = name
    s["country"] = country
    app.journal.save_settings()
    return int(g.names[1][4:]), (points, pips, record, date[:10] or "-", country, name)
