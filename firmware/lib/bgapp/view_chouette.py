# The chouette set-up (DOUBLE in the menu): P3-P8 the number of players, P9 single cube, P10 multiple
# cubes, P13-P20 seat 1-8 taken by a bot (at the menu's bot level) or a person (named from the
# settings' list), OK starts (the order is rolled: start), UNDO or MENU back to the menu.

from bgapp.game import View


class ChouetteSetupView(View):
    name = "menu"
    playing = False
    transient = True
    module = "view_chouette"

    def key(self, key):
        app = self.app
        s = app.journal.settings
        n = int(key[1:]) if key[0] == "P" and key[1:].isdigit() else 0
        if key == "OK":
            app.journal.save_settings()
            return app.new_chouette()
        if key == "UNDO":
            app.to_menu()
            return None
        if 3 <= n <= 8:
            s["ch_n"] = n
        elif n in (9, 10):
            s["ch_cubes"] = "single" if n == 9 else "multiple"
        elif 13 <= n <= 20:
            s["ch_bots"] ^= 1 << (n - 13)
        else:
            return "chouette: P3-P8 players, P9/P10 cubes, P13-P20 bot seats, OK start"
        app.journal.save_settings()
        return None

    def draw(self, r):
        s = self.app.journal.settings
        col = r.col
        r.light("p%d" % s["ch_n"], s["ch_n"], col["dest"])
        r.light("p9" if s["ch_cubes"] == "single" else "p10", 7, col["dest"])
        for k in range(s["ch_n"]):
            r.light("p%d" % (13 + k), 2, r.side[1] if s["ch_bots"] >> k & 1 else r.side[0])

    def lines(self):
        s = self.app.journal.settings
        people = s["names"].split()
        seats = []
        for k in range(s["ch_n"]):
            seats.append("bot" if s["ch_bots"] >> k & 1 else
                         (people[k] if k < len(people) else "P%d" % (k + 1)))
        return ["CHOUETTE  OK: start", "%d players, %s cube" % (s["ch_n"], s["ch_cubes"]),
                " ".join(seats), self.app.message or ""]


def start(app):
    """A chouette from the set-up in the settings: the players sit down, roll for the order (a
    CHOUETTE line, then ORDER lines until no tie is left); returns the ChouetteGame."""
    from bgcore.chouette import Chouette
    from bgcore.match import Rules, MONEY
    from bgcore.record import quote
    from bgapp.chouette import ChouetteGame
    s = app.journal.settings
    people = s["names"].split()
    names = []
    for k in range(s["ch_n"]):
        if s["ch_bots"] >> k & 1:
            names.append("bot:%d-%d" % (s["opponent"] or 6, k + 1))
        else:
            names.append(people[k] if k < len(people) else "P%d" % (k + 1))
    app.journal.start(Rules(MONEY), ("box", "team"), app.FW)
    ch = Chouette(names, s["ch_cubes"], False)
    g = ChouetteGame(app, ch)
    app.journal.append("CHOUETTE %s %s" % (ch.cubes, " ".join(quote(n) for n in names)))
    while ch.to_order():
        g.ev("ORDER " + " ".join("%d:%d" % (p, app.roll_dice()[0]) for p in ch.to_order()))
    return g
