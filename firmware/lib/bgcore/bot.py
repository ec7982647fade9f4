# The computer opponent: chooses plays and cube actions for levels 1-6.
# (Work in progress: the trained network replaces the rule-of-thumb evaluator.)

from bgcore import heuristic


class Bot:
    def __init__(self, level, seed=None):
        if not (isinstance(level, int) and 1 <= level <= 6):
            raise ValueError("bot level is 1 to 6, not %r" % (level,))
        self.level = level
        self.seed = seed

    def choose(self, pos, d1, d2):
        """One of pos.plays(d1, d2) (None when the roll cannot be played)."""
        return heuristic.choose(pos, d1, d2)

    def hint(self, pos, d1, d2):
        """The strongest play for the side on roll, whatever the level."""
        return heuristic.choose(pos, d1, d2)

    def wants_double(self, match):
        """At the start of the bot's turn (match.phase 'turn', cube available): double?"""
        return heuristic.wants_double(match.pos)

    def takes(self, match):
        """When doubled (match.phase 'doubled'): take?"""
        return heuristic.takes(match.pos)
