# The replay the board resumes from: the hash chain checked over the whole record, the rules
# applied to the last game only. A long money session's record holds dozens of finished games;
# replaying each of their moves with the rules (every play's legality) at each power-up, after
# each demo and in the pips view grows with the session (on an RP2040 about 200x the unix port's
# time). The games before the last one are skimmed: their GAME, END and MATCHEND lines carry the
# score forward (each END as the record says it: the board wrote and chained it, and
# `bgboard verify` on the laptop still replays everything); then the file is read again from the
# last GAME line on, with the rules. The result is the Replay bgcore.record.replay(f,
# history=False) gives for the same record (tests/test_resume_fast.py compares them). The chain
# is checked here in bytes, a block read at a time: on an RP2040 the text made of every line
# and MicroPython's byte-at-a-time readline cost more than the checks.

import binascii
import hashlib

from bgcore.record import Replay, RecordError, parse_header, _number
from bgcore.match import GAME_OVER, MATCH_OVER

# the events a game may hold (what Replay.event knows) that are read past by their first word in
# a game before the last one; the others are split into words
_SKIPPED = (b"ROLL", b"MOVE", b"STEP", b"UNDO", b"DOUBLE", b"BEAVER", b"TAKE", b"DROP",
            b"RESIGN", b"SIG", b"TUTOR")
_BLOCK = 512        # bytes read at a time
_FEED_LINES = 32    # the watchdog fed every this many lines while the chain is checked,
_FEED_RULES = 8     # and every this many while the rules replay the last game (on the emulated
                    # RP2040 32 lines of rules took 964 ms)


def replay_last_game(f, feed=None, opening="", out=None):
    """(Replay, header info, torn note or None) of the record in the seekable binary file `f`,
    as bgcore.record.replay(text, history=False) gives them, with the rules applied to the last
    game only: each line's check is verified in bytes as it is read (no text made of the lines
    the rules skip), the last game read again from its GAME line. `feed` is called every
    _FEED_LINES lines. With a list `out`, out[:] = [the check of the last whole line, 1 if a
    whole line begins with a letter not in `opening` else 0, the offset of a torn last line or
    None]. Raises RecordError at a damaged line anywhere, or at a rule broken in
    the last game (or at a skimmed line that cannot be where it is: an END that is no number, a
    line after MATCHEND)."""
    sha = hashlib.sha256
    hexlify = binascii.hexlify
    opening = opening.encode()
    rep = None
    info = None
    last = 0                  # the line number of the last GAME line, 0: none yet
    at_game = 0               # its offset in the file
    kept = None               # the state before it: (score, game, crawford_done, turn, finished,
    #                           tutored, real dice, ranked)
    turn = 0                  # whose turn it is (as far as the skimmed lines say)
    played = 0
    torn = torn_at = None
    prev = b""                # the check of the last whole line
    block = b""               # what was read and not yet taken; `at` its next line, `base` the
    at = base = 0             # file offset of block[0]
    no = 0
    while True:
        i = block.find(b"\n", at)
        if i < 0:
            more = f.read(_BLOCK)
            if more:
                base += at
                block = block[at:] + more
                at = 0
                continue
            if at >= len(block):
                break
            i = len(block)              # a last line without its end
        start, end = at, i
        at = i + 1
        no += 1
        if feed and no % _FEED_LINES == 0:
            feed()
        if end > start and block[end - 1] == 13:      # \r
            end -= 1
        bar = block.rfind(b"|", start, end)
        shaped = bar > start and end - bar == 9
        if shaped:
            h = sha(prev)
            h.update(block[start:bar])
            check = hexlify(h.digest()[:4])
        if not shaped or check != block[bar + 1:end]:
            complete = i < len(block)
            if not complete:
                final = True                    # (the file ended without a line end)
            elif at < len(block):
                final = False
            else:
                final = not f.read(1)           # nothing after this line
            if final and (not complete or not shaped):
                torn = ("line %d is incomplete (cut off while being written) and was dropped"
                        % no)
                torn_at = base + start
                break
            if shaped:
                raise RecordError("integrity check failed: the line was altered, or a line "
                                  "before it was removed or changed", no)
            raise RecordError("damaged line (no integrity check)", no)
        prev = check
        payload = block[start:bar]
        if opening and payload[:1] not in opening:
            played = 1
        if rep is None:
            rules, info = parse_header(_text(payload, no))
            rep = Replay(rules, (info.get("p0", "player 0"), info.get("p1", "player 1")), False)
            continue
        m = rep.match
        sp = payload.find(b" ")
        kind = payload[:sp] if sp > 0 else payload
        if kind in _SKIPPED:
            # most lines: read past by their first word (and a move's player) only
            if rep.ended:
                raise RecordError("nothing may follow the end of the match", no, m.game)
            if kind == b"MOVE":           # whose turn it is carries into the next game's
                turn = 0 if payload[5:6] == b"1" else 1      # opening (as Match.move)
            elif kind == b"ROLL":
                if payload.endswith(b" real"):
                    rep.real_dice = True
            elif kind == b"TUTOR":
                rep.tutored = True
            continue
        words = _text(payload, no).split()
        if not words:
            raise RecordError("empty event", no)
        kind = words[0]
        if kind == "OPEN":
            if rep.ended:
                raise RecordError("nothing may follow the end of the match", no, m.game)
            if len(words) > 2 and words[1] != words[2]:
                turn = 0 if words[1] > words[2] else 1      # (one digit each: as Match.opening)
            if len(words) > 3:
                rep.real_dice = True
        elif kind == "GAME":
            if rep.ended:
                raise RecordError("nothing may follow the end of the match", no, m.game)
            kept = (list(m.score), m.game, m.crawford_done, turn, rep.finished, rep.tutored,
                    rep.real_dice, dict(rep.ranked))
            last, at_game = no, base + start
            rep.event(words, no)                 # the new game (cheap: no rule of play)
        elif kind == "END":
            # the game's result as the record gives it
            try:
                w, pts = _number(words[1]), _number(words[2])
            except (ValueError, IndexError):
                raise RecordError("END needs a winner and points", no, m.game)
            if w not in (0, 1) or m.phase in (GAME_OVER, MATCH_OVER) and m.result is None:
                raise RecordError("END without a game", no, m.game)
            if m.result is None:
                m._end(w, pts, words[3] if len(words) > 3 else "")
                rep.finished += 1
        elif kind in ("MATCHEND", "SEED", "NAME", "COUNTRY", "UNRANK"):
            rep.event(words, no)
        else:
            raise RecordError("unknown event %r" % kind[:20], no, m.game)
    good = no - 1 if torn else no
    if out is not None:
        out[:] = [prev.decode(), played, torn_at]
    if rep is None:
        raise RecordError("the record is empty" + (" (its only line was torn)" if torn
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
        f.seek(at_game)
        block = b""
        at = 0
        no = last
        while no <= good:
            i = block.find(b"\n", at)
            if i < 0:
                more = f.read(_BLOCK)
                if more:
                    block = block[at:] + more
                    at = 0
                    continue
                i = len(block)
            line = block[at:i]
            at = i + 1
            if feed and no % _FEED_RULES == 0:
                feed()
            rep.event(_text(line[:line.rfind(b"|")], no).split(), no)
            no += 1
    return rep, info, torn


def _text(payload, no):
    try:
        return str(payload, "utf-8")
    except UnicodeError:
        raise RecordError("damaged line (not UTF-8 text)", no)


_TAIL = 512         # bytes read at a time back from the end, to the last GAME line,
_REACH = 65536      # at most this far


def glance(f, size):
    """(position bytes with the turn's steps made, the player on roll) at the end of the record
    in the seekable binary file `f` of `size` bytes, read from its last GAME line on without
    checking anything (no chain, no rule): for a first frame at power-up while replay_last_game
    checks the record, before play goes on. None when the tail says nothing it can show (no
    GAME line in reach, a line it cannot read)."""
    from bgcore.position import Position
    at = -1
    back = size
    carry = b""
    while at < 0 and back > 0 and size - back < _REACH:
        n = min(_TAIL, back)
        back -= n
        f.seek(back)
        block = f.read(n) + carry
        i = block.rfind(b"\nGAME ")
        if i >= 0:
            at = back + i + 1
        carry = block[:6]
    if at < 0:
        return None
    f.seek(at)
    # the position, whose side it is seen from, the turn's steps
    g = [bytearray(Position.initial().raw), 0, []]  # type: list
    rest = b""
    try:
        while True:
            more = f.read(_BLOCK)
            lines = (rest + more).split(b"\n")
            rest = lines.pop() if more else b""
            for line in lines:
                _glance_line(g, line[:line.rfind(b"|")].split())
            if not more:
                break
        raw, view, steps = g
        for s, t in steps:
            _step(raw, s, t)
    except (ValueError, IndexError):
        return None
    return raw, view


def _glance_line(g, words):
    # one line of the last game read by glance (no check): g = [position, view, steps]
    if len(words) < 2:
        return
    kind = words[0]
    if kind == b"OPEN":
        if len(words) < 3 or words[1] == words[2]:
            return
        p = 0 if int(words[1]) > int(words[2]) else 1
    elif kind in (b"ROLL", b"MOVE", b"STEP", b"UNDO"):
        p = int(words[1])
    else:
        return
    if p != g[1]:
        raw = g[0]
        g[0] = raw[26:] + raw[:26]
        g[1] = p
    if kind == b"STEP":
        g[2].append((int(words[2]), int(words[3])))
    elif kind == b"UNDO":
        g[2].pop()
    elif kind == b"MOVE":
        raw = g[0]
        for hop in words[2:]:
            s, t = hop.split(b"/")
            _step(raw, int(s), int(t))
        g[0] = raw[26:] + raw[:26]
        g[1] = 1 - p
        g[2] = []


def _step(raw, s, t):
    # one checker of the side raw is seen from, from s to t (25 the bar, 0 off), hitting a blot
    if not (0 < s <= 25 and 0 <= t < 25 and raw[s]):
        raise ValueError("no checker to move")
    raw[s] -= 1
    raw[t] += 1
    if t and raw[51 - t] == 1:
        raw[51 - t] = 0
        raw[51] += 1
