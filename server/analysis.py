"""Solver work for users, off the event loop: the double-dummy table of every
bridge board that ends at a live table, and replays with every card's score.

A full table takes 10-40 s with today's solver, so it runs on a worker thread
(the C core releases the GIL, so threads run in parallel) and never inside a
table actor.  At most ``workers`` searches run at once; more wait their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.events import Event

T = TypeVar("T")


@dataclass(frozen=True)
class BoardJob:
    """A board that ended: what its analysis needs and where it ended."""

    board: int
    deal: str
    dealer: int
    vulnerability: str
    version: int | None  # the table version whose action ended the board (None: unknown)


def board_jobs(game: str, events: Sequence[Event], version: int | None) -> list[BoardJob]:
    """The boards ``events`` (of one action) ended, for games that have an analysis."""
    if game != "bridge":
        return []
    return [
        BoardJob(
            board=int(e.data["board"]),
            deal=str(e.data["deal"]),
            dealer=int(e.data["dealer"]),
            vulnerability=str(e.data["vulnerability"]),
            version=version,
        )
        for e in events
        if e.kind == "board_end" and e.data.get("deal")
    ]


def last_board_job(game: str, state: Any) -> BoardJob | None:
    """The newest board ``state`` has ended (for a table resumed after a restart)."""
    if game != "bridge" or not getattr(state, "results", None):
        return None
    r = state.results[-1]
    return BoardJob(r.board, r.deal, r.dealer, r.vulnerability.value, None)


def compute_board(job: BoardJob) -> dict[str, Any]:
    """The ``analysis`` fields of a board (runs on a worker thread)."""
    from rules.bridge.analysis import board_analysis

    return {
        "board": job.board,
        "version": job.version,
        "deal": job.deal,
        "dealer": job.dealer,
        "vulnerability": job.vulnerability,
        **board_analysis(job.deal, job.vulnerability, job.dealer),
    }


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
