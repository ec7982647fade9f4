"""Countries as the leaderboard shows them: the ISO 3166-1 alpha-2 code the board records
(bgcore.rankfields keeps the list), its name (pycountry) and its flag (the pair of Unicode regional
indicator letters that browsers draw as the country's flag)."""

from bgcore.rankfields import is_country


def name(code):
    """The country's name, or the code itself when it is not a country."""
    if not isinstance(code, str) or len(code) != 2 or not is_country(code):
        return code
    import pycountry
    found = pycountry.countries.get(alpha_2=code)
    return (getattr(found, "common_name", None) or found.name) if found else code


def flag(code):
    """The flag as two regional indicator letters; empty for a code that is not a country."""
    if not isinstance(code, str) or len(code) != 2 or not is_country(code):
        return ""
    return "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in code)
