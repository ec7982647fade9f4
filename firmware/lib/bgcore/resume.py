# The replay the board resumes from: the hash chain checked over the whole record, the rules
# applied to the last game only. A long money session's record holds dozens of finished games;
# replaying each of their moves with the rules (every play's legality) at each power-up, after
# each demo and in the pips view grows with the session (on an RP2040 about 200x the unix port's
# time). The games before the last one are skimmed: their GAME, END and MATCHEND lines carry the
# score forward (each END as the record says it: the board wrote and chained it, and
# `bgboard verify` on the laptop still replays everything); then the file is read again from the
# last GAME line on, with the rules. The result is the Replay bgcore.record.replay(f,
# history=False) gives for the same record (tests/test_resume_fast.py compares them).

from bgcore.record import Replay, RecordError, parse_header, _Lines, _number
from bgcore.match import GAME_OVER, MATCH_OVER

# the events a game may hold (what Replay.event knows), read past in a game before the last one
_SKIPPED = ("OPEN", "ROLL", "MOVE", "STEP", "UNDO", "DOUBLE", "BEAVER", "TAKE", "DROP",
            "RESIGN", "SIG", "TUTOR")


class _Marks:
    # the file read line by line for _Lines, noting where each GAME line starts (tell() before
    # the read) so that the last game can be read again
    def __init__(self, f):
        self.f = f
        self.n = 0
        self.games = {}         # line number -> offset, of GAME lines not yet taken

    def readline(self):
        at = self.f.tell()
        line = self.f.readline()
        self.n += 1
        if line.startswith("GAME "):
            self.games[self.n] = at
        return line


def replay_last_game(f):
    """(Replay, header info, torn note or None) of the record in the seekable text file `f`, as
    bgcore.record.replay(f, history=False) gives them, with the rules applied to the last game
    only. Raises RecordError at a damaged line anywhere, or at a rule broken in the last game
    (or at a skimmed line that cannot be where it is: an END that is no number, a line after
    MATCHEND)."""
    marks = _Marks(f)
    lines = _Lines(marks)
    rep = None
    info = None
    last = 0                  # the line number of the last GAME line, 0: none yet
    at = 0                    # its offset in the file
    kept = None               # the state before it: (score, game, crawford_done, turn, finished,
    good = 0                  # tutored, real dice, ranked); the last line that passed its check
    turn = 0                  # whose turn it is (as far as the skimmed lines say)
    for line_no, payload in lines:
        good = line_no
        if rep is None:
            rules, info = parse_header(payload)
            rep = Replay(rules, (info.get("p0", "player 0"), info.get("p1", "player 1")), False)
            continue
        m = rep.match
        sp = payload.find(" ")
        kind = payload[:sp] if sp > 0 else payload
        if kind in _SKIPPED:
            # most lines: read past with their first word (and a move's player) only
            if rep.ended:
                raise RecordError("nothing may follow the end of the match", line_no, m.game)
            if kind == "MOVE":            # whose turn it is carries into the next game's
                turn = 0 if payload[5:7] in ("1", "1 ") else 1      # opening (as Match.move)
            elif kind == "ROLL":
                if payload.endswith(" real"):
                    rep.real_dice = True
            elif kind == "TUTOR":
                rep.tutored = True
            elif kind == "OPEN":
                words = payload.split()
                if len(words) > 2 and words[1] != words[2]:
                    turn = 0 if words[1] > words[2] else 1  # (one digit each: as Match.opening)
                if len(words) > 3:
                    rep.real_dice = True
            continue
        words = payload.split()
        if not words:
            raise RecordError("empty event", line_no)
        kind = words[0]
        if kind == "GAME":
            if rep.ended:
                raise RecordError("nothing may follow the end of the match", line_no, m.game)
            kept = (list(m.score), m.game, m.crawford_done, turn, rep.finished, rep.tutored,
                    rep.real_dice, dict(rep.ranked))
            last, at = line_no, marks.games.pop(line_no)
            rep.event(words, line_no)            # the new game (cheap: no rule of play)
        elif kind == "END":
            # the game's result as the record gives it
            try:
                w, pts = _number(words[1]), _number(words[2])
            except (ValueError, IndexError):
                raise RecordError("END needs a winner and points", line_no, m.game)
            if w not in (0, 1) or m.phase in (GAME_OVER, MATCH_OVER) and m.result is None:
                raise RecordError("END without a game", line_no, m.game)
            if m.result is None:
                m._end(w, pts, words[3] if len(words) > 3 else "")
                rep.finished += 1
        elif kind == "MATCHEND" or kind in ("SEED", "NAME", "COUNTRY", "UNRANK"):
            rep.event(words, line_no)
        else:
            raise RecordError("unknown event %r" % kind[:20], line_no, m.game)
    if rep is None:
        raise RecordError("the record is empty" + (" (its only line was torn)" if lines.torn
                                                   else ""), 1)
    if last:
        # the last game again, from its GAME line, with the rules, on the state before it
        score, game, crawford_done, turn, finished, tutored, real, ranked = kept
        rep = Replay(rep.match.rules, rep.players, False)
        m = rep.match
        m.score = score
        m.game = game
        m.crawford_done = crawford_done
        m.turn = turn
        m.phase = GAME_OVER
        rep.finished = finished
        rep.tutored = tutored
        rep.real_dice = real
        rep.ranked = ranked
        f.seek(at)
        no = last
        while no <= good:
            raw = f.readline()
            payload = raw[:raw.rfind("|")]
            rep.event(payload.split(), no)
            no += 1
    return rep, info, lines.torn
