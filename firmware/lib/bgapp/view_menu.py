# The menu: settings keys (bot level or two players, game type, match length, cube options,
# auto-confirm, forced plays, real dice, brightness, the tutor), OK for a new game, UNDO (or MENU)
# back to the game (one the heap had no room to replay: its replay again), P24 the pips view,
# HINT the bot's resignations on or off. OK over a game in progress asks first (OK again
# abandons it). Settings are written at once (right after the frame
# that shows the change, so that the LEDs answer first) and kept across power cuts.
# The display shows the flash's free space, and why no game starts when it is nearly full.

from bgapp.game import View

_MODES = ("nocube", "money", "match")
_FLAGS = ("jacoby", "beavers", "auto", "confirm", "forced", "real")     # P13-P18
_TUTOR = (0, 160, 80, 40)      # P23 steps through: off, then the warning threshold in millipoints


def in_progress(g):
    """A game that OK in the menu would abandon: begun (a move on flash), not over (a match:
    not over before its end)."""
    if not g or g.rep.ended or g.ch and g.ch.ended or not g.app.journal.played:
        return False
    m = g.m
    return not (m.phase == "match_over" or m.phase == "game_over" and m.rules.mode != "match")


class MenuView(View):
    name = "menu"
    playing = False
    transient = True
    module = "view_menu"

    def key(self, key):
        app = self.app
        s = app.journal.settings
        n = int(key[1:]) if key[0] == "P" and key[1:].isdigit() else 0
        # a game in progress that the heap had no room to replay (App.resume): still current
        waiting = not app.game and s["current"]
        if key == "OK":
            if (waiting or in_progress(app.game)) and app.confirm != "OK":
                app.confirm = "OK"      # pressed again at once: abandon it (app.press)
                app.message = "abandon this game? OK: yes, MENU: back to it"
                return None
            app.journal.save_settings()
            return app.new_match()
        if key == "UNDO":
            if waiting:                 # its replay again, in the heap as it is now
                app.message = ""
                app.note = ""
                app.resume()
                return None if app.game else app.note
            if not app.game:
                return "no game to go back to: OK starts one"
            app.message = ""            # (the question, if OK asked one)
            app.go(app.play)
            app.journal.save_settings()
            return None
        if n == 24:
            return app.show_pips()
        if n in (1, 2, 3, 4, 5, 6, 7, 18, 23) and app.game and app.game.ranked:
            from bgapp import rankplay
            why = rankplay.menu_key(app, n)     # unranks the game in progress, once confirmed
            rankplay.drop()
            if why:
                return why
        if n == 22:
            return app.show_best(s["opponent"] or 6)
        if key == "OFF":                # resign the game in progress (bgapp.view_resign)
            if not app.game:
                return "no game to resign"
            app.go(app.play)
            from bgapp.app import load
            return load("view_resign", "offer")(app)
        if key == "BAR":                # delete the records the laptop holds (bgapp.index)
            n, size = app.room("offer")
            if not n:
                return ("no record here that the laptop pulled and verified "
                        "(bgboard logs pull marks them)")
            if app.confirm != "BAR":
                app.confirm = "BAR"     # pressed again at once: delete them (app.press)
                app.message = "delete %d record%s the laptop holds (%d KB)? BAR: yes" % (
                    n, "s" if n > 1 else "", size // 1024)
                return None
            app.confirm = ""
            app.message = app.room("delete_pulled")
            return None
        if key == "DOUBLE":
            from bgapp.app import load
            app.go(load("view_chouette", "ChouetteSetupView")(app))
            return None
        if 1 <= n <= 6:
            s["opponent"] = n
        elif n == 7:
            s["opponent"] = 0
        elif 8 <= n <= 10:
            s["mode"] = _MODES[n - 8]
        elif n == 11:
            s["length"] = max(1, s["length"] - 1)
        elif n == 12:
            s["length"] = min(25, s["length"] + 1)
        elif 13 <= n <= 18:
            k = _FLAGS[n - 13]
            s[k] = 1 - s[k]
        elif n == 21:
            s["ranked"] = 1 - s["ranked"]
        elif key == "HINT":
            s["resign"] = 1 - s["resign"]
        elif n in (19, 20):
            cap = app.profile["brightness"]["max"]
            app.bright = max(4, min(cap, app.bright + (-8 if n == 19 else 8)))
            s["bright"] = app.bright
        elif n == 23:
            t = _TUTOR.index(s["tutor"]) if s["tutor"] in _TUTOR else 0
            s["tutor"] = _TUTOR[(t + 1) % len(_TUTOR)]
            if s["tutor"] and app.game:
                app.game.tutor_on()
        else:
            return ("not a menu choice (P1-P23, P24 pips, DOUBLE chouette, HINT bot resigns, "
                    "OFF resign, BAR delete pulled records, OK new game, MENU back)")
        app.unsaved = True     # written after the frame that shows it, once the board's keys
                               # have been quiet for 1.5 s (App._loop)
        return None

    def draw(self, r):
        app = self.app
        s = app.journal.settings
        col = r.col
        on = col["source"]
        for n in range(1, 24):          # points by number: no string made per point and frame
            r.light(n, 1, on, 3)
        if s["opponent"]:
            r.light(s["opponent"], s["opponent"], r.side[1])
        else:
            r.light(7, 2, r.side[0])
        r.light(8 + _MODES.index(s["mode"]), 7, col["dest"])
        if s["mode"] == "match":
            r.stack_of("off0", s["length"], 0)
        for i in range(6):
            if s[_FLAGS[i]]:
                r.light(13 + i, 7, col["dest"])
        cap = app.profile["brightness"]["max"]
        r.light("bar0", (app.bright * 7 + cap - 1) // cap, col["dice"])
        if s["tutor"] in _TUTOR:
            r.light("p23", _TUTOR.index(s["tutor"]), col["dest"])
        r.light("p24", 1, col["last"])
        if s["ranked"]:
            r.light("p21", 7, col["dest"])
        r.light("p22", 1, col["last"])

    def lines(self):
        app = self.app
        s = app.journal.settings
        who = "vs bot level %d" % s["opponent"] if s["opponent"] else "two players"
        if s["mode"] == "match":
            kind = "match to %d" % s["length"]
        elif s["mode"] == "money":
            kind = "money game, cube"
            kind += "".join(" " + k for k in ("jacoby", "beavers") if s[k])
            if s["auto"]:
                kind += " auto-dbl"
        else:
            kind = "single game"
        if s["ranked"]:
            kind = "RANKED single game" if s["opponent"] else "ranked: choose a bot level"
        opts = " ".join(n for k, n in (("confirm", "auto-OK"), ("forced", "auto-forced"),
                                       ("real", "real-dice"), ("resign", "bot-resigns"))
                        if s[k])
        if s["tutor"]:
            opts += " tutor %d.%02d" % (s["tutor"] // 1000, s["tutor"] % 1000 // 10)
        free = app.journal.free()
        return ["MENU  OK: new game", who, kind, opts.strip() or "(no options on)",
                "flash: %dK free" % (free // 1024) if free is not None else "",
                app.message or app.note or app.room("no_room") or ""]
