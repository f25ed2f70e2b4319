"""Analysis work for users, off the event loop: a game's analysis of each board
that ends at a live table (``Game.analysis``; bridge's double-dummy table takes
10-40 s with today's solver), and replays with every action's analysis.

It runs on worker threads (the solver's C core releases the GIL, so threads run
in parallel) and never inside a table actor.  At most ``workers`` jobs run at
once; more wait their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Analyst:
    """Runs solver jobs on daemon threads, ``workers`` at a time.

    Daemon threads rather than an executor's: a search cannot be interrupted,
    and a server that is stopping must not wait tens of seconds for one whose
    result nobody will read (an analysis is recomputed from the stored log)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._slots: asyncio.Semaphore | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker thread; waits for a free slot first."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        slots = self._slots
        await slots.acquire()
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()

        def settle(value: Any, exc: BaseException | None) -> None:
            # The slot is freed when the search ends, not when a waiter gives up,
            # so cancelled requests cannot pile up searches beyond ``workers``.
            slots.release()
            if fut.done():
                return
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(value)

        def work() -> None:
            try:
                value, exc = fn(*args), None
            except Exception as err:
                value, exc = None, err
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(settle, value, exc)

        try:
            threading.Thread(target=work, name="cardtable-analysis", daemon=True).start()
        except BaseException:
            slots.release()
            raise
        return await fut
