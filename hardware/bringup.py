# Bring-up test for a newly built board, run on the board from the laptop:
#     mpremote run hardware/bringup.py
# (after the firmware and /profile.json are on the board). It checks by eye what the wiring
# should give: a dot walks over the panel in reading order (far edge first, left to right;
# if it does not, fix the profile's panel origin/rotation/wiring), each element of the LED map
# lights in turn with its name on the display, then for 30 s every key press is printed, shown
# on the display, beeped and, for a point key, lit on its point. It stops the watchdog the
# board's app started, and starts none.

from bghal import profile as bprofile

STEP_MS = 12        # per pixel of the walk
ELEMENT_MS = 150    # per element of the LED map
KEY_SECONDS = 30


def walk(hal, frame):
    p = hal.profile["panel"]
    w = p["width"]
    for y in range(p["height"]):
        for x in range(w):
            i = 3 * (y * w + x)
            frame[i] = frame[i + 1] = frame[i + 2] = 255
            hal.show(frame)
            hal.sleep_ms(STEP_MS)
            frame[i] = frame[i + 1] = frame[i + 2] = 0


def light(frame, prof, name, colour):
    for i in bprofile.pixels(prof, name):
        frame[3 * i] = colour[0]
        frame[3 * i + 1] = colour[1]
        frame[3 * i + 2] = colour[2]


def clear(frame):
    for i in range(len(frame)):
        frame[i] = 0


def elements(hal, frame):
    prof = hal.profile
    colour = prof["colours"]["side0"]
    for name in bprofile.ELEMENTS:
        clear(frame)
        light(frame, prof, name, colour)
        hal.text(["LED map", name])
        hal.show(frame)
        hal.sleep_ms(ELEMENT_MS)
    clear(frame)
    hal.show(frame)


def keys(hal, frame, seconds):
    prof = hal.profile
    hal.text(["press keys", "for %d s" % seconds])
    print("press keys for %d s" % seconds)
    start = hal.ticks_ms()
    seen = []
    while (hal.ticks_ms() - start) < seconds * 1000:
        for name in hal.keys():
            seen.append(name)
            print("key", name)
            hal.text(["key", name])
            hal.beep(30)
            clear(frame)
            if name[0] == "P" and name[1:].isdigit():
                light(frame, prof, "p" + name[1:], prof["colours"]["source"])
            hal.show(frame)
        hal.sleep_ms(5)
    return seen


def run(hal, seconds=KEY_SECONDS):
    prof = hal.profile
    frame = bytearray(prof["panel"]["width"] * prof["panel"]["height"] * 3)
    print("bring-up:", prof["name"], "board", hal.board_id())
    hal.text(["bring-up", prof["name"], hal.board_id()])
    hal.beep(100)
    print("walk: a dot from the far left corner, left to right, row by row")
    walk(hal, frame)
    print("LED map: each element in turn, its name on the display")
    elements(hal, frame)
    seen = keys(hal, frame, seconds)
    clear(frame)
    hal.show(frame)
    hal.text(["bring-up done"])
    print("done; keys seen:", " ".join(seen) or "none")
    return seen


if __name__ == "__main__":
    import bghal
    board_profile = bprofile.load("/profile.json")
    if board_profile["hal"] == "rp2":
        from bghal.rp2 import stop_watchdog
        stop_watchdog()
    run(bghal.open(board_profile))
