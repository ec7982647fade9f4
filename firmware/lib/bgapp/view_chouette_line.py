# Between a chouette's games: the last game's settlement, the line (box, captain, the rest) and
# every player's running score. OK starts the next game; P1-P8 (a player's place in the line,
# the box P1), pressed twice, lets that player leave; DOUBLE seats the next person of the
# settings' names at the end of the line, HINT a bot (at the menu's level). Each is a JOIN or
# LEAVE line in the record.

from bgapp.game import View
from bgapp.chouette import short
from bgcore.chouette import MIN_PLAYERS, MAX_PLAYERS
from bgcore.record import quote

_NAMES = 16     # players seated over one chouette's record: each stays in its state however
                # many left (about 180 bytes of the board's heap: the soak's chouette, 72 joins
                # and 69 leaves in 53 games, booted with 12 KB less free, its largest block 2.5 KB)


class ChouetteLineView(View):
    module = "view_chouette_line"

    def key(self, key):
        app = self.app
        g = app.game
        ch = g.ch
        if key == "OK":
            why = app.room("no_room")
            if why:
                return why
            g.next_game()
            return None
        if key in ("DOUBLE", "HINT"):
            if len(ch.line) >= MAX_PLAYERS:
                return "a chouette has at most %d players" % MAX_PLAYERS
            if len(ch.names) >= _NAMES:
                return ("%d players have sat in this chouette: start a new one for more (MENU, "
                        "DOUBLE)" % _NAMES)
            name = newcomer(app, ch, key == "HINT")
            g.ev("JOIN " + quote(name))
            app.message = "%s joins at the end of the line" % name
            app.changed()
            return None
        n = int(key[1:]) if key[0] == "P" and key[1:].isdigit() else 0
        if not 1 <= n <= len(ch.line):
            return ("OK next game, P1-P%d leaves (twice), DOUBLE a person joins, HINT a bot"
                    % len(ch.line))
        p = ch.line[n - 1]
        if len(ch.line) <= MIN_PLAYERS:
            return "a chouette needs %d players: %s cannot leave" % (MIN_PLAYERS, ch.names[p])
        if app.confirm != key:
            app.confirm = key
            app.message = "%s again: %s leaves" % (key, ch.names[p])
            return None
        app.confirm = ""
        g.ev("LEAVE %d" % p)
        app.message = "%s left" % ch.names[p]
        app.changed()
        return None

    def lines(self):
        """After game N, a line per player in the line's order (the box first): what the game
        settled, then the running score ("Ann  +2 = -4"; an OLED line holds 16 characters),
        then the message or what OK does. Over the link the settlement line comes first."""
        app = self.app
        g = app.game
        ch = g.ch
        before = g.start or ()
        out = ["after game %d" % ch.match.game]
        for p in ch.line:           # (resumed after a power cut: the totals alone)
            if before:
                d = ch.scores[p] - before[p] if p < len(before) else 0
                out.append("%-4s %+3d =%+d" % (short(ch.names[p]), d, ch.scores[p]))
            else:
                out.append("%-4s =%+d" % (short(ch.names[p]), ch.scores[p]))
        out.append(app.message or "OK: next game")
        return out


def newcomer(app, ch, bot):
    """The name of a player joining: the first of the settings' people not seated, or a bot at
    the menu's level."""
    s = app.journal.settings
    if bot:
        return "bot:%d-%d" % (s["opponent"] or 6, len(ch.names) + 1)
    seated = [ch.names[p] for p in ch.line]
    for n in s["names"].split():
        if n not in seated:
            return n
    return "P%d" % (len(ch.names) + 1)
