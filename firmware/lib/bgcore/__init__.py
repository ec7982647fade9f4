# bgcore: the backgammon rules and bot core shared by the board (MicroPython) and the laptop
# (CPython). `from bgcore import Position` is the entry point; see README.md for the API.

from bgcore.position import Position, Play, OFF, BAR, SINGLE, GAMMON, BACKGAMMON

__version__ = "0.1.0"
