"""A table actor's inbox: a bounded first-in, first-out queue with one reader."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """What ``asyncio.Queue`` gives an actor, without the bookkeeping it does not
    use (``task_done``/``join``, waiting writers): every action passes through one,
    so its cost is paid once per action."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: deque[T] = deque()
        self._reader: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Queue ``item``; :class:`asyncio.QueueFull` when ``maxsize`` are waiting."""
        if len(self._items) >= self.maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)

    async def get(self) -> T:
        """The oldest item, once there is one (one reader at a time)."""
        while not self._items:
            self._reader = asyncio.get_running_loop().create_future()
            try:
                await self._reader
            finally:
                self._reader = None
        return self._items.popleft()
