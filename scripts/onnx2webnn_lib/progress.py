"""Progress of a long conversion on stderr, the way `webnn`'s C++ tools show it
(tools/webnn/progress.cc): nothing during the first second, then a bar redrawn
in place on a terminal, or a line every 5 s otherwise (logs, CI)."""
import sys
import time

QUIET_S = 1.0
REDRAW_S = 0.1
LINE_EVERY_S = 5.0
BAR_WIDTH = 30


class Progress:
    def __init__(self, label, out=None):
        self.label = label
        self.out = out or sys.stderr
        self.tty = self.out.isatty()
        self.start = time.monotonic()
        self.last = None
        self.phase, self.done, self.total, self.unit = "", 0, 0, ""

    def update(self, phase, done=0, total=0, unit=""):
        self.phase, self.done, self.total, self.unit = phase, done, total, unit
        now = time.monotonic()
        if now - self.start < QUIET_S:
            return
        if self.last is not None and now - self.last < (REDRAW_S if self.tty else LINE_EVERY_S):
            return
        self._show(False)

    def finish(self):
        if self.last is not None:
            self._show(True)

    def _show(self, final):
        self.last = time.monotonic()
        seconds = self.last - self.start
        amount = ""
        if self.total:
            fraction = min(1.0, self.done / self.total)
            amount = f"{100 * fraction:3.0f}% {self.done}/{self.total} {self.unit}".rstrip()
            if self.tty:
                filled = int(fraction * BAR_WIDTH)
                amount = "[" + "=" * filled + " " * (BAR_WIDTH - filled) + "] " + amount
        phase = f" ({self.phase})" if self.phase else ""
        if self.tty:
            self.out.write(f"\r{self.label} {amount}{phase} {seconds:.1f} s\x1b[K" + ("\n" if final else ""))
        else:
            self.out.write(f"{self.label}: {amount}{phase} after {seconds:.1f} s" + (", done" if final else "") + "\n")
        self.out.flush()


class NoProgress:
    def update(self, *args, **kwargs):
        pass

    def finish(self):
        pass
