# The game record: the board's native, append-only text format, and its replay. One event per
# line; each line ends with "|" and 8 hex digits chaining a SHA-256 over every line so far, so a
# line torn by a power cut is recognised (and dropped: only the event in progress is lost) and an
# altered, removed or reordered line is detected. Replaying a record rebuilds the exact match
# state; the board resumes from it and `bgboard verify` proves results with it.
#
#   BGR 1 mode=match length=5 jacoby=0 beavers=0 auto=0 p0=Alice p1=bot:6 board=... fw=... start=...
#   GAME 1
#   OPEN 3 5              (player 0's die, player 1's die; equal dice are followed by another)
#   MOVE 1 8/5 6/5        (player, play in .mat form; nothing after the player: no legal play)
#   ROLL 0 6 6 [real]     (player, dice; "real" when keyed in from physical dice)
#   DOUBLE 0 2 / TAKE 1 / DROP 1 / BEAVER 1 2 / RESIGN 1 2   (BEAVER: the value the double
#   puts the cube at, as DOUBLE; a TAKE then doubles it again)
#   STEP 0 13 7 / UNDO 0  (checkers moved so far this turn, before the play is confirmed)
#   END 0 2 gammon        (winner, points, single|gammon|backgammon|drop|resign)
#   MATCHEND 0 5 3        (winner, final score)
#   TUTOR 0 on 80         (the tutor is on for player 0, warning above 80 millipoints)
#   TUTOR 0 move 213      (a warning before the action is made: move, double, take or drop, and
#                          the millipoints it loses), answered TUTOR 0 keep|hint|undo (keep and
#                          undo close it; until then only TUTOR lines may follow)
#   SIG ...               (reserved: a signature over the chain so far, for the leaderboard)
#   ranked games (bgcore.ranked): header fields ranked=1 level= bot= commit= ticket=, and
#   after END SEED <nonce> <secret|->, NAME <name>, COUNTRY <code>; UNRANK <reason> when one
#   stops being ranked

import hashlib
import binascii

from bgcore.match import Match, Rules, GAME_OVER, MATCH_OVER, MOVE as PHASE_MOVE

VERSION = 1
REASON_MAX = 300    # characters of a rule's reason kept in a RecordError (one line to show)


def _check(prev, payload):
    h = hashlib.sha256(prev.encode() + payload.encode())
    return binascii.hexlify(h.digest()[:4]).decode()


_QUOTED = " %|=\n\r\t"


def quote(text):
    """A header value without spaces, '|' or '=' (each such character as %XX)."""
    text = str(text)
    for ch in _QUOTED:
        if ch in text:
            break
    else:
        return text
    # one pass, the pieces joined once: linear on MicroPython too (no str +=)
    return "".join("%%%02X" % ord(ch) if ch in _QUOTED else ch for ch in text)


def unquote(text):
    """quote() undone: each %XX (two hex digits) is that character; any other '%' stays."""
    if "%" not in text:
        return text
    # One pass over the bytes into a buffer allocated once (the text never grows: %XX is at
    # most two bytes of UTF-8): linear, with nothing allocated per escape. MicroPython finds a
    # str's n-th character by walking its UTF-8 from the start, so slicing the str itself at
    # growing offsets would be quadratic there; a memoryview of bytes is not.
    raw = text.encode()
    view = memoryview(raw)
    n = len(raw)
    out = bytearray(n)
    o = 0
    start = 0
    i = raw.find(b"%")
    while i >= 0:
        out[o:o + i - start] = view[start:i]          # the plain run before this '%'
        o += i - start
        c = 37
        start = i + 1
        if i + 2 < n and _hexval(raw[i + 1]) >= 0 and _hexval(raw[i + 2]) >= 0:
            c = _hexval(raw[i + 1]) << 4 | _hexval(raw[i + 2])
            start = i + 3
            if c >= 0x80:                  # a character of two bytes in UTF-8
                out[o] = 0xC0 | c >> 6
                o += 1
                c = 0x80 | c & 0x3F
        out[o] = c
        o += 1
        i = raw.find(b"%", start)
    out[o:o + n - start] = view[start:]
    o += n - start
    return str(out[:o], "utf-8")


def _hexval(c):
    # the value of one hex digit given as a byte, or -1
    if 48 <= c <= 57:
        return c - 48
    c |= 0x20
    if 97 <= c <= 102:
        return c - 87
    return -1


class Writer:
    """Makes the lines of a record; `line(...)` returns the text to append (with '\\n')."""

    def __init__(self, last_check=""):
        self.last = last_check

    def line(self, payload):
        self.last = _check(self.last, payload)
        return "%s|%s\n" % (payload, self.last)

    def header(self, rules, players, board="", fw="", start="", extra=""):
        """`extra`: more key=value fields (a ranked game's, bgcore.ranked.header_fields)."""
        return self.line("BGR %d mode=%s length=%d jacoby=%d beavers=%d auto=%d p0=%s p1=%s "
                         "board=%s fw=%s start=%s%s"
                         % (VERSION, rules.mode, rules.length, rules.jacoby, rules.beavers,
                            rules.auto_doubles, quote(players[0]), quote(players[1]),
                            quote(board or "-"), quote(fw or "-"), quote(start or "-"),
                            " " + extra if extra else ""))


class RecordError(ValueError):
    """What is wrong with a record, and where: `line` (1-based), `game`, `move`."""

    def __init__(self, reason, line=0, game=0, move=0):
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.game = game
        self.move = move

    def where(self):
        if self.game:
            return "game %d move %d: %s" % (self.game, self.move, self.reason)
        return "line %d: %s" % (self.line, self.reason)


class _Lines:
    # The checked payloads of a record read line by line from a file (or text), verifying
    # each line's check as it goes: a whole record never has to sit in memory. A last line
    # that fails its check because it was cut short is dropped, and `torn` says so. PREV and
    # NO: the check and number of the line before F's first (a record read on from there).
    def __init__(self, f, prev="", no=0):
        self.f = f
        self.torn = None
        self.prev = prev
        self.no = no

    def __iter__(self):
        prev = self.prev
        no = self.no
        nxt = self.f.readline()
        while nxt:
            raw = nxt
            nxt = self.f.readline()
            no += 1
            complete = raw.endswith("\n")
            raw = raw.rstrip("\r\n")
            bar = raw.rfind("|")
            shaped = bar > 0 and len(raw) - bar == 9
            if not (shaped and _check(prev, raw[:bar]) == raw[bar + 1:]):
                if not nxt and (not complete or not shaped):
                    self.torn = ("line %d is incomplete (cut off while being written) and was "
                                 "dropped" % no)
                    return
                if shaped:
                    raise RecordError("integrity check failed: the line was altered, or a line "
                                      "before it was removed or changed", no)
                raise RecordError("damaged line (no integrity check)", no)
            prev = raw[bar + 1:]
            yield no, raw[:bar]


def parse_header(payload):
    words = payload.split()
    if len(words) < 2 or words[0] != "BGR":
        raise RecordError("not a bgboard game record (it must start with a BGR header)", 1)
    if words[1] != str(VERSION):
        raise RecordError("record format version %r is not supported (this reads %d)"
                          % (words[1][:20], VERSION), 1)
    info = {}
    for w in words[2:]:
        if "=" not in w:
            raise RecordError("header field %r is not key=value" % w[:40], 1)
        k, v = w.split("=", 1)
        info[k] = unquote(v)
    try:
        rules = Rules(info.get("mode", "match")[:20], _number(info.get("length", "0")),
                      info.get("jacoby") == "1", info.get("beavers") == "1",
                      _number(info.get("auto", "0")))
    except ValueError as e:
        raise RecordError("header: %s" % e, 1)
    return rules, info


class Replay:
    """Feeds events into a Match, numbering games and moves the way a .mat file does, so that
    the first violation can be named "game G move M: reason"."""

    def __init__(self, rules, players=("player 0", "player 1"), history=True):
        self.match = Match(rules)
        self.keep = history     # keep every action and the per-game lists below for exporters;
                                # the board does not need them (without, nothing grows per game)
        self.players = list(players)
        self.slot = 0           # entries in this game, as the .mat columns count them
        self.steps = []         # STEP events of the turn in progress
        self.real_dice = False
        self.ended = False      # a MATCHEND was read
        self.history = []       # per game: list of (player, kind, data) for exporters
        self.scores_before = [] # the score before each game
        self.crawford_games = []  # per game: was it the Crawford game
        self.results = []       # per finished game: (winner, points, how)
        self.finished = 0       # games finished (counted with or without history)
        self.tutored = False    # a TUTOR line was read (the tutor was on)
        self.warning = None     # a tutor warning not yet answered: (player, action, millipoints)
        self.rolls = 0          # OPEN and ROLL events in this game (a ranked game's dice count)
        self.ranked = {}        # a ranked game's SEED, NAME, COUNTRY, UNRANK lines: kind -> words

    def _note(self, item):
        if self.keep:
            self.history[-1].append(item)

    def move_no(self):
        return (max(self.slot, 1) - 1) // 2 + 1

    def _slot(self, player):
        if self.slot == 0 and player == 1 and self.match.phase == PHASE_MOVE:
            self.slot = 1       # player 1 opens: the left column of line 1 stays blank
        self.slot += 1

    def event(self, words, line=0):
        """Apply one event (a payload split into words). Raises RecordError."""
        self._event(words, line)
        m = self.match
        if m.phase in (GAME_OVER, MATCH_OVER) and self.finished < m.game:
            self.finished += 1
            if self.keep:
                self.results.append(m.result)

    def _event(self, words, line):
        m = self.match
        kind = words[0]
        try:
            if self.ended:
                raise ValueError("nothing may follow the end of the match")
            if self.warning and kind != "TUTOR":
                raise ValueError("the tutor's warning to player %d is not answered"
                                 % self.warning[0])
            if kind == "GAME":
                if len(words) != 2 or words[1] != str(m.game + 1):
                    raise ValueError("expected GAME %d" % (m.game + 1))
                m.new_game()
                if self.keep:
                    self.scores_before.append(list(m.score))
                    self.crawford_games.append(m.crawford)
                    self.history.append([])
                self.slot = 0
                self.steps = []
                self.rolls = 0
                return
            if kind == "SIG":
                return
            if kind in ("SEED", "NAME", "COUNTRY", "UNRANK"):
                if kind in self.ranked:
                    raise ValueError("a second %s line" % kind)
                self.ranked[kind] = words
                return
            if kind == "OPEN":
                d0, d1 = _ints(words[1:3], 2)
                self.rolls += 1
                if m.opening(d0, d1) is not None:
                    self._note((m.turn, "open", (d0, d1)))
                if len(words) > 3:
                    self.real_dice = True
                return
            p = _player(words)
            if kind == "TUTOR":
                from bgcore.tutor import replay_event     # only records with the tutor on
                replay_event(self, p, words)
                return
            if kind == "ROLL":
                d1, d2 = _ints(words[2:4], 2)
                m.roll(p, d1, d2)
                self.rolls += 1
                if len(words) > 4:
                    self.real_dice = True
                return
            if kind == "STEP":
                if m.phase != PHASE_MOVE or p != m.turn:
                    raise ValueError("a checker step is only possible in one's own turn")
                s, t = _ints(words[2:4], 2)
                self.steps.append((s, t))
                return
            if kind == "UNDO":
                if not self.steps:
                    raise ValueError("nothing to undo")
                self.steps.pop()
                return
            if kind == "MOVE":
                self._slot(p)
                dice = m.dice
                before = m.pos
                text = " ".join(words[2:])
                play = m.move(p, text)
                self.steps = []
                self._note((p, "move", (dice, before, play, text)))
                return
            if kind in ("DOUBLE", "BEAVER"):
                self._slot(p)
                want = m.cube * 2
                if len(words) > 2 and _number(words[2]) != want:
                    raise ValueError("the cube would go to %d, not %s" % (want, words[2]))
                if kind == "DOUBLE":
                    m.double(p)
                else:
                    m.beaver(p)
                self._note((p, kind.lower(), want))
                return
            if kind in ("TAKE", "DROP"):
                self._slot(p)
                if kind == "TAKE":
                    m.take(p)
                else:
                    m.drop(p)
                self._note((p, kind.lower(), m.cube))
                return
            if kind == "RESIGN":
                k = _ints(words[2:3], 1)[0]
                m.resign(p, k)
                self._note((p, "resign", k))
                return
            if kind == "END":
                pts = _ints(words[2:3], 1)[0]
                if m.phase not in (GAME_OVER, MATCH_OVER) or not m.result:
                    raise ValueError("the game is not over: it cannot end here")
                w, got, how = m.result
                if w != p or got != pts:
                    raise ValueError("the record says player %d wins %d point(s); the rules give "
                                     "player %d %d point(s) (%s)" % (p, pts, w, got, how))
                return
            if kind == "MATCHEND":
                s0, s1 = _ints(words[2:4], 2)
                if m.phase != MATCH_OVER and m.rules.mode == "match":
                    raise ValueError("the match is not over (score %d-%d)" % tuple(m.score))
                if [s0, s1] != m.score:
                    raise ValueError("the record's final score %d-%d differs from the replay's %d-%d"
                                     % (s0, s1, m.score[0], m.score[1]))
                self.ended = True
                return
            raise ValueError("unknown event %r" % kind[:20])
        except RecordError:
            raise
        except (ValueError, IndexError) as e:
            why = str(e)
            if len(why) > REASON_MAX:       # it may quote a whole (forged) line
                why = why[:REASON_MAX] + "..."
            raise RecordError(why, line, m.game, self.move_no())


def _player(words):
    if len(words) < 2 or words[1] not in ("0", "1"):
        raise ValueError("%s needs a player, 0 or 1" % words[0][:20])
    return int(words[1])


def _ints(words, n):
    if len(words) < n:
        raise ValueError("missing numbers")
    return [_number(w) for w in words[:n]]


def _number(w):
    # a whole number in ASCII digits, refused before int() sees it when longer than 100 digits:
    # dice, lengths and scores are short, and even a cube doubled at every turn of a long game
    # between two players who always double and take stays far below (2**100 has 31 digits)
    if not w or len(w) > 100 or w.strip("0123456789"):
        raise ValueError("%r is not a number (at most 100 digits)" % w[:20])
    return int(w)


def checked_lines(source):
    """(line number, payload) of each line of a record (an open text file or a string) whose
    check holds; raises RecordError at a damaged line. A torn last line ends the iteration."""
    if isinstance(source, str):
        import io
        source = io.StringIO(source)
    return _Lines(source)


def replay(source, history=True):
    """Replay a whole record from an open text file or a string. Returns (Replay, header info,
    torn note or None); raises RecordError at the first damaged line or rule violation."""
    if isinstance(source, str):
        import io
        source = io.StringIO(source)
    lines = _Lines(source)
    r = None
    info = None
    for line_no, payload in lines:
        if r is None:
            rules, info = parse_header(payload)
            r = Replay(rules, (info.get("p0", "player 0"), info.get("p1", "player 1")), history)
            continue
        words = payload.split()
        if not words:
            raise RecordError("empty event", line_no)
        r.event(words, line_no)
    if r is None:
        raise RecordError("the record is empty" + (" (its only line was torn)" if lines.torn
                                                   else ""), 1)
    return r, info, lines.torn
