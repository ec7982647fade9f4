# Typing a name and a country after a ranked win, with the logical keys of both input schemes
# (with four buttons, LEFT/RIGHT walk the cursor over the same keys and SELECT types the one under
# it; BACK is UNDO, a long SELECT is OK). The key map, shown on the panel:
#
#   letters page   P1-P24 = A-X, BAR = Y, OFF = Z, HINT = space, DOUBLE = digits page
#   digits page    P1-P10 = 0-9, P11 = '-', P12 = '.', HINT = space, DOUBLE = letters page
#   UNDO           remove the last character        OK   accept (the name, then the country)
#
# The last name and country entered are offered first. Pure logic: no drawing, no flash.

from bgcore.rankfields import NAME_MAX, check_name, check_country, tidy_name

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
DIGITS = "0123456789-."


def char_of(key, page):
    """The character a key types on a page (0 letters, 1 digits), or None."""
    if key == "HINT":
        return " "
    if page == 0:
        if key == "BAR":
            return "Y"
        if key == "OFF":
            return "Z"
    if key[0] == "P" and key[1:].isdigit():
        n = int(key[1:])
        table = LETTERS if page == 0 else DIGITS
        if 1 <= n <= len(table):
            return table[n - 1]
    return None


class Entry:
    """stage "name", then "country", then "done"; `text` is what is typed so far."""

    def __init__(self, last_name="", last_country=""):
        self.stage = "name"
        self.text = last_name
        self.page = 0
        self.name = ""
        self.country = ""
        self.last_country = last_country

    def key(self, key):
        """None when taken, else why not (nothing changed)."""
        if self.stage == "done":
            return "the name is entered"
        if key == "DOUBLE":
            if self.stage == "country":
                return "a country code is two letters"
            self.page = 1 - self.page
            return None
        if key == "UNDO":
            if not self.text:
                return "nothing to remove"
            self.text = self.text[:-1]
            return None
        if key == "OK":
            return self._accept()
        c = char_of(key, self.page)
        if c is None:
            return "not a character on this page (DOUBLE: %s)" % (
                "digits" if self.page == 0 else "letters")
        if self.stage == "country":
            if c == " ":
                return "a country code is two letters"
            if len(self.text) >= 2:
                return "a country code is two letters (UNDO removes one)"
        elif len(self.text) >= NAME_MAX:
            return "a name has at most %d characters" % NAME_MAX
        elif c == " " and (not self.text or self.text[-1] == " "):
            return "no space here"
        self.text += c
        return None

    def _accept(self):
        if self.stage == "name":
            try:
                self.name = check_name(tidy_name(self.text))
            except ValueError as e:
                return str(e)
            self.stage = "country"
            self.text = self.last_country
            self.page = 0
            return None
        try:
            self.country = check_country(self.text)
        except ValueError:
            return "%s is not a country code (ISO 3166-1)" % (self.text or "nothing")
        self.stage = "done"
        return None

    # the entry in progress, to resume it after a power cut
    def saved(self):
        return "%s %d %s|%s" % (self.stage, self.page, self.name or "-", self.text)

    @classmethod
    def restore(cls, text, last_country=""):
        e = cls("", last_country)
        try:
            head, typed = text.split("|", 1)
            stage, page, name = head.split(" ", 2)
            if stage not in ("name", "country") or page not in ("0", "1"):
                return None
            e.stage, e.page, e.text = stage, int(page), typed
            if stage == "country":
                e.name = check_name(name)
        except ValueError:
            return None
        return e
