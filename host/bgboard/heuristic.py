# A simple rule-of-thumb player: picks plays by made points, blots and the race, and takes cube
# decisions from the pip count. The test corpus (bgboard.corpus) uses it to reach positions of
# plausible play quickly; the board plays with bgcore.bot.


def _score(pos):
    # pos has the opponent on roll: the player who just moved is side 1 (bytes 26..51).
    b = pos.raw
    score = 0
    for p in range(1, 25):
        n = b[26 + p]
        if n >= 2:
            score += 3 if p <= 12 else 1        # points nearer home count more
        elif n == 1:
            # a blot matters when an opposing checker could reach it
            for q in range(26 - p, 26):          # the opponent's checkers above it
                if b[q] and q - (25 - p) <= 12:
                    score -= 2
                    break
    me, them = pos.pips()
    return score * 4 + (me - them) // 4 + 6 * b[25]


def choose(pos, d1, d2):
    """The heuristic's play for the roll (None when the roll cannot be played)."""
    best = None
    best_score = None
    for play in pos.plays(d1, d2):
        s = _score(pos.apply(play))
        if best is None or s > best_score:
            best = play
            best_score = s
    return best


def _race_lead(pos):
    me, them = pos.pips()
    return (them - me) * 100 // max(me, 1)      # lead in percent of our pip count


def wants_double(pos):
    """Double when the pip lead is about 8% or more (on roll)."""
    return _race_lead(pos) >= 8


def takes(pos):
    """`pos` is seen from the doubler, on roll: take unless the doubler leads by 12% or more."""
    return _race_lead(pos) < 12
