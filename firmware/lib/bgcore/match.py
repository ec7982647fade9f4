# Matches, money sessions and single games: scores, the doubling cube, the Crawford rule and the
# flow of a game, driven one event at a time (the same events a game record stores). Every
# method refuses an event the rules do not allow with ValueError naming the reason.
# Pure and MicroPython-compatible, like the rules.

import binascii

from bgcore.position import Position

NOCUBE = "nocube"
MONEY = "money"
MATCH = "match"

# phases of a match
OPENING = "opening"      # a game has started: waiting for the opening roll
TURN = "turn"            # the player on roll may double (where allowed) or roll
MOVE = "move"            # dice are out: waiting for the play
DOUBLED = "doubled"      # a double (or beaver) is offered: take, drop (or beaver)
GAME_OVER = "game_over"  # waiting for the next game
MATCH_OVER = "match_over"

KINDS = ("", "single", "gammon", "backgammon")
MAX_CUBE = 4096          # GNU Backgammon's largest cube (its files and IDs carry no more)


class Rules:
    """What is being played: mode NOCUBE (single games, no cube), MONEY (cube, options) or
    MATCH (to `length` points, Crawford rule, money options off)."""

    def __init__(self, mode=MATCH, length=0, jacoby=False, beavers=False, auto_doubles=0):
        if mode not in (NOCUBE, MONEY, MATCH):
            raise ValueError("unknown game type %r (nocube, money or match)" % (mode,))
        if mode == MATCH and not (isinstance(length, int) and 1 <= length <= 99):
            raise ValueError("a match is played to 1-99 points, not %r" % (length,))
        if mode != MATCH:
            length = 0
        if mode != MONEY and (jacoby or beavers or auto_doubles):
            raise ValueError("Jacoby, beavers and automatic doubles are money-play options")
        if not 0 <= int(auto_doubles) <= 12:
            raise ValueError("automatic doubles are 0 to 12 (a cube of %d at most), not %r"
                             % (MAX_CUBE, auto_doubles))
        self.mode = mode
        self.length = length
        self.jacoby = bool(jacoby)
        self.beavers = bool(beavers)
        self.auto_doubles = int(auto_doubles)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.fields() == other.fields()

    def fields(self):
        return (self.mode, self.length, self.jacoby, self.beavers, self.auto_doubles)


def _die(d):
    if not isinstance(d, int) or not 1 <= d <= 6:
        raise ValueError("a die shows 1 to 6, not %r" % (d,))
    return d


class Match:
    """The state of a match (or money session, or series of single games) between players 0
    and 1. `pos` is seen from the player on roll, `turn`."""

    def __init__(self, rules):
        self.rules = rules
        self.score = [0, 0]
        self.game = 0               # number of the game in progress or last played
        self.crawford = False       # this game is the Crawford game
        self.crawford_done = False
        self.phase = GAME_OVER
        self.cube = 1
        self.owner = -1             # -1 centred, else the player who owns the cube
        self.turned = False         # the cube was turned this game (Jacoby)
        self.turn = 0
        self.pos = Position.initial()
        self.dice = None
        self.offered_by = -1
        self.beavered = False
        self.auto_doubles = 0
        self.result = None          # (winner, points, how) of the last game

    # ---- what may happen now -----------------------------------------------------------------
    def cube_available(self, player):
        """May `player` double now (at the start of its turn, before rolling)?"""
        return (self.phase == TURN and player == self.turn and self.rules.mode != NOCUBE
                and not self.crawford and self.owner in (-1, player) and self.cube < MAX_CUBE)

    def _need(self, phase, player=None, who=None):
        if self.phase != phase:
            raise ValueError("not now: %s" % _PHASE_TEXT.get(self.phase, self.phase))
        if player is not None and player != who:
            raise ValueError("it is player %d's turn, not player %d's" % (who, player))

    # ---- events ------------------------------------------------------------------------------
    def new_game(self):
        if self.phase == MATCH_OVER:
            raise ValueError("the match is over")
        if self.phase != GAME_OVER:
            raise ValueError("game %d is not finished" % self.game)
        self.game += 1
        n = self.rules.length
        self.crawford = False
        if self.rules.mode == MATCH and not self.crawford_done and n - 1 in self.score:
            self.crawford = True
            self.crawford_done = True
        self.cube = 1
        self.owner = -1
        self.turned = False
        self.pos = Position.initial()
        self.dice = None
        self.offered_by = -1
        self.beavered = False
        self.auto_doubles = 0
        self.result = None
        self.phase = OPENING

    def opening(self, d0, d1):
        """The opening roll: player 0's die and player 1's die. Equal dice are rolled again
        (turning the cube, with automatic doubles); else the higher die moves first with both."""
        self._need(OPENING)
        _die(d0)
        _die(d1)
        if d0 == d1:
            if self.rules.mode == MONEY and self.auto_doubles < self.rules.auto_doubles:
                self.auto_doubles += 1
                self.cube *= 2
            return None
        self.turn = 0 if d0 > d1 else 1
        self.dice = (max(d0, d1), min(d0, d1))
        self.phase = MOVE
        return self.turn

    def double(self, player):
        self._need(TURN, player, self.turn)
        if self.rules.mode == NOCUBE:
            raise ValueError("no cube in this game")
        if self.crawford:
            raise ValueError("no doubling in the Crawford game")
        if self.owner != -1 and self.owner != player:
            raise ValueError("player %d owns the cube" % self.owner)
        if self.cube >= MAX_CUBE:
            raise ValueError("the cube is at its largest, %d" % MAX_CUBE)
        self.offered_by = player
        self.beavered = False
        self.phase = DOUBLED

    def take(self, player):
        self._need(DOUBLED, player, 1 - self.offered_by)
        self.cube *= 2
        self.owner = self.offered_by if self.beavered else player
        self.turned = True
        self._after_offer()

    def beaver(self, player):
        self._need(DOUBLED, player, 1 - self.offered_by)
        if not self.rules.beavers:
            raise ValueError("beavers are not allowed here")
        if self.beavered:
            raise ValueError("a beaver cannot be beavered")
        if 4 * self.cube > MAX_CUBE:
            raise ValueError("a beaver would take the cube past its largest, %d" % MAX_CUBE)
        self.cube *= 2               # accepted, and redoubled at once: the doubler must answer
        self.turned = True
        self.offered_by = player
        self.beavered = True

    def drop(self, player):
        self._need(DOUBLED, player, 1 - self.offered_by)
        self._end(self.offered_by, self.cube, "drop")

    def _after_offer(self):
        self.offered_by = -1
        self.beavered = False
        self.phase = TURN

    def roll(self, player, d1, d2):
        self._need(TURN, player, self.turn)
        self.dice = (_die(d1), _die(d2))
        self.phase = MOVE

    def move(self, player, play):
        """`play` is a Play of self.pos, a play in gnubg or .mat notation, or None / "" for a
        roll that cannot be played. Returns the Play (or None)."""
        self._need(MOVE, player, self.turn)
        d1, d2 = self.dice
        if play is None or isinstance(play, str):
            play = self.pos.parse_play(play or "", d1, d2)
        elif play not in self.pos.plays(d1, d2):
            raise ValueError("%s is not a legal play for %d%d" % (play, d1, d2))
        after = self.pos.apply(play)
        self.dice = None
        if after.is_over():
            winner, kind = after.result()
            self.pos = after
            self.turn = 1 - self.turn      # as gnubg: the loser is "on roll" in the final position
            if (self.rules.mode == MONEY and self.rules.jacoby and not self.turned):
                value = self.cube
            else:
                value = self.cube * kind
            self._end(1 - self.turn, value, KINDS[kind])
        else:
            self.pos = after
            self.turn = 1 - self.turn
            self.phase = TURN
        return play

    def resign(self, player, kind):
        """`player` gives up the game as a single (1), gammon (2) or backgammon (3)."""
        if self.phase not in (TURN, MOVE, DOUBLED):
            raise ValueError("there is no game in progress to resign")
        if kind not in (1, 2, 3):
            raise ValueError("a resignation is for 1, 2 or 3 times the cube")
        self._end(1 - player, self.cube * kind, "resign")

    def _end(self, winner, points, how):
        self.score[winner] += points
        self.result = (winner, points, how)
        self.offered_by = -1
        n = self.rules.length
        if self.rules.mode == MATCH and self.score[winner] >= n:
            self.phase = MATCH_OVER
        else:
            self.phase = GAME_OVER

    # ---- GNU Backgammon's Match ID -----------------------------------------------------------
    def match_id(self):
        """gnubg's 12-character Match ID of this moment, to paste beside pos.id()."""
        state = {OPENING: 1, TURN: 1, MOVE: 1, DOUBLED: 1}.get(self.phase, 2)
        if self.phase in (GAME_OVER, MATCH_OVER) and self.result:
            state = {"drop": 4, "resign": 3}.get(self.result[2], 2)
        log = 0
        while (1 << log) < self.cube:
            log += 1
        decider = (1 - self.offered_by) if self.phase == DOUBLED else self.turn
        dice = self.dice or (0, 0)
        fields = ((log, 4), (3 if self.owner < 0 else self.owner, 2), (self.turn, 1),
                  (1 if self.crawford else 0, 1), (state, 3), (decider, 1),
                  (1 if self.phase == DOUBLED else 0, 1), (0, 2), (dice[0], 3), (dice[1], 3),
                  (self.rules.length, 15), (self.score[0], 15), (self.score[1], 15),
                  (0 if self.rules.jacoby else 1, 1))
        return encode_match_id(fields)


_PHASE_TEXT = {
    OPENING: "the game starts with the opening roll",
    TURN: "the player on roll must roll (or double) first",
    MOVE: "the dice are out: a play is due",
    DOUBLED: "a double is waiting for take or drop",
    GAME_OVER: "no game is in progress",
    MATCH_OVER: "the match is over",
}

_ID_FIELDS = ("cube_log2", "owner", "on_roll", "crawford", "state", "turn", "doubled",
              "resign", "die1", "die2", "length", "score0", "score1", "no_jacoby")
_ID_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1)


def encode_match_id(fields):
    bits = 0
    pos = 0
    for value, width in fields:
        bits |= (value & ((1 << width) - 1)) << pos
        pos += width
    return binascii.b2a_base64(bits.to_bytes(9, "little"))[:12].decode()


def decode_match_id(mid):
    """The fields of a gnubg Match ID as a dict (owner 3 = centred); ValueError if malformed."""
    if not isinstance(mid, str) or len(mid.strip()) != 12:
        raise ValueError("a Match ID has 12 characters")
    try:
        raw = binascii.a2b_base64(mid.strip())
    except Exception:
        raise ValueError("Match ID %r is not base64" % mid)
    bits = int.from_bytes(raw, "little")
    out = {}
    pos = 0
    for name, width in zip(_ID_FIELDS, _ID_WIDTHS):
        out[name] = bits >> pos & ((1 << width) - 1)
        pos += width
    return out
