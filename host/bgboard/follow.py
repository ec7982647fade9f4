"""A record replayed as it grows: the soak reads a board's records after every power cut, and a
chouette of fifty games is 230 KB that a whole replay takes half a second of the laptop's time
for. A Follower keeps the replay of the lines it has read and, when the record's text still
begins with them, replays only the lines added since; any other text is replayed from the start.
It answers as bgcore's replay does (a game's Replay, the header's fields, the torn-line note) and
raises the same RecordError."""

import io

from bgcore.record import RecordError, Replay, _Lines, parse_header
from bgcore.chouette import Chouette
from bgcore.record import unquote


class Follower:
    def __init__(self):
        self._reset()

    def _reset(self):
        self.done = ""          # the text of the complete lines replayed so far
        self.prev = ""          # the check of the last of them
        self.no = 0             # and its line number
        self.rules = None
        self.info = None
        self.game = None        # the Replay, or the Chouette of a chouette record

    def feed(self, text):
        """(Replay, header info, torn note) of the record's whole TEXT."""
        if not text.startswith(self.done):
            self._reset()
        rest = text[len(self.done):]
        lines = _Lines(io.StringIO(rest), self.prev, self.no)
        read = 0
        try:
            for no, payload in lines:
                self._line(no, payload)
                read += 1
        except Exception:
            self._reset()
            raise
        if self.info is None:
            raise RecordError("the record is empty" + (" (its only line was torn)" if lines.torn
                                                       else ""), 1)
        game = self.game
        if game is None:                # a header alone: a game with no event
            game = Replay(self.rules, self._players(), history=False)
        answer = (game.rep if isinstance(game, Chouette) else game), self.info, lines.torn
        self._keep(rest, read)
        return answer

    def _keep(self, rest, read):
        # the first READ lines of REST were replayed: they join `done` if each ended with its
        # newline (a last line cut before it would read differently once the newline follows:
        # then the next text is read from the start)
        end = 0
        for _ in range(read):
            nl = rest.find("\n", end)
            if nl < 0:
                self._reset()
                return
            end = nl + 1
        if read:
            last = rest[:end - 1].rstrip("\r")
            self.prev = last[last.rfind("|") + 1:]
            self.no += read
            self.done += rest[:end]

    def _players(self):
        return (self.info.get("p0", "player 0"), self.info.get("p1", "player 1"))

    def _line(self, no, payload):
        words = payload.split()
        if self.info is None:
            self.rules, self.info = parse_header(payload)
            return
        if self.game is None and no == 2 and words[:1] == ["CHOUETTE"]:
            try:
                if len(words) < 2:
                    raise ValueError("a chouette record's second line is CHOUETTE")
                self.game = Chouette([unquote(w) for w in words[2:]], words[1], False)
            except ValueError as e:
                raise RecordError(str(e), no)
            return
        if self.game is None:
            self.game = Replay(self.rules, self._players(), history=False)
        if not words:
            raise RecordError("empty event", no)
        game = self.game
        if isinstance(game, Replay):
            game.event(words, no)
            return
        try:
            game.event(words)
        except RecordError as e:
            raise RecordError(e.reason, no, e.game, e.move)
        except (ValueError, IndexError) as e:
            raise RecordError(str(e), no, game.match.game, game.rep.move_no())
