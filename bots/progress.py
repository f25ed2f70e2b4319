"""Progress of a long run (a tournament, a bench, a file of deals to solve): a tqdm
bar on a terminal (done, rate, ETA and, for tournaments, the current leader),
plain periodic lines otherwise, so no long run is silent."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from tqdm import tqdm


class Progress:
    """Counts what is done out of ``total``: ``update(done)`` with the count so
    far, or ``advance(n)`` by a step.  A finished count closes the bar."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        label: str = "games",
        *,
        every: float = 5.0,
        enabled: bool = True,
        initial: int = 0,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.every = every  # seconds between plain lines
        self.enabled = enabled
        # Done before this run (a resumed tournament's): counted, but not in the rate.
        self.initial = initial
        self.done = initial
        self.start = time.monotonic()
        self.last_line = self.start
        self.bar: tqdm[None] | None = None
        if enabled and self.stream.isatty():
            self.bar = tqdm(
                total=total,
                initial=initial,
                unit=f" {label.rstrip('s')}",
                file=self.stream,
                dynamic_ncols=True,
            )
        elif enabled:
            before = f" ({initial} done before)" if initial else ""
            self._line(f"started: {total} {label} to play{before}")

    def advance(self, n: int = 1, leader: str | None = None) -> None:
        self.update(self.done + n, leader)

    def update(self, done: int, leader: str | None = None) -> None:
        step, self.done = done - self.done, done
        if not self.enabled:
            return
        if self.bar is not None:
            if leader:
                self.bar.set_postfix_str(f"leader {leader}", refresh=False)
            self.bar.update(step)
            if done >= self.total:
                self.close()
            return
        now = time.monotonic()
        if self.done < self.total and now - self.last_line < self.every:
            return
        self.last_line = now
        elapsed = now - self.start
        rate = (self.done - self.initial) / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        pct = 100.0 * self.done / max(1, self.total)
        text = f"{self.done}/{self.total} {self.label} ({pct:.0f}%), {rate:.2f}/s, eta {eta:.0f}s"
        self._line(text + (f", leader {leader}" if leader else ""))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
            self.enabled = False  # nothing more to say

    def _line(self, text: str) -> None:
        self.stream.write(f"progress: {text}\n")
        self.stream.flush()
