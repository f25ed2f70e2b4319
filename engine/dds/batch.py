"""Many solves at once: a pool of threads, each with its own warm Solver.

A search releases the GIL, so the threads solve in parallel; each thread keeps
one Solver for all the problems it serves, so its table stays warm across
related problems (the sampled deals of a bot's decision, the same deal after
each card). See docs/dds.md, "Batches and threads".
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from engine.dds.api import (
    DEFAULT_TT_BYTES,
    DDTable,
    PositionResult,
    Solver,
    dd_table,
    solve_position,
)
from engine.dds.deal import Deal, Seat, Strain, as_deal

T = TypeVar("T")
R = TypeVar("R")


class SolverPool:
    """``threads`` worker threads (default: one per CPU), each owning a Solver of
    ``tt_bytes`` that it keeps between calls. Safe to share between caller
    threads; close it (or use ``with``) to stop the workers."""

    def __init__(self, threads: int | None = None, tt_bytes: int = DEFAULT_TT_BYTES) -> None:
        n = (os.cpu_count() or 1) if threads is None else threads
        if n < 1:
            raise ValueError("threads must be at least 1")
        self.threads = n
        self._tt_bytes = tt_bytes
        self._local = threading.local()
        self._executor = ThreadPoolExecutor(max_workers=n, thread_name_prefix="dds")

    def _solver(self) -> Solver:
        solver: Solver | None = getattr(self._local, "solver", None)
        if solver is None:
            solver = self._local.solver = Solver(self._tt_bytes)
        return solver

    def map(self, fn: Callable[[Solver, T], R], items: Iterable[T]) -> list[R]:
        """``[fn(solver, item) for item in items]``, spread over the threads (each
        call gets its thread's Solver); results in the items' order."""
        return list(self._executor.map(lambda item: fn(self._solver(), item), items))

    def tables(self, deals: Iterable[str | Deal]) -> list[DDTable]:
        """The 5 x 4 table of every deal, in order (see :func:`dd_table`). Every
        deal is parsed, and refused with a DealError, before any search starts."""
        parsed = [as_deal(d) for d in deals]
        return self.map(lambda solver, d: dd_table(d, solver=solver), parsed)

    def positions(self, deals: Iterable[str | Deal], strain: str | Strain,
                  leader: str | Seat, played: Sequence[str | int] = ()) -> list[PositionResult]:
        """:func:`solve_position` of the same play on many deals (e.g. a bot's
        sampled deals), in order."""
        parsed = [as_deal(d) for d in deals]
        cards = list(played)
        return self.map(
            lambda solver, d: solve_position(d, strain, leader, cards, solver=solver), parsed)

    def close(self) -> None:
        """Stop the workers (after the work already given to them)."""
        self._executor.shutdown(wait=True)

    def __enter__(self) -> SolverPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def dd_tables(deals: Iterable[str | Deal], *, threads: int | None = None,
              tt_bytes: int = DEFAULT_TT_BYTES) -> list[DDTable]:
    """:func:`dd_table` of many deals, in order, on ``threads`` threads (default:
    one per CPU), each with its own Solver of ``tt_bytes``. Every deal is parsed
    (and refused with a DealError) before any search starts."""
    parsed = [as_deal(d) for d in deals]
    if threads is not None and threads < 1:
        raise ValueError("threads must be at least 1")
    n = min((os.cpu_count() or 1) if threads is None else threads, max(len(parsed), 1))
    with SolverPool(n, tt_bytes) as pool:
        return pool.tables(parsed)
