# Name and country entry after a ranked win (the key map is in bgapp/naming.py): the text on the
# panel in a 3x5 font and on the text display; the entry in progress is kept on flash so that a
# power cut resumes it. Once the country is accepted the NAME and COUNTRY lines go to the record
# and the best-wins view shows the level's table.

import gc

from bgapp.game import View
from bgapp.naming import Entry, char_of
from bgapp import font


class NameView(View):
    name = "name"

    def __init__(self, app):
        View.__init__(self, app)
        self.entry = None

    def enter(self):
        if self.entry is None:
            j = self.app.journal
            s = j.settings
            kept = s["entry"]          # "<record> <entry>": an entry cut short by a power cut
            mine = kept.startswith(j.name + " ")
            self.entry = (Entry.restore(kept[len(j.name) + 1:], s["country"]) if mine
                          else None) or Entry(s["name"], s["country"])

    def leave(self):
        self.entry = None

    def key(self, key):
        app = self.app
        e = self.entry
        why = e.key(key)
        if why:
            return why
        s = app.journal.settings
        if e.stage != "done":
            s["entry"] = app.journal.name + " " + e.saved()   # a power cut resumes it here
            app.journal.save_settings()
            return None
        from bgapp import rankplay
        g = app.game
        s["entry"] = ""
        level, entry = rankplay.sign(app, g, e.name, e.country, g.started)
        self.entry = None
        app.changed()            # the game is closed: this view leaves, its modules too
        rankplay.drop("naming", "font", "view_name")
        gc.collect()
        return app.show_best(level, entry)

    def draw(self, r):
        e = self.entry
        if not e:
            return
        col = r.col
        shown = e.text[-8:] if e.stage == "name" else e.text
        font.text(r, shown[:4], 0, 0, r.side[0])
        font.text(r, shown[4:8], 0, 6, r.side[0] if e.stage == "name" else col["dest"])
        at = self.app.input.at()
        c = char_of(at, e.page) if at else None
        font.text(r, c if c and c != " " else ("A" if e.page == 0 else "0"), 13, 11,
                  col["dice"])
        font.text(r, "N" if e.stage == "name" else "C", 0, 11, col["last"])

    def lines(self):
        e = self.entry
        if not e:
            return ["", "", "", "", ""]
        if e.stage == "name":
            head = "NAME: %s_" % e.text
            help1 = "P1-24 A-X BAR Y OFF Z" if e.page == 0 else "P1-10 0-9 P11 - P12 ."
        else:
            head = "COUNTRY: %s_" % e.text
            help1 = "P1-24 A-X BAR Y OFF Z"
        help2 = "HINT space DOUBLE 0-9" if e.stage == "name" else "two letters (ISO)"
        return [head, help1, help2, "UNDO delete OK done", self.app.message or ""]

    def state(self):
        e = self.entry
        if not e:
            return ""
        return " entry=%s,%s" % (e.stage, e.text.replace(" ", "_") or "-")
