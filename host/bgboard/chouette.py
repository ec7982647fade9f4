"""Chouette records on the laptop: `bgboard selfplay --chouette N` (bots in every seat, through
bgcore.chouette's model), `verify` of a chouette record with every player's score, and `export
--format mat`: each member's game against the box as a money game of its own (the same checker
plays, that member's cube), one .mat per member and game, for GNU Backgammon."""

import os
import sys

from bgcore import chouette as model
from bgcore.match import Rules, MONEY, OPENING, TURN, MOVE, GAME_OVER
from bgcore.record import RecordError, Replay, Writer, quote
from bgboard import matfile


def is_chouette_file(path):
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return model.is_chouette(head)


def load(path):
    """(Chouette, header info, torn note); ValueError with the file, line and reason."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return model.replay(text)
    except RecordError as e:
        raise ValueError("%s: line %d: %s" % (path, e.line, e.where()))


def standing(ch):
    """Every seated player's running score, as the board shows them: 'Ann +3, Bob -1, ...'."""
    return ", ".join("%s %+d" % (ch.names[p], ch.scores[p]) for p in range(len(ch.names)))


def summary(ch):
    line = ch.line
    who = ("box %s, captain %s" % (ch.names[line[0]], ch.names[line[1]])) if line else "no order yet"
    return "chouette (%s cube), %d players, %d game(s); %s; scores: %s%s" % (
        ch.cubes, len(ch.names), len(ch.games), who, standing(ch),
        " (over)" if ch.ended else "")


def verify(args):
    import json
    try:
        ch, info, torn = load(args.file)
    except (ValueError, OSError) as e:
        if args.json:
            print(json.dumps({"ok": False, "players": None, "score": None, "games": 0,
                              "position": None, "error": str(e).split(": ", 1)[-1]}))
        else:
            print("%s: INVALID: %s" % (args.file, str(e).split(": ", 1)[-1]), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"ok": True, "players": ch.names, "score": ch.scores,
                          "games": len(ch.games), "position": ch.match.pos.id(), "error": None,
                          "chouette": ch.cubes, "line": ch.line}))
    else:
        print("%s: OK: %s" % (args.file, summary(ch)))
        if torn:
            print("%s: note: %s" % (args.file, torn))
    return 0


def member_records(ch, info):
    """Per finished game and member: (game number, member name, two-player record text) of the
    member's game against the box as a money game (side 0 the box, 1 the member)."""
    out = []
    for gi, (box, captain, members, events) in enumerate(ch.games):
        for p in members:
            text = _member_game(ch, info, box, p, events)
            if text:
                out.append((gi + 1, ch.names[p], text))
    return out


def _member_game(ch, info, box, p, events):
    rules = Rules(MONEY)
    players = (ch.names[box], ch.names[p])
    w = Writer()
    lines = [w.header(rules, players, board=info.get("board", ""), fw=info.get("fw", ""),
                      start=info.get("start", ""))]
    rep = Replay(rules, players, history=False)
    m = rep.match

    def emit(payload):
        rep.event(payload.split())
        lines.append(w.line(payload))

    for ev in events:
        words = ev.split()
        k = words[0]
        if m.game and m.phase == GAME_OVER:
            break
        if k in ("GAME", "OPEN", "ROLL", "MOVE"):
            emit("GAME 1" if k == "GAME" else ev)
        elif k == "CDOUBLE" and int(words[1]) == p:
            emit("DOUBLE %d %d" % (m.turn, m.cube * 2))
        elif k in ("CTAKE", "CDROP") and int(words[1]) == p:
            emit("%s %d" % ("TAKE" if k == "CTAKE" else "DROP", 1 - m.offered_by))
    if not m.game or m.phase != GAME_OVER:
        return None             # the game was cut short before this member's result
    wn, pts, how = m.result
    emit("END %d %d %s" % (wn, pts, how))
    return "".join(lines)


def export(args):
    """`export --format mat` of a chouette: one .mat per member and game into -o DIR."""
    try:
        ch, info, torn = load(args.file)
    except (ValueError, OSError) as e:
        print("bgboard export: %s" % e, file=sys.stderr)
        return 1
    if args.format != "mat":
        print("bgboard export: %s is a chouette: it exports as .mat, one file per member and "
              "game (--format mat -o DIR)" % args.file, file=sys.stderr)
        return 1
    out = args.output or os.path.dirname(os.path.abspath(args.file))
    os.makedirs(out, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.file))[0]
    start = info.get("start", "")
    date = start[:10].replace("-", ".") if len(start) >= 10 and start[4] == "-" else None
    from bgcore.record import replay
    for g, name, text in member_records(ch, info):
        rep, _, _ = replay(text)
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
        path = os.path.join(out, "%s-g%02d-%s.mat" % (stem, g, safe))
        with open(path, "w") as f:
            f.write(matfile.write(rep, date))
        print(path)
    return 0


def play(n, cubes, games, rng, level=6, start=""):
    """A chouette of `n` bots (level `level`, seeded from `rng`, which also rolls the dice)
    over `games` games; returns the record's text."""
    from bgcore.bot import Bot
    names = ["Bot%d" % (i + 1) for i in range(n)]
    bots = {i: Bot(level, rng.randrange(1 << 30)) for i in range(n)}
    w = Writer()
    out = [w.header(Rules(MONEY), ("box", "team"), board="host", fw="selfplay", start=start)]
    ch = None

    def emit(*words):
        payload = " ".join(str(x) for x in words)
        if ch is not None:
            ch.event(payload.split())
        out.append(w.line(payload))

    emit("CHOUETTE", cubes, *[quote(x) for x in names])
    ch = model.Chouette(names, cubes)
    while ch.to_order():
        emit("ORDER", *["%d:%d" % (p, rng.randint(1, 6)) for p in ch.to_order()])
    m = ch.match
    for g in range(games):
        emit("GAME", m.game + 1)
        while m.phase == OPENING:
            emit("OPEN", rng.randint(1, 6), rng.randint(1, 6))
        while m.phase != GAME_OVER:
            if m.phase == TURN:
                offers = model.bot_offers(ch, bots)
                if offers:
                    takes = {}
                    for p in offers:
                        emit("CDOUBLE", p, 2 * ch.cube[p])
                    if cubes == model.SINGLE and m.turn == 1:
                        t = model.bot_takes(ch, offers[0], bots[ch.box])
                        takes = {p: t for p in offers}
                    else:
                        for p in offers:
                            taker = bots[p] if m.turn == 0 else bots[ch.box]
                            takes[p] = model.bot_takes(ch, p, taker)
                    for p in offers:
                        emit("CTAKE" if takes[p] else "CDROP", p)
                    if m.phase == GAME_OVER:
                        break
                emit("ROLL", m.turn, rng.randint(1, 6), rng.randint(1, 6))
            if m.phase == MOVE:
                play = bots[ch.box if m.turn == 0 else ch.captain].choose(m.pos, *m.dice)
                emit("MOVE", m.turn, " ".join("%d/%d" % s for s in play.moves) if play else "")
        if ch.playing:
            wn, pts, how = m.result
            emit("END", wn, pts, how)
        emit("SCORE", *ch.settled())
    emit("CHOUETTEEND")
    return "".join(out)


def selfplay(args):
    import datetime
    import random
    n = args.chouette
    if not model.MIN_PLAYERS <= n <= model.MAX_PLAYERS:
        print("bgboard selfplay: a chouette has 3 to 8 players, not %d" % n, file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    text = play(n, args.cubes, args.games or 1, rng, level=args.level, start=stamp)
    k = 1
    while os.path.exists(os.path.join(args.out, "chouette-%03d.bgr" % k)):
        k += 1
    path = os.path.join(args.out, "chouette-%03d.bgr" % k)
    with open(path, "w") as f:
        f.write(text)
    print(path)
    return 0
