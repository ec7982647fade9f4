# Input: the HAL's key names (already debounced; a long press arrives as the key the profile's
# input.long maps it to) become the app's logical keys. With a key per point ("matrix") they are
# the same names. With the four-button scheme a cursor walks over the points: LEFT and RIGHT move
# it, SELECT presses the point under it, BACK is UNDO (long presses: profile's input.long, e.g.
# SELECT -> OK, BACK -> MENU). A key over the link (`KEY name [long]`) comes through remote(): the
# HAL's long-press mapping, then the same cursor layer.

_EXTRA = ("BAR", "OFF", "DOUBLE", "HINT")
_RING = 28                # points P1-P24, then _EXTRA


def ring(i):
    """The key at place i of the cursor's ring (names are made when asked for: no table in RAM)."""
    return "P%d" % (i + 1) if i < 24 else _EXTRA[i - 24]


class Input:
    def __init__(self, profile):
        inp = profile["input"]
        self.cursor = -1 if inp.get("style") != "buttons" else 0
        self.long = inp.get("long") or {}     # what a long press of a key gives (as the HAL's)

    def remote(self, name, long=False):
        """A key pressed over the link: mapped as the HAL maps a long press (a key without a long
        meaning gives itself), then as a physical key is (None: it only moved the cursor)."""
        if long:
            name = self.long.get(name, name)
        return self.key(name)

    def key(self, name):
        """The logical key for a pressed key name, or None when it only moved the cursor."""
        if self.cursor < 0:
            return name
        if name == "LEFT":
            self.cursor = (self.cursor - 1) % _RING
            return None
        if name == "RIGHT":
            self.cursor = (self.cursor + 1) % _RING
            return None
        if name == "SELECT":
            return ring(self.cursor)
        if name == "BACK":
            return "UNDO"
        return name

    def at(self):
        """The key under the cursor (None without a cursor)."""
        return ring(self.cursor) if self.cursor >= 0 else None
