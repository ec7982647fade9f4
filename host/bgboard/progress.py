"""A plain-text progress bar on standard error: redrawn in place on a terminal, one line when
done elsewhere (so logs stay readable)."""

import sys
import time


class Progress:
    def __init__(self, label, total, unit="B", out=None):
        self.label = label
        self.total = max(0, int(total))
        self.unit = unit
        self.out = out or sys.stderr
        self.tty = hasattr(self.out, "isatty") and self.out.isatty()
        self.done = 0
        self.t0 = time.monotonic()
        self.last = 0.0

    def _amount(self, n):
        if self.unit == "B":
            return "%.1f KB" % (n / 1024) if n >= 1024 else "%d B" % n
        return "%d %s" % (n, self.unit)

    def line(self):
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(frac * width)
        return "%s [%s%s] %3d%% %s/%s" % (self.label, "#" * fill, "." * (width - fill),
                                          int(frac * 100), self._amount(self.done),
                                          self._amount(self.total))

    def update(self, done):
        self.done = min(done, self.total) if self.total else done
        now = time.monotonic()
        if self.tty and (now - self.last > 0.1 or self.done >= self.total):
            self.last = now
            self.out.write("\r" + self.line() + "\x1b[K")
            self.out.flush()

    def add(self, n):
        self.update(self.done + n)

    def finish(self, note=""):
        secs = time.monotonic() - self.t0
        text = self.line() + " in %.1f s%s" % (secs, (" " + note) if note else "")
        self.out.write(("\r" + text + "\x1b[K\n") if self.tty else text + "\n")
        self.out.flush()
