"""Progress bars for a terminal, plain lines for a log: where stderr is not a terminal (a redirected
log, a batch job's output file) tqdm's redraws, and the cursor movements of nested bars, would be
escape sequences in the file."""
from __future__ import annotations

import sys
import time

from tqdm import tqdm

PLAIN_EVERY_S = 60.0  # how often a plain progress line is written


def progress_bar(enabled: bool, **kw):
    """A context manager with update(n): tqdm's bar on a terminal, PlainProgress otherwise; `kw`
    are tqdm's (total, initial, desc, unit, leave, ...)."""
    if not enabled:
        return tqdm(disable=True, **kw)
    if sys.stderr.isatty():
        return tqdm(dynamic_ncols=True, **kw)
    return PlainProgress(**kw)


class PlainProgress:
    """One line every `every` seconds, and a last one at the end for a bar that is kept."""

    def __init__(self, total=None, initial: int = 0, desc: str = "", leave: bool = True,
                 every: float = PLAIN_EVERY_S, **_tqdm_options):
        self.total, self.n, self.desc, self.leave, self.every = total, initial, desc, leave, every
        self.start = self.last = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line()

    def _line(self) -> None:
        done = f"{self.n:,}/{self.total:,} ({self.n / self.total:.0%})" if self.total else f"{self.n:,}"
        print(f"{self.desc}: {done}, {time.monotonic() - self.start:.0f} s", file=sys.stderr, flush=True)

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, exc_type, *_) -> None:
        if self.leave and exc_type is None:
            self._line()
