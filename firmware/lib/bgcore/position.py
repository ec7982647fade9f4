# The rules of backgammon: positions, legal plays, GNU Backgammon's Position ID and move notation.
# Pure and immutable; runs unchanged on MicroPython and CPython (no hardware, files, time or
# randomness here).
#
# A position is 52 bytes seen from the side on roll ("the mover"):
#   b[0]     mover's checkers borne off      b[1..24]  mover's points 24..1 in its own numbering
#   b[25]    mover's checkers on the bar     b[26..51] the same for the opponent, in its numbering
# The mover's point p is the opponent's point 25 - p, stored at b[51 - p].

from array import array

OFF = 0
BAR = 25
_O = 26          # where the opponent's half starts
_OBAR = 51       # the opponent's bar

SINGLE = 1
GAMMON = 2
BACKGAMMON = 3

_REC = 27        # bytes per play in a search's buffer: see _Found


class Play:
    """One legal play: the checker steps of one turn and the position they lead to.

    `moves` is a tuple of (from, to) steps in the mover's numbering (25 = bar, 0 = off), in an
    order in which they can be played; str() gives GNU Backgammon's notation. A play is a view
    into the compact buffer its search filled, so a long list of plays stays small."""

    def __init__(self, found, i):
        self._f = found
        self._i = i

    def _rec(self):
        return self._f.chunks[self._i >> 3], (self._i & 7) * _REC

    @property
    def _hits(self):
        # bit p set: an opposing blot stood on the mover's point p and was hit
        c, o = self._rec()
        return (c[o + 13] | c[o + 14] << 8 | c[o + 15] << 16) << 1

    def mine_after(self):
        """The mover's 26 counts after the play (off, points 1-24, bar): cheaper than after."""
        c, o = self._rec()
        out = bytearray(26)
        for j in range(13):
            v = c[o + j]
            out[2 * j] = v & 15
            out[2 * j + 1] = v >> 4
        return out

    @property
    def after(self):
        """The position's 52 bytes after the play, still seen from the mover."""
        c, o = self._rec()
        them = bytearray(self._f.src[_O:])
        hits = self._hits
        for p in range(1, 25):
            if hits >> p & 1:
                them[25 - p] = 0
                them[25] += 1
        return bytes(self.mine_after()) + bytes(them)

    @property
    def moves(self):
        c, o = self._rec()
        o += 17
        return tuple((c[o + 2 * i], c[o + 2 * i + 1]) for i in range(c[o - 1]))

    def detached(self):
        """The same play, no longer keeping the records of its sibling plays in memory (worth
        it when one play of a long list is kept while the next roll's plays are made)."""
        c, o = self._rec()
        f = _Found(self._f.src)
        f.chunks = [bytearray(c[o:o + _REC])]
        f.n = 1
        f.used = self._f.used
        return Play(f, 0)

    def hits(self):
        """The mover's points on which an opposing blot was hit, highest first."""
        h = self._hits
        return tuple(p for p in range(24, 0, -1) if h >> p & 1)

    def _key(self):
        c, o = self._rec()
        return bytes(c[o:o + 16])

    def __eq__(self, other):
        return (isinstance(other, Play) and self._key() == other._key()
                and self._f.src == other._f.src)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "<Play %s>" % self

    def __str__(self):
        from bgcore.notation import format_steps
        return format_steps(self.moves, self._hits)


class Plays:
    """The legal plays of one roll: a read-only sequence (len, indexing, iteration, `in`, equality
    with a list). Each Play is made when asked for, so holding the result of a 2-2 with hundreds
    of plays costs the packed records only."""

    def __init__(self, found):
        self._f = found

    def __len__(self):
        return self._f.n

    def __bool__(self):
        return self._f.n > 0

    def __getitem__(self, i):
        n = self._f.n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("play index out of range")
        return Play(self._f, i)

    def _record(self, i):
        # (chunk, offset) of play i's packed record, for bgcore's own fast readers (the bot)
        return self._f.chunks[i >> 3], (i & 7) * _REC

    def __iter__(self):
        f = self._f
        for i in range(f.n):
            yield Play(f, i)

    def __contains__(self, play):
        for p in self:
            if p == play:
                return True
        return False

    def __eq__(self, other):
        if not isinstance(other, (list, tuple, Plays)) or len(self) != len(other):
            return False
        for i in range(len(self)):
            if self[i] != other[i]:
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "<Plays %s>" % ", ".join(str(p) for p in self)


def rearmost(raw):
    """(the first half's side's rearmost point, the second's) in a 52-byte position, each in its
    own numbering: the bar counts as 25, no checker left on the board as 0."""
    out = [0, 0]
    for side in (0, 1):
        for p in range(25, 0, -1):
            if raw[26 * side + p]:
                out[side] = p
                break
    return out


def _check_dice(d1, d2):
    if not (isinstance(d1, int) and isinstance(d2, int)) or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError("dice must be two numbers from 1 to 6, not %r and %r" % (d1, d2))


class Position:
    """A backgammon position with one side on roll. Immutable and hashable."""

    def __init__(self, raw):
        if len(raw) != 52:
            raise ValueError("a position is 52 bytes")
        self.raw = bytes(raw)

    # ---- construction and identity -------------------------------------------------------
    @classmethod
    def initial(cls):
        b = bytearray(52)
        for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            b[p] = n
            b[_O + p] = n
        return cls(b)

    @classmethod
    def from_board(cls, board):
        """From GNU Backgammon's board: [opponent, side on roll], each 25 counts (index 0-23 the
        points 1-24 in that side's numbering, index 24 its bar), as gnubg-nn uses."""
        from bgcore.notation import raw_from_board
        return cls(raw_from_board(board))

    def board(self):
        """GNU Backgammon's board: [opponent, side on roll], 25 counts each."""
        b = self.raw
        return [list(b[_O + 1:_O + 26]), list(b[1:26])]

    @classmethod
    def from_id(cls, pid):
        """From GNU Backgammon's 14-character Position ID (side on roll = gnubg's player on roll)."""
        from bgcore.notation import raw_from_id
        return cls(raw_from_id(pid))

    def id(self):
        """GNU Backgammon's Position ID of this position."""
        from bgcore.notation import position_id
        return position_id(self.raw)

    def __eq__(self, other):
        return isinstance(other, Position) and self.raw == other.raw

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.raw)

    def __repr__(self):
        return "Position.from_id(%r)" % self.id()

    # ---- reading the position --------------------------------------------------------------
    def checkers(self, side, point):
        """Checkers of `side` (0 = on roll, 1 = opponent) on `point` in that side's numbering
        (25 = bar, 0 = borne off)."""
        return self.raw[(_O if side else 0) + point]

    def pips(self):
        """Pip counts: (side on roll, opponent)."""
        b = self.raw
        me = 0
        them = 0
        for p in range(1, 26):
            me += p * b[p]
            them += p * b[_O + p]
        return me, them

    def swapped(self):
        """The same checkers with the other side on roll (a lost turn)."""
        return Position(self.raw[_O:] + self.raw[:_O])

    def winner(self):
        """None while the game goes on; else 0 if the side on roll has borne off all 15
        checkers, 1 if the opponent has."""
        b = self.raw
        if b[_O] == 15:
            return 1
        if b[0] == 15:
            return 0
        return None

    def is_over(self):
        return self.winner() is not None

    def result(self):
        """None while the game goes on; else (winner, kind): winner as in winner(), kind
        SINGLE (1), GAMMON (2) or BACKGAMMON (3)."""
        w = self.winner()
        if w is None:
            return None
        loser = 0 if w else _O
        b = self.raw
        if b[loser]:
            return w, SINGLE
        for p in range(19, 26):
            if b[loser + p]:
                return w, BACKGAMMON
        return w, GAMMON

    # ---- legal plays -----------------------------------------------------------------------
    def plays(self, d1, d2):
        """Every legal play for the roll d1-d2, one per distinct resulting position, in a fixed
        order (the same on every interpreter), as a read-only sequence (see Plays); empty when
        the roll cannot be played."""
        return self._find(d1, d2, None)

    def plays_ending(self, d1, d2, packed):
        """(the members of self.plays(d1, d2) that leave the mover's checkers as `packed` says, in
        the same order, as a Plays; whether the roll can be played at all), found without
        holding the other plays: checking one play keeps a record or two, not the hundreds of a
        double's list. `packed`: the mover's 26 counts after the play, two to a byte as plays
        keep them (13 bytes); one no play leaves (b"\\xff" * 13) asks only the second."""
        plays = self._find(d1, d2, bytes(packed))
        if not isinstance(plays, Plays):         # the game is over
            return plays, False
        return plays, plays._f.used > 0

    def _find(self, d1, d2, target):
        _check_dice(d1, d2)
        if self.is_over():
            return []
        b = bytearray(self.raw)
        found = _Found(self.raw)
        found.target = target
        steps = bytearray(8)
        h = 0
        for i in range(26):
            h += b[i] * _ZOBRIST[i]
        if d1 == d2:
            _search(b, (d1, d1, d1, d1), True, steps, found, h)
        else:
            hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
            _search(b, (hi, lo), False, steps, found, h)
            found.first_die_done = found.n
            found.first_seen = found.seen
            _search(b, (lo, hi), False, steps, found, h)
            if found.used == 1 and found.first_seen:
                # Only one number can be played: the larger one, where it can be.
                found.n = found.first_die_done
        if found.used <= 0:
            found.n = 0
        return Plays(found)

    def apply(self, play):
        """The position after `play` (one of self.plays(...)), with the opponent on roll.
        None stands for a roll that could not be played."""
        if play is None:
            return self.swapped()
        if play._f.src is not self.raw and play._f.src != self.raw:
            raise ValueError("the play %s was not generated for this position" % play)
        a = play.after
        return Position(a[_O:] + a[:_O])

    def parse_play(self, text, d1, d2):
        """The member of self.plays(d1, d2) that `text` writes (gnubg notation, or the .mat form
        with 25 for the bar and 0 for off, steps in any order). Raises ValueError naming the step
        and the reason when the text is unreadable or the play is illegal. An empty text stands
        for a roll that cannot be played and returns None."""
        from bgcore.readplay import parse_play
        return parse_play(self, text, d1, d2)

    def __str__(self):
        from bgcore.notation import board_text
        return board_text(self)


_NB = 256                       # hash buckets for spotting a resulting position seen before
_heads = bytearray(2 * _NB)     # reused by every search: no allocation per call
_EMPTY = b"\xff" * (2 * _NB)
# a weight per place: the sum of count * weight over the mover's places, kept up to date as the
# search moves checkers, picks the hash bucket without building anything
_ZOBRIST = (3001, 1543, 2927, 389, 3643, 1201, 2269, 811, 3371, 97, 1789, 2539, 593, 3929, 1381,
            2083, 239, 3163, 1667, 2749, 457, 3517, 1049, 2381, 739, 3833)


class _Found:
    # A search's results: the plays using the most dice, one per resulting position, packed in
    # chunks of 8 records of _REC bytes: the mover's 26 counts after the play, two to a byte
    # (a count is at most 15), the hit mask (3 bytes, points 1-24), the number of steps, the
    # steps as from, to bytes, and the next record in the same hash bucket (2 bytes). No large
    # block is ever needed.
    # With a `target` (13 bytes), only the plays leaving the mover's counts packed so are kept;
    # `seen` counts every play using the most dice (kept or not, repeats included).
    def __init__(self, src):
        self.src = src
        self.used = -1
        self.first_die_done = 0     # plays kept by the larger die first (unlike doubles)
        self.first_seen = 0         # plays seen then
        self.target = None
        self._restart()

    def _restart(self):
        self.chunks = []
        self.n = 0
        self.seen = 0
        _heads[:] = _EMPTY

    def _grow(self, k):
        # a play using more dice (k) than any before: the plays kept so far do not count
        self.used = k
        self.first_die_done = 0
        self.first_seen = 0
        self._restart()

    def _append(self, k, m, h, steps):
        # a new play: k steps, hit mask m, the mover's counts packed in _packed, hash bucket h
        n = self.n
        if not n & 7:
            self.chunks.append(bytearray(8 * _REC))
        c = self.chunks[n >> 3]
        o = (n & 7) * _REC
        c[o:o + 13] = _packed
        c[o + 13] = m & 255
        c[o + 14] = m >> 8 & 255
        c[o + 15] = m >> 16
        c[o + 16] = k
        c[o + 17:o + 25] = steps
        c[o + 25] = _heads[h]
        c[o + 26] = _heads[h + 1]
        _heads[h] = n & 255
        _heads[h + 1] = n >> 8
        self.n = n + 1


def _native_search():
    # bgcore.search_native's search where MicroPython has a native emitter (compiled now,
    # while the heap is unbroken), else None
    from bgcore.native import load
    got = load("search_native", "search")
    return got[0] if got else None


_native = _native_search()
_packed = bytearray(13)         # the counts of the play in hand, packed as a record keeps them
_work = None                    # the native search's numbers (see bgcore.search_native)
if _native is not None:
    _work = array("i", bytes(4 * 88))
    for _i in range(26):
        _work[12 + _i] = _ZOBRIST[_i]


def _search(b, dice, double, steps, found, h):
    # All the plays of `dice` (a double's in order of non-increasing source) from the bytearray
    # b (its hash h: the sum of count * _ZOBRIST weight over the mover's places) into found,
    # through the bytearray steps: in native code where MicroPython has some, else by
    # bgcore.search_python (CPython; loaded when first needed)
    if _native is None:
        from bgcore.search_python import search
        search(b, dice, 0, steps, 0, 25, double, found, h)
        return
    x = _work
    x[0] = len(dice)
    x[1] = 1 if double else 0
    x[2] = found.used + 1
    x[3] = found.seen
    x[4] = h
    target = found.target
    x[5] = 0 if target is None else 1
    for i in range(len(dice)):
        x[8 + i] = dice[i]
    _native(b, steps, found, x, _heads, _packed if target is None else target, _packed)
    found.seen = x[3]
