# Ranked games against the computer: the dice nobody can choose or foresee, yet a replay can
# re-derive, and the lines a ranked record adds. Used unchanged by the board (MicroPython) and by
# the laptop (`bgboard selfplay --ranked`, `bgboard verify --ranked`); docs/leaderboard.md gives
# the scheme and its threat model.
#
#   nonce   32 bytes of the board's hardware randomness, drawn when the game starts (or when a
#           ticket is asked for: its hash then goes to the server before the ticket comes back)
#   secret  the server ticket's 16 random bytes (none without a ticket)
#   seed    SHA-256("bgboard ranked seed 1" | nonce | secret)
#   header  ... ranked=1 level=L bot=V commit=SHA-256(seed) ticket=ID|-   (V: BOT_PLAY below)
#   dice    roll r of the game (the opening roll is 0, a tie's re-roll 1, ...): the first two
#           bytes below 252 of HMAC-SHA256(seed, "dice" | r as 4 bytes | block), block 0, 1, ...;
#           a byte b gives the die b % 6 + 1
#   bot     the bot's play of roll r: Bot(level, s).choose(...), s the first 4 bytes of
#           HMAC-SHA256(seed, "bot" | r as 4 bytes) (big-endian) & 0x3FFFFFFF
#   reveal  SEED <nonce hex> <secret hex or ->, after END: the game can no longer change
#   name    NAME <1-12 of A-Z 0-9 space - .>, COUNTRY <ISO 3166-1 alpha-2>, after a win
#           (their checks, and those of the reveal and ticket ids: bgcore.rankfields)
#   unrank  UNRANK <hint|real|level|tutor>: from there on the game is an ordinary one (a
#           game with the tutor on is never ranked: a TUTOR line in it is refused)

import hashlib
import binascii

SEED_TAG = b"bgboard ranked seed 1"
# The version of the bots' choices a replay must repeat (bgcore.bot): 1 before level 6 looked
# ahead (levels 1-5 choose as in 2), 2 since, 3 since the network's weights are the ones
# tools/train_bot.py writes, 4 since level 6 looks ahead where its two best are within 0.06
# (levels 1-5 choose as in 3), 5 since a race network (bgcore.racenet) judges every level's
# races, 6 since the main network has contact inputs (escapes and primes: every level's choices
# in contact), 7 since level 6 averages its look ahead with the network (levels 1-5 choose as in
# 6), 8 since it looks ahead at its three best plays when they are close, not two (levels 1-5
# choose as in 7), 9 since at its four best (levels 1-5 choose as in 8), 10 since the networks
# have 64+16 units (every level's choices). A change to any level's choices makes it 11.
BOT_PLAY = 10
UNRANK_REASONS = ("hint", "real", "level", "seed", "tutor")

def hexs(data):
    return binascii.hexlify(data).decode()


def sha256(data):
    return hashlib.sha256(data).digest()


def hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104) from hashlib.sha256 alone: MicroPython has no hmac module."""
    if len(key) > 64:
        key = sha256(key)
    key = key + bytes(64 - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(msg)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def make_seed(nonce, secret=b""):
    return sha256(SEED_TAG + nonce + secret)


def commitment(seed):
    """The header's commit= field: the hex SHA-256 of the seed."""
    return hexs(sha256(seed))


def _be4(n):
    return bytes((n >> 24 & 255, n >> 16 & 255, n >> 8 & 255, n & 255))


def dice(seed, r):
    """The two dice of roll r (0-based, counting every OPEN and ROLL of the game)."""
    out = []
    block = 0
    while True:
        for b in hmac_sha256(seed, b"dice" + _be4(r) + bytes((block,))):
            if b < 252:
                out.append(b % 6 + 1)
                if len(out) == 2:
                    return out
        block += 1


def bot_seed(seed, r):
    """The noise seed of the bot's play of roll r."""
    h = hmac_sha256(seed, b"bot" + _be4(r))
    return (h[0] << 24 | h[1] << 16 | h[2] << 8 | h[3]) & 0x3FFFFFFF


def bot_play(level, seed, r, pos, d1, d2, bot=None):
    """The level-L bot's play of roll r (None: no legal play): what the board plays and what a
    replay requires, Bot(level, bot_seed(seed, r)).choose(pos, d1, d2). `bot`: a Bot of that
    level to reuse (on the board: no new one, with its buffers, per play), re-seeded as the
    constructor seeds it (the tests hold the two ways to the same plays)."""
    s = bot_seed(seed, r)
    if bot is None or bot.level != level:
        from bgcore.bot import Bot
        bot = Bot(level, s)
    else:
        bot._x = s & 0x3FFFFFFF or 1
    return bot.choose(pos, d1, d2)


# ---- header fields and lines ------------------------------------------------------------------

def header_fields(level, seed, ticket_id=""):
    return "ranked=1 level=%d bot=%d commit=%s ticket=%s" % (level, BOT_PLAY, commitment(seed),
                                                             ticket_id or "-")


def reveal_line(nonce, secret=b""):
    return "SEED %s %s" % (hexs(nonce), hexs(secret) if secret else "-")


# ---- a ranked game as it is played ------------------------------------------------------------

class Ranked:
    """The ranked part of a game in progress: its seed, where the dice and the bot's plays come
    from. `rep` is the game's bgcore.record.Replay (its `rolls` counts OPEN and ROLL events)."""

    def __init__(self, level, nonce, secret=b"", ticket_id=""):
        if not (isinstance(level, int) and 1 <= level <= 6):
            raise ValueError("a ranked game is against the bot at level 1 to 6")
        self.level = level
        self.nonce = nonce
        self.secret = secret
        self.ticket = ticket_id
        self.seed = make_seed(nonce, secret)

    def header(self):
        return header_fields(self.level, self.seed, self.ticket)

    def roll(self, rep):
        """The next roll's dice."""
        return dice(self.seed, rep.rolls)

    def bot_play(self, rep, bot=None):
        m = rep.match
        d1, d2 = m.dice
        return bot_play(self.level, self.seed, rep.rolls - 1, m.pos, d1, d2, bot)

    def reveal(self):
        return reveal_line(self.nonce, self.secret)

    def matches(self, info):
        """Does the header of a record (its parsed fields) commit to this seed?"""
        return info.get("commit") == commitment(self.seed) and \
            info.get("level") == str(self.level)


def person_won(rep):
    """Points the person (player 0) won in a finished ranked game, and the bot's pips left
    (0, pips when the bot won or the game is not over)."""
    m = rep.match
    res = m.result
    if not res:
        return 0, 0
    winner, points, how = res
    pips = m.pos.pips()
    bot_pips = pips[0] if m.turn == 1 else pips[1]
    if winner != 0 or how == "resign":
        return 0, bot_pips
    return points, bot_pips


def due(rep):
    """Is this a ranked win, revealed, whose name and country are still to be entered?"""
    got = rep.ranked
    return ("SEED" in got and "UNRANK" not in got and "NAME" not in got and not rep.ended
            and person_won(rep)[0] > 0)
