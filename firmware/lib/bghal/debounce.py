# Debounce and long press for a set of keys, as plain data: the caller passes each key's raw
# reading and the time in ms (ticks_ms()); nothing here reads a clock or a pin. A key counts as
# pressed or released once its reading has stayed the same for `settle_ms`; held for `long_ms`
# it reports a long press once. A reading taken after the keys went unread for a while (a flash
# write held the CPU) may be dated back to the last reading before it (update's `since`): a
# tap that began during the stall then counts at once instead of being lost when it ends
# before another settle_ms of readings. Pure and MicroPython-compatible.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]
        return x

NONE = const(0)
PRESS = const(1)         # settled down
LONG = const(2)          # still down after long_ms (once per press)
RELEASE = const(3)       # settled up after a press shorter than long_ms
LONG_RELEASE = const(4)  # settled up after a long press

# ticks_ms() wraps at 2**30 on MicroPython ports; differences are taken modulo that
_TICKS_MASK = const(0x3FFFFFFF)

_DOWN = const(1)         # state bits
_PENDING = const(2)
_LONG_DONE = const(4)


def ticks_diff(now, then):
    return (now - then) & _TICKS_MASK


class Debouncer:
    def __init__(self, count, settle_ms=20, long_ms=700):
        self.count = count
        self.settle_ms = settle_ms
        self.long_ms = long_ms          # 0: no long presses
        self.state = bytearray(count)   # per key: _DOWN, _PENDING, _LONG_DONE bits (0: idle)
        self._changed = [0] * count     # when the reading started to differ from the state
        self._pressed = [0] * count     # when the current press started (its first touch)

    def idle(self):
        """True when no key is down or settling: a scan that reads every key up changes
        nothing, and update() need not be called for a key that reads up while its state is 0."""
        return not any(self.state)

    def is_down(self, key):
        """Whether key `key` is (debounced) down."""
        return bool(self.state[key] & _DOWN)

    def update(self, key, down, now, since=-1):
        """Feed key `key`'s raw reading `down` at time `now` (ms); returns NONE, PRESS, LONG,
        RELEASE or LONG_RELEASE. `since` (>= 0): the keys were last read at that time and not in
        between (a stall): a change first seen now is dated from then, the earliest moment it
        can have happened, so that a stall of settle_ms or more settles it at once."""
        st = self.state[key]
        if bool(st & _DOWN) == bool(down):
            st &= ~_PENDING                 # a bounce that came back: nothing changed
            if (st & _DOWN and self.long_ms and not st & _LONG_DONE
                    and ticks_diff(now, self._pressed[key]) >= self.long_ms):
                st |= _LONG_DONE
                self.state[key] = st
                return LONG
            self.state[key] = st
            return NONE
        if not st & _PENDING:
            st |= _PENDING
            self.state[key] = st
            self._changed[key] = now if since < 0 else since
        if ticks_diff(now, self._changed[key]) < self.settle_ms:
            return NONE
        if down:
            self.state[key] = _DOWN
            self._pressed[key] = self._changed[key]   # long_ms counts from the first touch
            return PRESS
        self.state[key] = 0
        return LONG_RELEASE if st & _LONG_DONE else RELEASE
