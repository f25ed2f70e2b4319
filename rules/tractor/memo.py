"""A small cache of answers about immutable states, by identity."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rules.tractor.state import TractorState


class Memo:
    """The last few results of a function of a state, by identity.

    A server or test asks ``to_act`` and ``secrets`` of one state many times
    in a row (every view, validation and scan); states are immutable, so the
    answer for the same object never changes.  Holding the state itself keeps
    ``id`` from being reused while the entry lives.  A server asks from several
    threads at once (replays are built on worker threads while its tables play),
    so the eviction and the insertion hold a lock; a lookup is one atomic read.
    """

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.entries: dict[tuple[int, int], tuple[TractorState, Any]] = {}
        self._lock = threading.Lock()

    def get(self, state: TractorState, arg: int, compute: Callable[[], Any]) -> Any:
        """``compute()``, or its remembered value for (``state``, ``arg``)."""
        key = (id(state), arg)
        hit = self.entries.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        value = compute()
        with self._lock:
            if len(self.entries) >= self.size:
                self.entries.pop(next(iter(self.entries)))
            self.entries[key] = (state, value)
        return value
