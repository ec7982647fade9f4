"""Ranked games on the laptop: `verify_ranked(text)` proves a ranked record (the dice re-derived
from the revealed seed, every bot play re-computed, the result and the bot's pips taken from the
replay, never from the record's claims); `play_ranked(...)` makes ranked records through the
board's own code path (bgcore.ranked) for `bgboard selfplay --ranked`; and the local boards
(`bgboard board`). The leaderboard server calls `verify_ranked` as it is."""

import os
from dataclasses import dataclass, field

from bgcore import ranked as rk
from bgcore import rankfields as rf
from bgcore.match import GAME_OVER, MATCH_OVER, MOVE, OPENING, TURN, NOCUBE, Rules
from bgcore.record import RecordError, Replay, Writer, checked_lines, parse_header
from bgboard.safetext import number


@dataclass
class RankedResult:
    """What `verify_ranked` found. `ok`: the record proves a finished ranked game (a win or a
    loss); `points` is what player 0 (the person) won: 0 for a loss; `opponent_pips` the bot's
    pips left at the end. `ticket` is the header's ticket id (None: no ticket); `ticket_secret`
    and `nonce_commit` (hex SHA-256 of the revealed nonce) let a server check the ticket."""
    ok: bool
    error: str | None = None
    level: int | None = None
    points: int = 0
    opponent_pips: int = 0
    name: str | None = None
    country: str | None = None
    board: str | None = None
    ticket: str | None = None
    ticket_secret: str | None = None
    nonce_commit: str | None = None
    commit: str | None = None
    start: str | None = None
    moves: int = 0
    info: dict = field(default_factory=dict)

    def to_json(self):
        return {"ranked": self.ok, "level": self.level, "points": self.points,
                "opponent_pips": self.opponent_pips, "name": self.name, "country": self.country}


class _Reject(Exception):
    pass


# The levels whose choices an older BOT_PLAY (bgcore.ranked) shares with today's: a record made
# by such a board still replays. (Version 2 kept levels 1-5 of version 1, but version 3's
# network changed every level's choices; version 4 kept levels 1-5 of version 3, but version 5's
# race network changed every level's choices again, and version 6's network with contact inputs
# did once more; version 7 keeps levels 1-5 of version 6: level 6 averages its look ahead with
# the network, and versions 8 and 9 keep levels 1-5 of version 7: level 6 looks ahead at three
# plays, then four; version 10's networks of 64+16 units changed every level's choices again:
# no older version plays as it does.)
PLAYS_AS_NOW: dict[int, tuple[int, ...]] = {}


def _bot_play(info, level):
    # the header's bot= (the version of the bots' choices the board played; none: version 1),
    # checked against the one this replay repeats
    text = info.get("bot", "1")
    v = number(text, 4)
    if v is None:
        raise _Reject("line 1: header bot=%s is not a version number" % text[:10])
    if v == rk.BOT_PLAY or level in PLAYS_AS_NOW.get(v, ()):
        return
    if v > rk.BOT_PLAY:
        raise _Reject("line 1: the level-%d bot of this game (bot=%d) is newer than this "
                      "replay's (%d): update bgboard" % (level, v, rk.BOT_PLAY))
    raise _Reject("line 1: the level-%d bot of this game (bot=%d) chose differently from this "
                  "replay's (%d): its board needs new firmware (bgboard flash) before ranked "
                  "games" % (level, v, rk.BOT_PLAY))


def _move_no(rep, player):
    # the .mat move number of the entry `player` makes next (as Replay._slot will count it)
    s = rep.slot
    if s == 0 and player == 1:
        s = 1
    return s // 2 + 1


def verify_ranked(text):
    """Verify a ranked record given as text. Never raises for a bad record: the result says."""
    res = RankedResult(ok=False)
    try:
        _verify(text, res)
        res.ok = True
    except _Reject as e:
        res.error = str(e)
    except RecordError as e:
        res.error = e.where()
    return res


def _header(payload, res):
    rules, info = parse_header(payload)
    res.info = info
    if info.get("ranked") != "1":
        raise _Reject("line 1: not a ranked game (its header has no ranked=1)")
    lv = info.get("level", "")
    res.level = number(lv, 1)
    if res.level is None or not 1 <= res.level <= 6:
        raise _Reject("line 1: header level=%s is not a bot level 1-6" % lv[:10])
    _bot_play(info, res.level)
    try:
        res.commit = rf.check_commit(info.get("commit", ""))
        t = info.get("ticket", "-")
        res.ticket = None if t == "-" else rf.check_ticket_id(t)
    except ValueError as e:
        raise _Reject("line 1: header: %s" % e)
    if rules != Rules(NOCUBE):
        raise _Reject("line 1: a ranked game is a single game without cube, not mode=%s"
                      % rules.mode)
    if info.get("p1") != "bot:%d" % res.level:
        raise _Reject("line 1: player 1 must be the level-%d bot (bot:%d), not %s"
                      % (res.level, res.level, info.get("p1")))
    if info.get("p0", "").startswith("bot:"):
        raise _Reject("line 1: player 0 of a ranked game is a person, not %s" % info.get("p0"))
    res.board = info.get("board") if info.get("board") not in (None, "-") else None
    res.start = info.get("start") if info.get("start") not in (None, "-") else None
    return rules, info


def _verify(text, res):
    read = checked_lines(text)
    lines = list(read)
    if not lines:
        raise _Reject("line 1: the record is empty%s"
                      % (" (its only line was torn or is not a record line)" if read.torn else ""))
    rules, info = _header(lines[0][1], res)
    seed = _revealed_seed(lines, res)
    rep = Replay(rules, (info.get("p0"), info.get("p1")), history=False)
    m = rep.match
    level = res.level
    seen = []                 # the kinds of line read since the game ended
    for no, payload in lines[1:]:
        words = payload.split()
        if not words:
            raise RecordError("empty event", no)
        kind = words[0]
        if m.game and m.phase in (GAME_OVER, MATCH_OVER):
            _after_game(kind, payload, no, rep, res, seen)
            continue
        if kind in ("SEED", "NAME", "COUNTRY", "MATCHEND"):
            raise _Reject("line %d: %s before the game is over" % (no, kind))
        if kind == "TUTOR":
            raise _Reject("line %d: the tutor was on: a ranked game is played without it" % no)
        if (kind == "GAME") != (m.game == 0):
            raise _Reject("line %d: a ranked record holds one game, GAME 1 after the header"
                          % no)
        if kind in ("OPEN", "ROLL"):
            p = m.turn if kind == "ROLL" and m.phase == TURN else 0
            where = "game 1 move %d" % (_move_no(rep, p) if kind == "ROLL" else 1)
            if (kind == "OPEN" and len(words) > 3) or (kind == "ROLL" and len(words) > 4):
                raise _Reject("%s: real dice in a ranked game" % where)
            want = rk.dice(seed, rep.rolls)
            got = words[1:3] if kind == "OPEN" else words[2:4]
            if got != [str(want[0]), str(want[1])]:
                raise _Reject("%s: dice %s are not the ones the seed gives (%d-%d)"
                              % (where, "-".join(got), want[0], want[1]))
            rep.event(words, no)
            continue
        if kind == "MOVE" and words[1:2] == ["1"] and m.phase == MOVE and m.turn == 1:
            d1, d2 = m.dice
            expected = rk.bot_play(level, seed, rep.rolls - 1, m.pos, d1, d2)
            before = m.pos
            rep.event(words, no)
            played = before.parse_play(" ".join(words[2:]), d1, d2)
            res.moves += 1
            if played != expected:
                raise _Reject("game 1 move %d: not the level-%d bot's play (%s; the bot plays %s)"
                              % (rep.move_no(), level, played or "no play",
                                 expected or "no play"))
            continue
        if kind in ("STEP", "UNDO") and words[1:2] == ["1"]:
            raise _Reject("line %d: the bot makes no checker steps in a record" % no)
        if kind == "RESIGN" and words[1:2] == ["1"]:
            raise _Reject("game 1 move %d: the bot never resigns" % _move_no(rep, 1))
        if kind == "MOVE":
            res.moves += 1
        rep.event(words, no)
    if m.phase not in (GAME_OVER, MATCH_OVER):
        raise _Reject("game 1 move %d: the game is not over" % rep.move_no())
    if "END" not in seen:
        raise _Reject("the record has no END line for its result")
    res.points, res.opponent_pips = rk.person_won(rep)
    if res.points and (res.name is None) != (res.country is None):
        raise _Reject("a name without a country, or a country without a name")


def _revealed_seed(lines, res):
    # the seed first: it is revealed at the end, and the dice of every roll depend on it
    seed = None
    for no, payload in lines[1:]:
        words = payload.split()
        if words and words[0] == "UNRANK":
            raise _Reject("line %d: the game was made unranked (%s)"
                          % (no, " ".join(words[1:]) or "no reason"))
        if words and words[0] == "SEED":
            try:
                nonce, secret = rf.parse_reveal(words)
            except ValueError as e:
                raise _Reject("line %d: %s" % (no, e))
            seed = rk.make_seed(nonce, secret)
            if rk.commitment(seed) != res.commit:
                raise _Reject("line %d: the revealed seed does not match the header's "
                              "commitment" % no)
            if bool(secret) != (res.ticket is not None):
                raise _Reject("line %d: the reveal %s a ticket secret but the header %s"
                              % (no, "has" if secret else "lacks",
                                 "names no ticket" if secret else "names ticket %s" % res.ticket))
            res.ticket_secret = rk.hexs(secret) if secret else None
            res.nonce_commit = rk.hexs(rk.sha256(nonce))
    if seed is None:
        raise _Reject("line %d: the record ends before its seed is revealed (no SEED line): "
                      "the game is unfinished or was cut short" % lines[-1][0])
    return seed


_ORDER = ("END", "SEED", "NAME", "COUNTRY", "MATCHEND")


def _after_game(kind, payload, no, rep, res, seen):
    words = payload.split()
    if kind not in _ORDER:
        raise _Reject("line %d: %s after the end of the game" % (no, kind))
    if seen and _ORDER.index(kind) <= _ORDER.index(seen[-1]):
        raise _Reject("line %d: %s out of order (END, SEED, NAME, COUNTRY, MATCHEND)"
                      % (no, kind))
    if kind != "END" and not seen:
        raise _Reject("line %d: %s before the END line" % (no, kind))
    if kind != "SEED" and seen == ["END"]:
        raise _Reject("line %d: the seed is revealed right after END, before %s" % (no, kind))
    if kind in ("NAME", "COUNTRY"):
        if rk.person_won(rep)[0] == 0:
            raise _Reject("line %d: a %s line, but the person did not win" % (no, kind))
        value = payload[len(kind) + 1:]      # as written: spaces count
        try:
            if kind == "NAME":
                res.name = rf.check_name(value)
            else:
                res.country = rf.check_country(value)
        except ValueError as e:
            raise _Reject("line %d: %s" % (no, e))
    seen.append(kind)
    rep.event(words, no)


# ---- ranked records made on the laptop ------------------------------------------------------

def play_ranked(level, person_level=6, name=None, country=None, nonce=None, ticket=None,
                person_seed=1, board="host", start=""):
    """Play one ranked game, the person's side by the level-`person_level` bot, through the
    board's code path (bgcore.ranked: seed, commitment, dice, the bot's plays, reveal, name
    lines). `ticket` is (id, secret bytes) or None. Returns the record's text."""
    from bgcore.bot import Bot
    if name is not None:
        name = rf.check_name(name)
    if country is not None:
        rf.check_country(country)
    tid, secret = ticket if ticket else ("", b"")
    game = rk.Ranked(level, nonce if nonce is not None else os.urandom(32), secret, tid)
    person = Bot(person_level, person_seed)
    rules = Rules(NOCUBE)
    players = ("you", "bot:%d" % level)
    w = Writer()
    out = [w.header(rules, players, board=board, fw="selfplay", start=start,
                    extra=game.header())]
    rep = Replay(rules, players, history=False)
    m = rep.match

    def emit(payload):
        rep.event(payload.split())
        out.append(w.line(payload))

    emit("GAME 1")
    while m.phase == OPENING:
        d = game.roll(rep)
        emit("OPEN %d %d" % (d[0], d[1]))
    while m.phase not in (GAME_OVER, MATCH_OVER):
        if m.phase == TURN:
            d = game.roll(rep)
            emit("ROLL %d %d %d" % (m.turn, d[0], d[1]))
        if m.turn == 1:
            play = game.bot_play(rep)
        else:
            play = person.choose(m.pos, *m.dice)
        emit(("MOVE %d %s" % (m.turn, " ".join("%d/%d" % s for s in play.moves))).rstrip()
             if play else "MOVE %d" % m.turn)
    winner, points, how = m.result
    emit("END %d %d %s" % (winner, points, how))
    emit(game.reveal())
    if winner == 0 and name is not None and country is not None:
        for line in rf.name_lines(name, country):
            emit(line)
    emit("MATCHEND %d %d %d" % (winner, m.score[0], m.score[1]))
    return "".join(out)


# ---- the local boards: ranked wins in the archive ---------------------------------------------

@dataclass
class Entry:
    level: int
    name: str
    country: str
    points: int
    opponent_pips: int
    date: str
    path: str
    board: str


def _date(res, path):
    if res.start:
        return res.start.replace("T", " ")[:16]
    import datetime
    return datetime.datetime.fromtimestamp(os.path.getmtime(path)).strftime("%Y-%m-%d %H:%M")


def rank_key(e):
    """Points won (more first), then the bot's pips left (more first), then the earlier game."""
    return (-e.points, -e.opponent_pips, e.date, e.path)


def collect(paths):
    """Verify each ranked record among `paths`: ({level: [Entry, ...] best first},
    {path: RankedResult} of every ranked record)."""
    boards = {}
    results = {}
    for p in paths:
        p = str(p)
        try:
            with open(p, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        first = text.split("\n", 1)[0]
        if not first.startswith("BGR") or " ranked=1" not in first:
            continue
        res = verify_ranked(text)
        results[p] = res
        if res.ok and res.points:
            boards.setdefault(res.level, []).append(Entry(
                res.level, res.name or "?", res.country or "--", res.points, res.opponent_pips,
                _date(res, p), p, res.board or "-"))
    for entries in boards.values():
        entries.sort(key=rank_key)
    return boards, results


def standing(path, boards, results):
    """A ranked record's standing for `bgboard games`: '#2 of 7 on level 3', 'lost', ..."""
    res = results.get(str(path))
    if res is None:
        return None
    if not res.ok:
        return "not proven: " + res.error
    if not res.points:
        return "lost to level %d" % res.level
    entries = boards.get(res.level, [])
    for i, e in enumerate(entries):
        if e.path == str(path):
            return "#%d of %d on level %d" % (i + 1, len(entries), res.level)
    return None


def country_label(code):
    """'NZ' -> '🇳🇿 New Zealand' (the flag from the code's regional indicator letters)."""
    if not code or len(code) != 2 or not rf.is_country(code):
        return code or "-"
    flag = "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in code)
    try:
        import pycountry
        found = pycountry.countries.get(alpha_2=code)
        name = getattr(found, "common_name", None) or found.name
    except (ImportError, AttributeError):
        name = code
    return "%s %s" % (flag, name)


def run_board(folder=None, level=None, out=None):
    """`bgboard board`: the best ranked wins per level among the archive's records."""
    import sys
    from pathlib import Path
    from bgboard.archive import archive_root
    out = out or sys.stdout
    folder = Path(folder) if folder else archive_root()
    if not folder.exists():
        print("no records yet: %s does not exist (bgboard logs pull fills it)" % folder,
              file=sys.stderr)
        return 1
    boards, results = collect(sorted(p for p in folder.rglob("*.bgr") if p.is_file()))
    levels = [level] if level else sorted(boards)
    if not levels:
        print("no ranked wins in %s" % folder, file=out)
        return 0
    for lv in levels:
        entries = boards.get(lv, [])
        print("level %d (%s): %d ranked win(s)" % (lv, _level_name(lv), len(entries)), file=out)
        if not entries:
            continue
        head = ("#", "name", "country", "points", "bot pips", "date", "record")
        rows = [(str(i + 1), e.name, country_label(e.country), str(e.points),
                 str(e.opponent_pips), e.date, str(Path(e.path).relative_to(folder)))
                for i, e in enumerate(entries[:10])]
        from bgboard.safetext import for_terminal      # names from records, shown safe
        rows = [tuple(for_terminal(c, 80) for c in r) for r in rows]
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        fmt = "  ".join("%%-%ds" % w for w in widths)
        for r in [head] + rows:
            print((fmt % r).rstrip(), file=out)
    return 0


def _level_name(lv):
    from bgcore.bot import NAMES
    return NAMES[lv]


def run_selfplay(args):
    """`bgboard selfplay --ranked`: args.games records in args.out."""
    import datetime
    import random
    import sys
    if args.match is not None:
        print("bgboard selfplay: --ranked plays single games (--games N), not a match",
              file=sys.stderr)
        return 2
    try:
        name = rf.check_name(args.name) if args.name is not None else None
        country = rf.check_country(args.country) if args.country is not None else None
    except ValueError as e:
        print("bgboard selfplay: %s" % e, file=sys.stderr)
        return 2
    if (name is None) != (country is None):
        print("bgboard selfplay: give both --name and --country, or neither", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    # with --seed the same records again; without, the nonce is fresh randomness
    nonces = [rng.randbytes(32) if args.seed is not None else os.urandom(32)
              for _ in range(args.games)]
    board, tickets = "host", [None] * args.games
    if getattr(args, "server", None):
        # tickets from a leaderboard server, as a registered board gets them (the leaderboard)
        from bgboard.leaderboard.client import ClientError, laptop_tickets
        try:
            board, tickets = laptop_tickets(args.server, nonces)
        except ClientError as e:
            print("bgboard selfplay: %s" % e, file=sys.stderr)
            return 1
    for i in range(args.games):
        text = play_ranked(args.level, args.person_level, name, country, nonce=nonces[i],
                           ticket=tickets[i], board=board,
                           person_seed=rng.randrange(1 << 30), start=stamp)
        path = os.path.join(args.out, "ranked-%03d.bgr" % (i + 1))
        with open(path, "w") as f:
            f.write(text)
        print(path)
    return 0
