# The chouette: three to eight players on one board. The box plays against a team led by the
# captain, who moves the team's checkers; each member of the team stands to win or lose against
# the box on their own cube. Single-cube: the team shares one cube; when the box doubles, each
# member takes or drops on their own (those who drop pay and leave the game); the captain doubles
# for the team and the box answers for all. Multiple-cube: every member has a cube of their own;
# the box may double members one by one and each member may double the box. A captain who leaves
# the game hands the captaincy to the next member still playing. After each game every member
# still playing settles with the box (the result times their cube); the box keeps the box by
# beating the captain, else the captain becomes the box; a captain goes to the end of the line.
#
# The record (bgcore.record's chained lines; the header as for a money session, p0=box p1=team):
#   CHOUETTE single|multiple Ann Bob bot:6 Cy    (the players, in the order they sat down)
#   ORDER 0:5 1:3 2:5 3:1   (player:die; players tied on everything so far roll again: ORDER 0:2 2:6)
#   GAME 1, OPEN, ROLL, STEP, UNDO, MOVE, END   (checker play: side 0 the box, side 1 the captain)
#   CDOUBLE 2 4             (the cube between the box and player 2 goes to 4: offered by the side
#                            on roll; single-cube: one line for every member playing)
#   CTAKE 2 / CDROP 2       (the offered side answers for player 2's cube)
#   SCORE 3 -1 -2 0         (after each game: every player's running total, in points)
#   JOIN Dan / LEAVE 3      (between games: a player sits down at the end of the line, or leaves)
#   CHOUETTEEND             (the session is over; nothing follows)

from bgcore.match import Match, Rules, MONEY, NOCUBE, OPENING, TURN, GAME_OVER, MATCH_OVER
from bgcore.record import Replay, unquote

SINGLE = "single"
MULTIPLE = "multiple"
MIN_PLAYERS = 3
MAX_PLAYERS = 8


class Chouette:
    """A chouette's state, fed with the record's events (`event(words)`, ValueError when one is
    not allowed). Players are numbered in the order they sat down. `games` holds per game
    [box, captain, members, events]; without `history` only the game in progress, without its
    events (a board needs no more)."""

    def __init__(self, names, cubes=SINGLE, history=True):
        if cubes not in (SINGLE, MULTIPLE):
            raise ValueError("a chouette has a single cube or multiple cubes, not %r" % (cubes,))
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError("a chouette has 3 to 8 players, not %d" % len(names))
        self.cubes = cubes
        self.names = list(names)
        self.scores = [0] * len(names)
        self.seated = [True] * len(names)
        self.line = []                  # box, captain, then the rest of the team in order
        self._dice = [[] for _ in names]   # each player's order dice
        self.rep = Replay(Rules(NOCUBE), ("box", "team"), history=False)
        self.ended = False
        self.history = history
        self.games = []                 # per game: [box, captain, members, events]
        self._game_over()

    def _game_over(self):
        self.playing = []               # members still in the game
        self.cube = {}                  # member -> cube value
        self.owner = {}                 # member -> -1 centred, 0 the box, 1 the member
        self.offers = []                # members whose cube is offered, not yet answered
        self.answering = False          # the offers are being answered (no new offer now)
        self.took = True
        self.captain = -1               # the member who moves the team's checkers
        self.decider = -1               # the captain the box must beat to keep the box
        self.decided = None             # the box won (True) or lost against them by the cube
        self.dropped_captains = []

    # ---- what may happen now -----------------------------------------------------------------
    @property
    def match(self):
        return self.rep.match

    @property
    def box(self):
        return self.line[0] if self.line else -1

    def to_order(self):
        """The players who roll a die for the order now ([] once the line is set)."""
        if self.line:
            return []
        live = [p for p in range(len(self.names)) if self.seated[p]]
        n = min(len(d) for d in (self._dice[p] for p in live))
        if n == 0:
            return [p for p in live if not self._dice[p]]
        out = []
        for p in live:
            for q in live:
                if q != p and self._dice[q] == self._dice[p]:
                    out.append(p)
                    break
        return out

    def in_game(self):
        return self.match.phase not in (GAME_OVER, MATCH_OVER) and bool(self.line)

    def can_double(self, member):
        """May the side on roll offer member's cube now (start of its turn, no offer open)?"""
        m = self.match
        if m.phase != TURN or member not in self.playing or self.offers:
            return False
        side = m.turn
        return self.owner[member] in (-1, side)

    def cube_match(self, member):
        """A two-player money Match for member's cube (side 0 the box, 1 the member), as the
        bot's cube decisions read it; an open offer of that cube is an offer in it."""
        m = self.match
        v = Match(Rules(MONEY))
        v.phase = m.phase
        v.pos = m.pos
        v.turn = m.turn
        v.dice = m.dice
        v.cube = self.cube[member]
        v.owner = self.owner[member]
        v.game = m.game
        if member in self.offers:
            v.phase = "doubled"
            v.offered_by = m.turn
        return v

    # ---- events ------------------------------------------------------------------------------
    def event(self, words):
        kind = words[0]
        if self.ended:
            raise ValueError("nothing may follow the end of the chouette")
        if kind == "ORDER":
            return self._order(words[1:])
        if not self.line:
            raise ValueError("the players roll for the order first (ORDER)")
        if kind == "GAME":
            if self.in_game():
                raise ValueError("game %d is not finished" % self.match.game)
            self.rep.event(words)
            self._start()
        elif kind in ("OPEN", "ROLL", "STEP", "UNDO", "MOVE"):
            if self.offers:
                raise ValueError("the cube of player %d is offered: take or drop first"
                                 % self.offers[0])
            self.rep.event(words)
        elif kind == "END":
            self.rep.event(words)
        elif kind == "CDOUBLE":
            self._double(_num(words, 1), _num(words, 2))
        elif kind in ("CTAKE", "CDROP"):
            self._answer(_num(words, 1), kind == "CTAKE")
        elif kind == "SCORE":
            self._settle(words[1:])
        elif kind == "JOIN":
            if self.in_game() or len(words) != 2:
                raise ValueError("JOIN takes one name, between games")
            if sum(self.seated) >= MAX_PLAYERS:
                raise ValueError("a chouette has at most 8 players")
            self.names.append(unquote(words[1]))
            self.scores.append(0)
            self.seated.append(True)
            self._dice.append([])
            self.line.append(len(self.names) - 1)
        elif kind == "LEAVE":
            p = _num(words, 1)
            if self.in_game() or p not in self.line:
                raise ValueError("LEAVE takes a seated player, between games")
            if len(self.line) <= MIN_PLAYERS:
                raise ValueError("a chouette needs 3 players: %s cannot leave" % self.names[p])
            self.line.remove(p)
            self.seated[p] = False
        elif kind == "CHOUETTEEND":
            if self.in_game():
                raise ValueError("game %d is not finished" % self.match.game)
            self.ended = True
        else:
            raise ValueError("unknown chouette event %r" % kind)
        if self.history and self.games and kind not in ("SCORE", "JOIN", "LEAVE",
                                                        "CHOUETTEEND"):
            self.games[-1][3].append(" ".join(words))

    def _order(self, pairs):
        want = self.to_order()
        if not want:
            raise ValueError("the order is already set")
        got = {}
        for w in pairs:
            p, _, d = w.partition(":")
            if not (p.isdigit() and d.isdigit() and 1 <= int(d) <= 6):
                raise ValueError("ORDER takes player:die pairs, not %r" % w)
            got[int(p)] = int(d)
        if sorted(got) != sorted(want):
            raise ValueError("players %s roll for the order now" % ",".join(map(str, want)))
        for p in got:
            self._dice[p].append(got[p])
        if not self.to_order():
            live = [p for p in range(len(self.names)) if self.seated[p]]
            self.line = sorted(live, key=lambda p: self._dice[p], reverse=True)

    def _start(self):
        self._game_over()
        self.playing = list(self.line[1:])
        for p in self.playing:
            self.cube[p] = 1
            self.owner[p] = -1
        self.captain = self.decider = self.line[1]
        if not self.history:
            self.games = []
        self.games.append([self.box, self.captain, list(self.playing), []])

    def _double(self, p, value):
        m = self.match
        if not self.in_game() or m.phase != TURN:
            raise ValueError("the cube is turned at the start of a turn")
        if p not in self.playing:
            raise ValueError("player %d is not playing against the box" % p)
        if p in self.offers or self.answering or self.owner[p] not in (-1, m.turn):
            raise ValueError("player %d's cube cannot be offered now" % p)
        if value != 2 * self.cube[p]:
            raise ValueError("player %d's cube would go to %d, not %d"
                             % (p, 2 * self.cube[p], value))
        if self.cubes == SINGLE and m.turn == 1 and not self.offers and p != self.captain:
            raise ValueError("in a single-cube chouette the captain doubles for the team")
        self.offers.append(p)

    def _answer(self, p, take):
        if p not in self.offers:
            raise ValueError("player %d's cube is not offered" % p)
        m = self.match
        if self.cubes == SINGLE:
            # one cube: a double goes to every member; when the team doubles, the box answers
            # the same for all
            if not self.answering and len(self.offers) != len(self.playing):
                raise ValueError("in a single-cube chouette a double goes to every member")
            if m.turn == 1 and self.answering and take != self.took:
                raise ValueError("in a single-cube chouette the box answers the same for all")
        self.answering = True
        self.took = take
        self.offers.remove(p)
        if not self.offers:
            self.answering = False
        c = self.cube[p]
        box = self.box
        if take:
            self.cube[p] = 2 * c
            self.owner[p] = 1 - m.turn
        else:
            winner = box if m.turn == 0 else p      # the side that offered wins the old cube
            loser = p if winner == box else box
            self.scores[winner] += c
            self.scores[loser] -= c
            self._out(p, winner == box)

    def _out(self, p, box_won):
        # member p leaves the game: dropped the box's double (box_won) or won when the box
        # dropped theirs
        self.playing.remove(p)
        if p == self.captain and self.playing:
            self.captain = self.playing[0]       # the next member moves the team's checkers
        if p == self.decider:
            if not box_won:
                self.decided = False             # the box lost to the captain
            elif self.playing:
                self.dropped_captains.append(p)  # a captain who drops goes to the bottom
                self.decider = self.captain
            else:
                self.decided = True
        if not self.playing:
            # nobody is left against the box: the checker game stops here
            m = self.match
            if m.phase not in (GAME_OVER, MATCH_OVER):
                m.resign(1 if box_won else 0, 1)

    def settled(self):
        """Every player's score once the game just over is settled: each member still playing
        wins or loses the result times their cube against the box."""
        out = list(self.scores)
        m = self.match
        if self.playing and m.result and not self.in_game():
            w, pts, how = m.result
            for p in self.playing:
                v = pts * self.cube[p]
                out[self.box] += v if w == 0 else -v
                out[p] += -v if w == 0 else v
        return out

    def _settle(self, words):
        if self.in_game() or not self.games or self.decider < 0:
            raise ValueError("SCORE comes once a game is over")
        self.scores = self.settled()
        if len(words) != len(self.scores) or not all(_int_ok(x) for x in words):
            raise ValueError("SCORE takes every player's total (%d numbers)" % len(self.scores))
        want = [int(x) for x in words]
        if want != self.scores:
            raise ValueError("the record's scores %s differ from the replay's %s"
                             % (" ".join(words), " ".join(map(str, self.scores))))
        self._rotate()

    def _rotate(self):
        # the box keeps the box by beating the captain (the one who captained to the end, or
        # whose cube the box dropped); else that captain becomes the box. The captain goes to
        # the end of the line, captains who dropped before them too.
        box = self.box
        c = self.decider
        box_won = self.decided if self.decided is not None else self.match.result[0] == 0
        d = [p for p in self.dropped_captains if p != c]
        rest = [p for p in self.line[1:] if p != c and p not in d]
        if box_won:
            self.line = [box] + rest + d + [c]
        else:
            self.line = [c] + rest + d + [box]
        self._game_over()


def _num(words, i):
    if len(words) <= i or not words[i].isdigit():
        raise ValueError("%s needs a number" % words[0])
    return int(words[i])


def _int_ok(w):
    return w.isdigit() or (w[:1] == "-" and w[1:].isdigit())


def is_chouette(text):
    """Is this record text a chouette (its second line is CHOUETTE ...)?"""
    lines = text.split("\n", 2)
    return len(lines) > 1 and lines[1].startswith("CHOUETTE ")


def replay(source, history=True):
    """Replay a chouette record (an open text file or a string). Returns (Chouette, header info,
    torn note or None); raises bgcore.record.RecordError at the first damaged line or rule
    violation. `history`: keep every game's events (for exporters)."""
    from bgcore.record import RecordError, parse_header, _Lines
    if isinstance(source, str):
        import io
        source = io.StringIO(source)
    lines = _Lines(source)
    ch = None
    info = None
    for line_no, payload in lines:
        words = payload.split()
        if info is None:
            rules, info = parse_header(payload)
            continue
        try:
            if ch is None:
                if not words or words[0] != "CHOUETTE" or len(words) < 2:
                    raise ValueError("a chouette record's second line is CHOUETTE")
                ch = Chouette([unquote(w) for w in words[2:]], words[1], history)
                continue
            ch.event(words)
        except RecordError as e:
            raise RecordError(e.reason, line_no, e.game, e.move)
        except (ValueError, IndexError) as e:
            g = ch.match.game if ch else 0
            raise RecordError(str(e), line_no, g, ch.rep.move_no() if ch else 0)
    if ch is None:
        raise RecordError("not a chouette record", 1)
    return ch, info, lines.torn


# ---- the bots' cube actions (for bots in seats, and bgboard selfplay --chouette) -----------------
def bot_offers(ch, bots):
    """The members whose cube the side on roll offers now, by its bots' cube decisions (`bots`:
    player -> Bot, for the players that are bots). Single-cube: the box or the captain decides
    for the one cube, and it goes to every member."""
    m = ch.match
    if m.phase != TURN or ch.offers:
        return []
    if ch.cubes == SINGLE:
        decider = ch.box if m.turn == 0 else ch.captain
        bot = bots.get(decider)
        c = ch.captain
        if bot and ch.owner[c] in (-1, m.turn) and bot.wants_double(ch.cube_match(c)):
            return list(ch.playing)
        return []
    out = []
    for p in ch.playing:
        bot = bots.get(ch.box if m.turn == 0 else p)
        if bot and ch.owner[p] in (-1, m.turn) and bot.wants_double(ch.cube_match(p)):
            out.append(p)
    return out


def bot_takes(ch, member, bot):
    """Does `bot`, offered member's cube (as that member, or as the box), take?"""
    return bot.takes(ch.cube_match(member))
