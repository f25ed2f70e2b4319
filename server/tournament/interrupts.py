"""Ctrl-C (or a SIGTERM: a service manager's stop) during a tournament: stop the
playing, then clean up whole.

``asyncio.run`` answers a first SIGINT by cancelling its main task and a second by
raising KeyboardInterrupt wherever the main thread is, which can land in the
cleanup itself (a run interrupted twice hung on its tables), and a SIGTERM ends
the process with the tournament left ``running``.  While :class:`Interrupts` is
entered, every SIGINT or SIGTERM cancels the work it guards instead,
again at each one (a cancellation some library absorbed is sent anew), and the
cleanup after it is never interrupted.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")


class Interrupted(Exception):
    """The work was stopped by Ctrl-C (SIGINT) or SIGTERM."""


STOPS = (signal.SIGINT, signal.SIGTERM)


class Interrupts:
    """``async with Interrupts() as stop: ... await stop.guard(work) ...``"""

    def __init__(self) -> None:
        self.count = 0
        self._task: asyncio.Future[Any] | None = None

    async def __aenter__(self) -> Interrupts:
        for stop in STOPS:
            asyncio.get_running_loop().add_signal_handler(stop, self._on_signal)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for stop in STOPS:
            asyncio.get_running_loop().remove_signal_handler(stop)

    def _on_signal(self) -> None:
        self.count += 1
        if self._task is not None:
            self._task.cancel()

    async def guard(self, work: Awaitable[T]) -> T:
        """``work``'s result; :class:`Interrupted` once a signal has stopped it."""
        task = asyncio.ensure_future(work)
        self._task = task
        if self.count:
            task.cancel()
        try:
            return await task
        except asyncio.CancelledError:
            if self.count:
                raise Interrupted from None
            raise
