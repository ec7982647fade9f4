# Run by MicroPython: the core imports and answers the simplest questions.
from bgcore import Position

p = Position.initial()
print(p.id())
print(len(p.plays(3, 1)))
print(p.parse_play("6/5 8/5", 1, 3))
print(p.apply(p.parse_play("8/5 6/5", 3, 1)).id())
try:
    p.plays(0, 7)
except ValueError:
    print("ValueError")
