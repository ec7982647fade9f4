# The fields of a ranked record that come from outside the game: the name and country a person
# enters after a win (on the board and in `bgboard verify --ranked`), ticket ids, the reveal and
# the commitment, each checked with a message naming what is wrong. Apart from bgcore.ranked so
# that a ranked game in progress does not carry them on the board's heap.

import binascii

NAME_MAX = 12
NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -."

# ISO 3166-1 alpha-2, officially assigned codes, two letters each, sorted
COUNTRIES = (
    "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCI"
    "CKCLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQ"
    "GRGSGTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLS"
    "LTLULVLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONPNRNUNZOMPAPEPFPG"
    "PHPKPLPMPNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTK"
    "TLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW")


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


def name_lines(name, country):
    """The payloads of the NAME and COUNTRY lines (ValueError for a bad name or country)."""
    return ("NAME " + check_name(name), "COUNTRY " + check_country(country))
