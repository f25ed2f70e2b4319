"""Progress of a long run (a tournament, a bench, a file of deals to solve): a tqdm
bar on a terminal (done, rate, ETA and, for tournaments, the current leader),
plain periodic lines otherwise, so no long run is silent."""

from __future__ import annotations

import sys
import threading
import time
import weakref
from typing import TextIO

from tqdm import tqdm


class Progress:
    """Counts what is done out of ``total``: ``update(done)`` with the count so
    far, or ``advance(n)`` by a step.  A finished count ends the run (closes the
    bar, prints the last line) unless ``end_on_close()`` was called: then
    ``close()`` does.

    Off a terminal a line is printed every ``every`` seconds while the run is
    live, from a timer thread (a game that hangs is not silent either), and at
    the end; ``close()`` stops the timer (so does the end of the count)."""

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
        self.leader: str | None = None
        self.end_at_total = True
        self.start = time.monotonic()
        self.last_line = self.start
        self.bar: tqdm[None] | None = None
        # The timer thread and the counting thread both print plain lines.
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None
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
            if every > 0:
                self._start_timer()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def end_on_close(self) -> None:
        """The count reaching ``total`` does not end the run: ``close()`` does
        (a tournament counts its last matches after its last game ends)."""
        self.end_at_total = False

    def advance(self, n: int = 1, leader: str | None = None) -> None:
        self.update(self.done + n, leader)

    def update(self, done: int, leader: str | None = None) -> None:
        """The count so far; ``leader``, if given, is shown from now on."""
        step, self.done = done - self.done, done
        if leader is not None:
            self.lead(leader)
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(step)
        if done >= self.total and self.end_at_total:
            self.close()

    def lead(self, leader: str | None) -> None:
        """The current leader, shown on the bar and the lines from now on."""
        self.leader = leader
        if self.bar is not None and leader:
            self.bar.set_postfix_str(f"leader {leader}", refresh=False)

    def close(self) -> None:
        """End the run: the bar closed, or the last plain line printed; the
        timer stopped.  Closing again does nothing."""
        self._stop_timer()
        if not self.enabled:
            return
        self.enabled = False  # nothing more to say
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        else:
            with self._lock:
                self._status()

    def _tick(self) -> float:
        """The timer's beat: a line if none was printed for ``every`` seconds
        (while the run is live); the seconds to wait for the next beat."""
        with self._lock:
            due = self.last_line + self.every - time.monotonic()
            if due > 0:
                return due
            if self.enabled:
                self._status()
            return self.every

    def _status(self) -> None:
        """The count, rate, ETA and leader (the caller holds the lock)."""
        now = time.monotonic()
        self.last_line = now
        elapsed = now - self.start
        rate = (self.done - self.initial) / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        # Nothing done yet (or a game that hangs from the start): no estimate.
        eta = f"{left / rate:.0f}s" if rate > 0 else "0s" if left <= 0 else "?"
        pct = 100.0 * self.done / max(1, self.total)
        text = f"{self.done}/{self.total} {self.label} ({pct:.0f}%), {rate:.2f}/s, eta {eta}"
        self._line(text + (f", leader {self.leader}" if self.leader else ""))

    def _line(self, text: str) -> None:
        self.stream.write(f"progress: {text}\n")
        self.stream.flush()

    def _start_timer(self) -> None:
        # The thread holds the Progress weakly, and its collection stops the
        # thread: a run dropped without close() (an exception in a bench)
        # leaves no timer printing behind it.
        ref = weakref.ref(self)
        weakref.finalize(self, self._stop.set)
        self._timer = threading.Thread(
            target=_beat, args=(ref, self._stop, self.every), name="progress", daemon=True
        )
        self._timer.start()

    def _stop_timer(self) -> None:
        self._stop.set()
        timer, self._timer = self._timer, None
        if timer is not None and timer is not threading.current_thread():
            timer.join()


def _beat(ref: weakref.ref[Progress], stop: threading.Event, every: float) -> None:
    """The timer thread: a plain line whenever ``every`` seconds pass without one."""
    delay = every
    while not stop.wait(delay):
        progress = ref()
        if progress is None:
            return
        delay = progress._tick()
        del progress  # only ``ref`` between beats
