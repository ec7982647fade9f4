# Input: the HAL's key names (already debounced; a long press arrives as the key the profile's
# input.long maps it to) become the app's logical keys. With a key per point ("matrix") they are
# the same names. With the four-button scheme a cursor walks over the points: LEFT and RIGHT move
# it, SELECT presses the point under it, BACK is UNDO (long presses: profile's input.long, e.g.
# SELECT -> OK, BACK -> MENU).

RING = tuple("P%d" % n for n in range(1, 25)) + ("BAR", "OFF", "DOUBLE", "HINT")


class Input:
    def __init__(self, profile):
        self.cursor = -1 if profile["input"].get("style") != "buttons" else 0

    def key(self, name):
        """The logical key for a pressed key name, or None when it only moved the cursor."""
        if self.cursor < 0:
            return name
        if name == "LEFT":
            self.cursor = (self.cursor - 1) % len(RING)
            return None
        if name == "RIGHT":
            self.cursor = (self.cursor + 1) % len(RING)
            return None
        if name == "SELECT":
            return RING[self.cursor]
        if name == "BACK":
            return "UNDO"
        return name

    def at(self):
        """The key under the cursor (None without a cursor)."""
        return RING[self.cursor] if self.cursor >= 0 else None
