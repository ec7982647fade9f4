# Multiple-cube chouette: a person on roll pressed DOUBLE and picks the cubes to turn. The box picks
# the members it doubles (one, some or all); on the team's turn each member who is a person picks
# their own cube to double the box. P1-P8 pick a player by their place in the line (the box is
# P1, the captain P2), again to unpick; OK offers the picked cubes (each is answered on its own:
# view_chouette_cube), UNDO or DOUBLE goes back to the roll. When a bot captains the team, its
# people get this screen at the start of the team's turn: OK with nothing picked (or UNDO) lets
# the bot roll on.

from bgapp.game import View
from bgapp.chouette import short


class ChouetteDoubleView(View):
    module = "view_chouette_double"

    def key(self, key):
        app = self.app
        g = app.game
        ch = g.ch
        picked = g.picking
        m = ch.match
        if key in ("OK", "UNDO", "DOUBLE"):
            if key == "OK" and not picked and g.who[m.turn] is None:
                return "pick a cube first: P2-P%d (the player's place in the line)" % len(ch.line)
            g.picking = None
            g.waived = (m.game, g.rep.slot)     # the people's chance this turn is used
            if key == "OK":
                g.offer([p for p in ch.line if p in picked])
            app.changed()
            return None
        n = int(key[1:]) if key[0] == "P" and key[1:].isdigit() else 0
        if not 1 <= n <= len(ch.line):
            return "P1-P%d picks a player's cube, OK offers, UNDO back" % len(ch.line)
        p = ch.line[n - 1]
        if p not in g.pickable():
            return "%s's cube cannot be turned now" % ch.names[p]
        if p in picked:
            picked.remove(p)
        else:
            picked.append(p)
        return None

    def lines(self):
        g = self.app.game
        ch = g.ch
        who = "box" if ch.match.turn == 0 else "team"
        cands = g.pickable()
        first = "%s doubles: P#" % who
        if g.who[ch.match.turn] is not None and not g.picking:
            first = "double? P#, OK no"
        out = [first]
        for p in cands:         # P3 Ann->2 +: picked
            out.append("P%d %s->%d%s" % (ch.line.index(p) + 1, short(ch.names[p]),
                                         2 * ch.cube[p], " +" if p in g.picking else ""))
        out.append(self.app.message or "OK offers, UNDO back")
        return out

    def state(self):
        g = self.app.game
        return " picking=%s" % (",".join(g.ch.names[p] for p in g.picking) or "-")
