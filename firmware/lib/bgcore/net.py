# The bot's evaluator: a network of two hidden layers in integer arithmetic, the same on
# MicroPython and CPython. It scores a position seen from the side that has just moved (the other
# side on roll). Inputs are one-hot rows, one per occupied place: (side, point, count level), the
# bar count and the borne-off count; then, as the weights say, a row for how many rolls hit a
# blot (SHOTS) and the contact rows (CONTACT: each side's back checker's escapes and longest
# prime). The first hidden layer is the sum of those rows, so a play is scored by adding and
# removing the few rows it changes (the parent's sum is reused). Weights live in bgcore.botnet
# (and bgcore.racenet), written by tools/train_bot.py.

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from array import array

from bgcore.position import rearmost

LEVELS = 7               # count levels per point: 1 .. LEVELS-1, then LEVELS or more
SHOTS = 0                # 1: rows for how many rolls hit a blot of the side that just moved
CONTACT = 0              # 1: rows for each side's back checker's escapes and longest prime
_BAR_ROW = 336           # 2 sides * 24 points * LEVELS
_OFF_ROW = 344           # + 2 sides * 4 bar levels
_SHOT_ROW = 374          # + 2 sides * 15 borne-off counts
_ESC_ROW = 374           # + 9 shot-count buckets (1-4, 5-8, .. 33-36) when SHOTS
ROWS = 374               # + 30 contact rows when CONTACT: the side on roll's back checker's
                         # escapes (10 buckets of 4 rolls), the mover's back checker's (10), the
                         # mover's longest prime (2-6+ points: 5), the side on roll's (5)


def configure(levels, shots=0, contact=0):
    """Set the input layout (the trained weights say which)."""
    global LEVELS, SHOTS, CONTACT, _BAR_ROW, _OFF_ROW, _SHOT_ROW, _ESC_ROW, ROWS
    LEVELS = levels
    SHOTS = shots
    CONTACT = contact
    _BAR_ROW = 48 * levels
    _OFF_ROW = _BAR_ROW + 8
    _SHOT_ROW = _OFF_ROW + 30
    _ESC_ROW = _SHOT_ROW + (9 if shots else 0)
    ROWS = _ESC_ROW + (30 if contact else 0)


# For each of the 21 rolls: the distances it can hit at (both dice, their sum; a double's
# multiples), as a bit mask, and how many of the 36 rolls it stands for. Blocking is ignored.
def _roll_masks():
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            if a == b:
                out.append((1 << a | 1 << 2 * a | 1 << 3 * a | 1 << 4 * a, 1))
            else:
                out.append((1 << a | 1 << b | 1 << a + b, 2))
    return tuple(out)


_ROLLS = _roll_masks()


def shots(blots, them):
    """How many of the 36 rolls of the side on roll hit a blot of the side that just moved.
    `blots`: bit p for each of the mover's points p (1-24) holding one checker; `them`: bit q
    for each point q (1-24, 25 = bar) where the side on roll has checkers, in its numbering."""
    if not blots:
        return 0
    d = 0
    for p in range(1, 25):
        if blots >> p & 1:
            d |= them >> (25 - p)       # the distances from its checkers behind the blot
    n = 0
    for mask, weight in _ROLLS:
        if d & mask:
            n += weight
    return n


def escapes(blocks):
    """How many of the 36 rolls move a checker by its dice's whole total past `blocks` (bit i:
    the point i + 1 pips ahead is held by two or more opposing checkers; 12 bits), as GNU
    Backgammon counts a back checker's escapes."""
    n = 0
    for a in range(1, 7):
        for b in range(1, a + 1):
            if not (blocks >> (a + b - 1) & 1 or blocks >> (a - 1) & 1 and blocks >> (b - 1) & 1):
                n += 1 if a == b else 2
    return n


def prime(made):
    """The longest run of consecutive set bits of `made` (a side's points held by two or more)."""
    n = 0
    while made:
        made &= made >> 1
        n += 1
    return n


def contact_rows(mine, made_them, back_them, out):
    """Appends the contact rows a play changes: the escapes of the side on roll's back checker
    (on its point `back_them`, 25 = the bar, 0 = none left) past the mover's points, those of
    the mover's back checker past `made_them` (bit s: the side on roll holds its point s), and
    the mover's longest prime. `mine`: the mover's 26 counts (off, points 1-24, bar)."""
    made, back = held(mine, 0)
    out.append(_ESC_ROW + (escapes(made >> (26 - back_them) & 0xFFF) >> 2 if back_them else 9))
    out.append(_ESC_ROW + 10 + (escapes(made_them >> (26 - back) & 0xFFF) >> 2 if back else 9))
    n = prime(made)
    if n > 1:
        out.append(_ESC_ROW + 18 + (n if n < 6 else 6))


def held(counts, base):
    """(made, back) of the side whose 26 counts (off, points 1-24, bar) start at counts[base]
    (base 26: the side on roll of a 52-byte position): its points held by two or more as bits,
    its back checker's place (25 = the bar; 0: none left)."""
    made = 0
    back = 0
    for p in range(1, 26):
        v = counts[base + p]
        if v:
            back = p
            if v > 1 and p < 25:
                made |= 1 << p
    return made, back


def shot_row(n):
    """The input row for `n` hitting rolls (None for none)."""
    if not n:
        return None
    return _SHOT_ROW + (n - 1) // 4


def race(raw):
    """True when the sides of a 52-byte position can no longer hit each other: each side's
    rearmost checker has passed the other's."""
    a, b = rearmost(raw)
    return a + b <= 25


def masks(raw):
    """(blots, them) for shots() from a 52-byte position (first half = just moved)."""
    blots = 0
    them = 0
    for p in range(1, 25):
        if raw[p] == 1:
            blots |= 1 << p
        if raw[26 + p]:
            them |= 1 << p
    if raw[51]:
        them |= 1 << 25
    return blots, them


S1 = const(128)          # hidden scale: weight w is stored as round(w * S1) + 128 in a byte
S_OUT = const(32768)     # output scale: S1 * 256
OUT_EQUITY = const(5)    # outputs 0-4: logits of win, win gammon, win bg, lose gammon, lose bg
                         # (cumulative, as gnubg); output 5: cubeless equity


def row(side, place, n):
    """The input row of `n` >= 1 checkers of `side` (0 = just moved, 1 = on roll) on `place`
    in that side's numbering (0 = borne off, 1-24 points, 25 = bar)."""
    if place == 0:
        return _OFF_ROW + side * 15 + (n if n < 15 else 15) - 1
    if place == 25:
        return _BAR_ROW + side * 4 + (n if n < 4 else 4) - 1
    L = LEVELS
    return (side * 24 + place - 1) * L + (n if n < L else L) - 1


def rows(raw, with_shots=True):
    """Active input rows of a 52-byte position (first half = the side that just moved); without
    those a play sets itself (the shot row, the contact rows but the side on roll's prime) when
    `with_shots` is false."""
    out = []
    for side in (0, 1):
        base = side * 26
        for place in range(26):
            n = raw[base + place]
            if n:
                out.append(row(side, place, n))
    return more_rows(raw, with_shots, out)


def more_rows(raw, with_shots, out):
    """Appends to `out` the rows of `raw` beyond its checkers' places (see rows)."""
    if SHOTS and with_shots:
        r = shot_row(shots(*masks(raw)))
        if r is not None:
            out.append(r)
    if CONTACT:
        made, back = held(raw, 26)
        n = prime(made)
        if n > 1:
            out.append(_ESC_ROW + 23 + (n if n < 6 else 6))
        if with_shots:
            contact_rows(raw, made, back, out)
    return out


# The weights. tools/train_bot.py writes them as modules: bgcore.botnet (the main network) and
# bgcore.racenet (the network for races, trained on race positions only; the same shape). The
# laptop and a library run from its sources import those. A board gets them as one data file
# instead, bgcore/nets.bin beside this module (bgcore.netfile): there one network's tables are
# made at import and Net.read_network() fills them with either network. On an RP2040 the first
# layer, the largest table, is read where the file lies in flash (bgcore.netflash: its rows'
# addresses, which the native loops take in its place); a file not found whole there is copied
# into the heap as elsewhere.
NETS_MAGIC = b"bgnets1\n"   # the first bytes of a board's network file (its header: 12 bytes)
# A board keeps a second layer of PACKED units (16) in one table as bgcore.bot's native equity
# reads it: first-layer unit j's weights to the 16 units at 16 * j .. 16 * j + 15, each plus 32768
# (unsigned: the Thumb code has no signed halfword load). Net.w2_packed says so; the laptop's
# networks keep the modules' order (unit k's weights at k * HIDDEN) and the equity a packed copy.
PACKED = const(16)
FILE = None             # the path of the board's network file, when this library has one
_tabs = None            # the tables its networks are read into (w1, b1, w2, b2, wo, bo, sig)
_sizes = None           # their sizes in bytes
_FLASH = None           # on an RP2040: (where the file lies in flash, bgcore.netflash.locate's
                        # blocks; the flash's address): the first layer is read there, through
_rows = None            # the address of each of its rows (int32; the rows split between two
_spill = None           # blocks are copied into _spill), instead of from a copy in the heap
_file_size = 0


def flash_saves(h, size):
    """The heap an RP2040 saves by reading the first layer of a network file of `size` bytes (h
    units) in flash: the layer's copy, less what it keeps instead (its rows' addresses, and the
    rows split between two of littlefs's 4096-byte blocks: at most one a block, and a block
    holds a little less than 4096 of the file's bytes)."""
    return ROWS * h - 4 * ROWS - h * (((size + 4095) >> 12) + 1)


def heap_beyond_chip():
    """The heap this port holds for the first layer that an RP2040 reading it in flash does not
    (flash_saves; 0 on the chip, and where no network file is read). The unix port's heap checks
    stand in for the chip's: they give it that much more heap and count it out of their peaks."""
    return flash_saves(len(_tabs[0]) // ROWS, _file_size) if _tabs and _tabs[0] else 0


def _board_file():
    # (path, first bytes, size) of the network file beside this module, or None (a library's
    # sources, the laptop; a module frozen into the firmware has no __file__)
    try:
        path = __file__
        path = path[:max(path.rfind("/"), path.rfind("\\")) + 1] + "nets.bin"
        with open(path, "rb") as f:
            return path, f.read(12), f.seek(0, 2)
    except (NameError, OSError):
        return None


def _tables(h, h2, flash):
    # a network's tables, zero: its first layer first (the largest block, before more code
    # loads; none where it is read in flash), the rest made from one block of zeros (no garbage
    # between them); the second layer's weights PACKED where it has 16 units
    global _sizes
    m = h2 or h
    n = _sizes = (ROWS * h, 2 * h, 2 * h2 * h, 4 * h2, 12 * m, 24, 258)
    w1 = None if flash else bytearray(n[0])
    z = memoryview(bytes(max(n[1:]) >> 1))
    return [w1, array("h", z[:n[1] >> 1]), array("H" if h2 == PACKED else "h", z[:n[2] >> 1]),
            array("i", z[:n[3] >> 2]), array("h", z[:n[4] >> 1]), array("i", z[:n[5] >> 2]),
            array("h", z[:n[6] >> 1])]


def _in_flash(path, size):
    # on an RP2040 (MicroPython's rp2 port, whose flash is mapped into memory): where the network
    # file lies in flash (bgcore.netflash), with the flash's address; else None (elsewhere, or an
    # rp2 firmware whose Flash gives no buffer: the heap copy serves)
    try:
        import rp2
        from uctypes import addressof
        flash = rp2.Flash()     # (a read-only buffer of the filesystem's flash: the stubs omit it)
        view = memoryview(flash)  # type: ignore[arg-type]
    except Exception:
        return None
    from bgcore import netflash
    with open(path, "rb") as f:
        blocks = netflash.locate(view, f, size)
    return (blocks, addressof(flash)) if blocks else None


_found = _board_file()
if _found:
    FILE, _head, _file_size = _found
    if _head[:8] != NETS_MAGIC or len(_head) < 12:
        raise ValueError("%s is not a network file (flash the firmware again)" % FILE)
    configure(_head[10], _head[11] & 1, _head[11] >> 1)
    _FLASH = _in_flash(FILE, _file_size)
    _tabs = _tables(_head[8], _head[9], _FLASH)
    if _file_size != 12 + 2 * sum(_sizes):       # (both networks, whole)
        raise ValueError("%s is %s (flash the firmware again)"
                         % (FILE, "cut short" if _file_size < 12 + 2 * sum(_sizes) else
                            "not a network file"))
    if _FLASH:      # the first layer's row addresses, and the rows split between two blocks
        _rows = array("i", bytes(4 * ROWS))
        _spill = bytearray(_head[8] * len(_FLASH[0]))
    del _head
else:
    try:
        from bgcore import botnet as _w
        configure(_w.LEVELS, getattr(_w, "SHOTS", 0), getattr(_w, "CONTACT", 0))
    except ImportError:         # not trained yet: tools/train_bot.py configures it
        pass
del _found, _board_file, _tables, _in_flash     # (needed at import only: their code leaves
                                                # the heap)


# The network's inner loops in native code where MicroPython has a native emitter (Thumb on the
# RP2040, x64 on the unix port), compiled from bgcore.net_native's source when this module is
# imported (the text then leaves the heap): the library stays bytecode any MicroPython loads;
# CPython runs the Python loops below (with the host package: bgcore.net_cpython's). Integer
# for integer (tests/test_bot.py plays the games move for move on CPython and MicroPython):
# values stay far inside 31 bits, the int16 weights are read unsigned and sign-corrected, and
# int32 sums are only stored (as two's complement).
_native = []      # [add, hidden, dots, load, dots16] once compiled; [None] * 5 without a
                  # native emitter


def _natives():
    if not _native:
        from bgcore.native import load
        _native.extend(load("net_native", "add", "hidden", "dots", "load", "dots16")
                       or [None] * 5)
    return _native


_natives()      # at import, while the heap is unbroken (the compiler's garbage leaves no holes
                # between the network's tables)


class Net:
    """A trained network: `weights`, a module tools/train_bot.py wrote (by default
    bgcore.botnet; see bgcore.netmodules), or on a board the main network of its network file.
    An `acc` list holds the hidden pre-activations as offset-binary sums, with the number of
    rows added at index HIDDEN; callers keep and reuse their own."""

    def __init__(self, weights=None):
        if weights is None and FILE:
            # on a board: the tables made at import, filled from its network file
            self.w1, self.b1, self.w2, self.b2, self.wo, self.bo, self.sig = _tabs
            self.h = len(self.b1)
            self.h2 = len(self.b2)
            self.w2_packed = self.h2 == PACKED
            self.rows = _rows       # in flash: the first layer's rows' addresses (w1 None)
            self.read_network(0)
        else:                   # the laptop, a library run from its sources: a module
            from bgcore import netmodules
            netmodules.from_module(self, weights)
            self.rows = None
            self.w2_packed = False
        self._h1 = array("i", [0] * self.h)
        self._h2 = array("i", [0] * self.h2)
        self._sums = array("i", [0] * max(self.h2, 6))
        self._add, self._hidden, self._dots, self._load, self._dots16 = _natives()
        # for the native load: hidden size, LEVELS, the first bar and borne-off rows, 1 where
        # the rows are read through self.rows
        self._dims = array("i", [self.h, LEVELS, _BAR_ROW, _OFF_ROW,
                                 1 if self.w1 is None else 0])
        self._more = []         # the native load's rows beyond the places (more_rows), reused

    def read_network(self, index):
        """Fill this network's tables, in place, with network `index` (0 main, 1 race) of the
        board's network file (where the first layer is read in flash: its rows' addresses)."""
        from bgcore import netfile      # (for this moment only: it drops itself)
        first = 12 + index * sum(_sizes)
        netfile.read(_tabs, FILE, first, _sizes, self.h2 if self.w2_packed else 0)
        if _FLASH:
            from bgcore import netflash
            from uctypes import addressof
            with open(FILE, "rb") as f:
                netflash.rows(_FLASH[0], _FLASH[1], first, self.h, _rows, _spill,
                              addressof(_spill), f)

    def row_addresses(self):
        """The first layer's rows' addresses (int32, one a row; the chip's Thumb scan reads
        them): those in flash, or made once for the heap's copy."""
        if self.rows is None:
            from uctypes import addressof
            a = addressof(self.w1)
            h = self.h
            self.rows = array("i", bytes(4 * ROWS))
            for r in range(ROWS):
                self.rows[r] = a + r * h
        return self.rows

    def new_acc(self):
        return array("i", [0] * (self.h + 1))

    def add(self, acc, r):
        w = self.w1
        h = self.h
        o = r * h
        if self._add:
            if w is None:                       # in flash: the row at its address
                w, o = 0, self.rows[r]
            self._add(acc, w, o, h, 1)
            return
        for j in range(h):
            acc[j] += w[o + j]
        acc[h] += 1

    def sub(self, acc, r):
        w = self.w1
        h = self.h
        o = r * h
        if self._add:
            if w is None:
                w, o = 0, self.rows[r]
            self._add(acc, w, o, h, -1)
            return
        for j in range(h):
            acc[j] -= w[o + j]
        acc[h] -= 1

    def load(self, acc, raw, shot_rows=True):
        """acc = the sums for the 52-byte position `raw` (first half = just moved); without
        the shot row when `shot_rows` is false (a parent whose plays add their own)."""
        if self._load:
            w = self.w1
            if w is None:
                self._load(acc, raw, 0, self._dims, self.rows)
            else:
                self._load(acc, raw, w, self._dims, self._dims)
            if SHOTS or CONTACT:
                more = self._more
                del more[:]
                for r in more_rows(raw, shot_rows, more):
                    self.add(acc, r)
            return
        for j in range(self.h + 1):
            acc[j] = 0
        for r in rows(raw, shot_rows):
            self.add(acc, r)

    def _top(self, acc):
        # the last hidden layer's activations, 0..S1 (S1 = 1.0)
        h = self.h
        b1 = self.b1
        h1 = self._h1
        if self._hidden:
            self._hidden(acc, b1, h1, h)
        else:
            off = 128 * acc[h]
            for j in range(h):
                x = acc[j] - off + b1[j]
                h1[j] = 0 if x < 0 else (x if x < S1 else S1)
        if not self.h2:
            return h1
        w2 = self.w2
        b2 = self.b2
        h2 = self._h2
        if self.w2_packed:
            sums = self._sums
            if self._dots16:
                self._dots16(h1, w2, sums, h)
            else:
                for k in range(PACKED):
                    sums[k] = 0
                for j in range(h):
                    v = h1[j]
                    if v:
                        o = PACKED * j
                        for k in range(PACKED):
                            sums[k] += (w2[o + k] - 32768) * v
            for k in range(PACKED):
                s = (b2[k] + sums[k]) >> 8
                h2[k] = 0 if s < 0 else (s if s < S1 else S1)
            return h2
        if self._dots:
            sums = self._sums
            self._dots(h1, w2, 0, sums, h, self.h2)
            for k in range(self.h2):
                s = (b2[k] + sums[k]) >> 8
                h2[k] = 0 if s < 0 else (s if s < S1 else S1)
            return h2
        o = 0
        for k in range(self.h2):
            s = b2[k]
            for j in range(h):
                v = h1[j]
                if v:
                    s += w2[o + j] * v
            o += h
            s >>= 8
            h2[k] = 0 if s < 0 else (s if s < S1 else S1)
        return h2

    def _output(self, top, k):
        n = len(top)
        w = self.wo
        o = k * n
        s = self.bo[k]
        if self._dots:
            sums = self._sums
            self._dots(top, w, o, sums, n, 1)
            return s + sums[0]
        for j in range(n):
            s += w[o + j] * top[j]
        return s

    def equity(self, acc):
        """Cubeless equity of the side that just moved, in units of 1/S_OUT."""
        return self._output(self._top(acc), OUT_EQUITY)

    def probabilities(self, acc, shift=None):
        """(win, win gammon, win bg, lose gammon, lose bg) of the side that just moved, each in
        units of 1/32768, cumulative as gnubg gives them. `shift`: five numbers (1/S_OUT) added
        to the outputs before the sigmoid (a correction for a kind of position)."""
        top = self._top(acc)
        out = []
        for k in range(5):
            out.append(self.sigmoid(self._output(top, k) + (shift[k] if shift else 0)))
        w = out[0]
        # keep them consistent: gammons within wins, backgammons within gammons
        out[1] = min(out[1], w)
        out[2] = min(out[2], out[1])
        out[3] = min(out[3], 32768 - w)
        out[4] = min(out[4], out[3])
        return out

    def sigmoid(self, x):
        # table of 129 values at steps of 1/8 over -8..8, linear in between; x in 1/S_OUT
        i = x >> 12                     # in 1/8
        if i < -64:
            return self.sig[0]
        if i >= 64:
            return self.sig[128]
        f = x & 4095
        a = self.sig[i + 64]
        b = self.sig[i + 65]
        return a + ((b - a) * f >> 12)
