"""`bgboard watch`: a connected board's LED panel, text display and game events, live in the
terminal. It turns WATCH on and draws the frames with the sim's screen, bgboard.screen (the
same Panel.encode a Pico runs: brightness and current limit included; a colour legend; the
game's events in words); it only looks, it presses no key (--demo N
asks the board to play N bot games, and stops when they end). Ctrl-C or q stops it (WATCH is
turned off again)."""

import os
import select
import sys
import termios
import time
import tty

from bgboard import names
from bgboard.devices import find_port
from bgboard.link import Board, LinkError, parse_fields
from bgboard.safetext import for_terminal
from bgboard.screen import Screen, load_profile


def run(port=None, once=False, seconds=None, out=None, demo=0):
    out = out or sys.stdout
    port = find_port(port)
    b = Board(port)
    try:
        info = b.hello()
        notes = []
        try:        # only a profile the project ships, by name (never a path from the board)
            prof = load_profile(names.profile_name(info.get("profile", "reference")))
        except (OSError, ValueError, KeyError, TypeError) as e:
            prof = load_profile("reference")
            notes += ["drawn as the reference board:", "  " + for_terminal(e, 200)]
        screen = Screen(prof, out, title="bgboard watch - %s, a %s board" % (
            for_terminal(port, 40), prof.get("name", "")))
        screen.keys = ["watching %s: it only looks (no key is pressed)" % for_terminal(port, 60),
                       "q or Ctrl-C stops watching"] + notes
        screen.status = "fw %s  board %s" % (for_terminal(info.get("fw"), 40),
                                             for_terminal(info.get("board"), 40))
        try:
            named(screen, for_terminal(b.request("STATE"), 2000))   # the names, for the legend
        except LinkError:
            pass
        if b.request("WATCH on") != "OK WATCH on":
            raise LinkError("the board did not turn WATCH on")
        if demo:
            ans = b.request("DEMO %d" % demo)
            if not ans.startswith("OK DEMO"):
                raise LinkError("the board did not start the demo: %s" % ans)
        fd = sys.stdin.fileno() if sys.stdin and sys.stdin.isatty() else None
        old = termios.tcgetattr(fd) if fd is not None else None
        if fd is not None:
            tty.setcbreak(fd)
        out.write("\x1b[2J")
        frames = 0
        first = None
        ended = False
        t0 = time.monotonic()
        pending = list(b.events)
        try:
            while True:
                dirty = False
                for line in pending:
                    line = for_terminal(line, 2000)    # nothing a board sends drives the terminal
                    try:
                        shown = screen.show(line)
                    except ValueError:                 # a damaged !LED frame: not drawn
                        shown = "bad"
                    if shown == "led":
                        frames += 1
                    elif shown == "text":
                        # the colour legend follows the board's screen: the menu's or a game's
                        screen.view = "menu" if screen.text[0:1] and \
                            screen.text[0].startswith("MENU") else "play"
                    elif shown == "event" and line.startswith("!EV GAME "):
                        b.send("STATE")               # a new game: the players' names
                    elif line.startswith("STATE "):
                        named(screen, line)
                    elif not shown and line.startswith(("!NO ", "!DEMO", "!ERROR")):
                        screen.events.add(line[1:])
                        if demo and line.startswith("!DEMO END"):
                            ended = True
                    dirty = True
                pending = []
                if dirty:
                    screen.draw()
                if ended:
                    break
                if once and frames:
                    if first is None:
                        first = time.monotonic()
                    elif time.monotonic() - first > 0.3:    # the frame's text and events too
                        break
                if seconds is not None and time.monotonic() - t0 > seconds:
                    break
                watch = [b.fileno()] + ([fd] if fd is not None else [])
                r, _, _ = select.select(watch, [], [], 0 if b.has_line() else 0.2)
                if fd is not None and fd in r and os.read(fd, 16)[:1] in (b"q", b"Q"):
                    break
                pending = b.lines(0)
        finally:
            if old is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, old)
            try:
                b.send("WATCH off")
            except LinkError:
                pass
        out.write("\n")
        return 0
    finally:
        b.close()


def named(screen, state):
    """The players' names from a STATE answer, for the screen's colour legend and events."""
    if state.startswith("STATE "):
        fields = parse_fields(state.split()[1:])
        if "players" in fields:
            screen.events.set_names(*(fields["players"].split(",", 1) + ["?"])[:2])
