# The best-wins view: for one bot level at a time the top 10 ranked wins on this board (name,
# country, points, the bot's pips left, date) from bgapp.best. P1-P6 choose the level; any other
# key goes back (to the game, or the menu).

from bgapp.game import View
from bgapp.best import Best
from bgapp import font


class BestView(View):
    name = "best"
    playing = False
    transient = True
    module = "view_best"

    def __init__(self, app):
        View.__init__(self, app)
        self.table = Best(app.hal, app.journal)
        self.level = 6
        self.mark = ""            # the record just entered, highlighted

    def show(self, level, entry=None):
        """Show `level`'s table; `entry`: a win just named, put in its place first."""
        self.level = level
        app = self.app
        self.table.load()
        if self.table.note:
            app.note = self.table.note
        if entry:
            self.mark = entry[2]
            place = self.table.add(level, entry)
            app.message = ("your win is #%d on level %d" % (place, level) if place
                           else "your win is not in level %d's top 10" % level)

    def key(self, key):
        app = self.app
        if key[0] == "P" and key[1:].isdigit() and 1 <= int(key[1:]) <= 6:
            self.level = int(key[1:])
            return None
        self.mark = ""
        if app.game:
            app.go(app.play)
        else:
            app.to_menu()
        return None

    def rows(self):
        return self.table.load().get(self.level, [])

    def draw(self, r):
        rows = self.rows()
        font.text(r, str(self.level), 0, 0, r.col["dice"])
        for i in range(len(rows)):
            e = rows[i]
            r.light("p%d" % (i + 1), e[0], r.col["last"] if e[2] == self.mark else r.side[0])

    def lines(self):
        from bgcore.bot import NAMES
        out = ["BEST level %d %s" % (self.level, NAMES[self.level])]
        rows = self.rows()
        if not rows:
            out.append("no ranked wins yet")
        for i in range(len(rows)):
            pts, pips, rec, date, cc, name = rows[i]
            out.append("%2d %-12s %s %dp %3d %s%s" % (i + 1, name, cc, pts, pips, date,
                                                     " *" if rec == self.mark else ""))
        return out
