# Loaded by app_drive.py's FOUR command (kept apart so that other drives' heap figures hold none
# of it): a logical key pressed as a person on a four-button board does, by protocol lines only.
from bgapp.input import ring, _RING


def presser(app, hal, four):
    def link_key(line):
        """One KEY line over the link; the refusal when refused, else None."""
        four[0] += 1
        app.link.request(line)
        out = b"".join(hal.out).decode()
        hal.out = []
        for ln in out.splitlines():
            if ln.startswith("NO KEY "):
                return ln
            if ln.startswith("OK KEY "):
                return None
        return "no answer to " + line + ": " + out

    def press(key):
        if key == "OK":
            return link_key("KEY SELECT long")
        if key == "UNDO":
            return link_key("KEY BACK")
        target = 0
        while ring(target) != key:
            target += 1
        inp = app.input
        while inp.cursor != target:
            right = (target - inp.cursor) % _RING <= _RING // 2
            why = link_key("KEY RIGHT" if right else "KEY LEFT")
            if why:
                return why
        return link_key("KEY SELECT")
    return press
