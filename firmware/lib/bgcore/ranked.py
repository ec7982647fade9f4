# Ranked games against the computer: the dice nobody can choose or foresee, yet a replay can
# re-derive, and the lines a ranked record adds. Used unchanged by the board (MicroPython) and by
# the laptop (`bgboard selfplay --ranked`, `bgboard verify --ranked`); docs/leaderboard.md gives
# the scheme and its threat model.
#
#   nonce   32 bytes of the board's hardware randomness, drawn when the game starts (or when a
#           ticket is asked for: its hash then goes to the server before the ticket comes back)
#   secret  the server ticket's 16 random bytes (none without a ticket)
#   seed    SHA-256("bgboard ranked seed 1" | nonce | secret)
#   header  ... ranked=1 level=L commit=SHA-256(seed) ticket=ID|-
#   dice    roll r of the game (the opening roll is 0, a tie's re-roll 1, ...): the first two
#           bytes below 252 of HMAC-SHA256(seed, "dice" | r as 4 bytes | block), block 0, 1, ...;
#           a byte b gives the die b % 6 + 1
#   bot     the bot's play of roll r: Bot(level, s).choose(...), s the first 4 bytes of
#           HMAC-SHA256(seed, "bot" | r as 4 bytes) (big-endian) & 0x3FFFFFFF
#   reveal  SEED <nonce hex> <secret hex or ->, after END: the game can no longer change
#   name    NAME <1-12 of A-Z 0-9 space - .>, COUNTRY <ISO 3166-1 alpha-2>, after a win
#   unrank  UNRANK <hint|real|level>: from there on the game is an ordinary one

import hashlib
import binascii

SEED_TAG = b"bgboard ranked seed 1"
NAME_MAX = 12
NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -."
UNRANK_REASONS = ("hint", "real", "level", "seed")

# ISO 3166-1 alpha-2, officially assigned codes, two letters each, sorted
COUNTRIES = (
    "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCI"
    "CKCLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQ"
    "GRGSGTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLS"
    "LTLULVLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONPNRNUNZOMPAPEPFPG"
    "PHPKPLPMPNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTK"
    "TLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW")


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


def bot_play(level, seed, r, pos, d1, d2):
    """The level-L bot's play of roll r (None: no legal play): what the board plays and what a
    replay requires."""
    from bgcore.bot import Bot
    return Bot(level, bot_seed(seed, r)).choose(pos, d1, d2)


# ---- header fields and lines ------------------------------------------------------------------

def header_fields(level, seed, ticket_id=""):
    return "ranked=1 level=%d commit=%s ticket=%s" % (level, commitment(seed), ticket_id or "-")


def reveal_line(nonce, secret=b""):
    return "SEED %s %s" % (hexs(nonce), hexs(secret) if secret else "-")


def parse_reveal(words):
    """(nonce, secret) from the words of a SEED line; ValueError says what is wrong."""
    if len(words) != 3:
        raise ValueError("a SEED line is 'SEED <nonce> <ticket secret or ->'")
    nonce = _unhex(words[1], 32, "the revealed nonce")
    secret = b"" if words[2] == "-" else _unhex(words[2], 16, "the revealed ticket secret")
    return nonce, secret


def _unhex(text, n, what):
    if len(text) != 2 * n or not _hex(text):
        raise ValueError("%s is not %d hex digits" % (what, 2 * n))
    return binascii.unhexlify(text)


def _hex(text):
    for c in text:
        if c not in "0123456789abcdef":
            return False
    return True


def check_commit(text):
    if len(text) != 64 or not _hex(text):
        raise ValueError("commit=%s is not a SHA-256 in 64 lower-case hex digits" % text[:70])
    return text


def check_ticket_id(text):
    """A ticket id: 1-24 letters, digits, '-' or '_'."""
    if not 1 <= len(text) <= 24:
        raise ValueError("a ticket id has 1 to 24 characters")
    for c in text:
        if not (c.isalpha() or c.isdigit() or c in "-_") or ord(c) > 126:
            raise ValueError("a ticket id holds only letters, digits, '-' and '_'")
    return text


def check_name(text):
    """The name as the record keeps it, or ValueError saying what is wrong."""
    if not text or not text.strip():
        raise ValueError("the name is empty")
    if len(text) > NAME_MAX:
        raise ValueError("a name has at most %d characters, not %d" % (NAME_MAX, len(text)))
    for c in text:
        if c not in NAME_CHARS:
            raise ValueError("%r is not allowed in a name (A-Z, 0-9, space, '-', '.')" % c)
    if text != text.strip() or "  " in text:
        raise ValueError("a name has no leading, trailing or double spaces")
    return text


def tidy_name(text):
    """What a person typed, as a name: upper case, spaces trimmed and single."""
    return " ".join(text.upper().split())


def check_country(code):
    if len(code) != 2 or not code.isalpha() or code.upper() != code or not is_country(code):
        raise ValueError("%r is not an ISO 3166-1 alpha-2 country code" % code[:8])
    return code


def is_country(code):
    i = COUNTRIES.find(code)
    while i >= 0:
        if i % 2 == 0:
            return True
        i = COUNTRIES.find(code, i + 1)
    return False


def country_index(code):
    """The code's place in COUNTRIES (for stepping through them with keys), -1 if none."""
    i = COUNTRIES.find(code)
    while i >= 0 and i % 2:
        i = COUNTRIES.find(code, i + 1)
    return i // 2 if i >= 0 else -1


def country_at(k):
    k %= len(COUNTRIES) // 2
    return COUNTRIES[2 * k:2 * k + 2]


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

    def bot_play(self, rep):
        m = rep.match
        d1, d2 = m.dice
        return bot_play(self.level, self.seed, rep.rolls - 1, m.pos, d1, d2)

    def reveal(self):
        return reveal_line(self.nonce, self.secret)

    def matches(self, info):
        """Does the header of a record (its parsed fields) commit to this seed?"""
        return info.get("commit") == commitment(self.seed) and \
            info.get("level") == str(self.level)


def name_lines(name, country):
    """The payloads of the NAME and COUNTRY lines (ValueError for a bad name or country)."""
    return ("NAME " + check_name(name), "COUNTRY " + check_country(country))


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
