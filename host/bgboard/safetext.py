"""Text that came from a board or a file, made safe to print on a terminal: every control
character (C0 including ESC, DEL, C1), every invisible format character (bidi overrides and
isolates, zero-width characters), line and paragraph separators and lone surrogates are shown
escaped as Python writes them (\\x1b, \\u202e), so what a board or a record says can neither
move the cursor, retitle the window, write the clipboard nor reorder the line around it; and
numbers read from such text in ASCII digits only (str.isdigit() takes a superscript two, which
int() refuses, and int() refuses more than 4,300 digits)."""

import unicodedata

# kept as they are although str.isprintable() says no: spaces other than ' ' and private use
_SHOWN_AS_IS = ("Zs", "Co")


def for_terminal(text, limit=None):
    """TEXT (str, or bytes read as UTF-8) with everything a terminal would act on escaped; with
    LIMIT, at most that many characters of it are shown and the rest is counted."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "backslashreplace")
    text = str(text)
    more = 0
    if limit is not None and len(text) > limit:
        more = len(text) - limit
        text = text[:limit]
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() or unicodedata.category(ch) in _SHOWN_AS_IS
                       else _escaped(ord(ch)) for ch in text)
    if more:
        text += "... (%d more characters)" % more
    return text


def _escaped(code):
    if code < 0x100:
        return "\\x%02x" % code
    if code < 0x10000:
        return "\\u%04x" % code
    return "\\U%08x" % code


def number(text, most_digits):
    """The whole number TEXT spells in 1 to MOST_DIGITS of the digits 0-9, else None."""
    if 0 < len(text) <= most_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
