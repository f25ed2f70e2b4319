"""Bots think off the event loop, in a process pool, within a time budget."""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bots.base import BOTS, decide
from engine.game import Action
from engine.rng import Rng
from rules.registry import GAMES, get_game
from server.lifeline import Lifeline, die_with_server

log = logging.getLogger("cardtable.bots")

WARM_TIMEOUT = 30.0  # seconds start() waits for every worker to answer
CLOSE_WAIT = 1.0  # seconds close() lets a decision in flight finish


def bot_modules() -> list[str]:
    """Every rules and bot module a decision may import."""
    targets = [*GAMES.values(), *(t for bots in BOTS.values() for t in bots.values())]
    return sorted({t.partition(":")[0] for t in targets})


class BotRunner:
    """Runs bot decisions in worker processes; a late, failing or undecided (None)
    bot is replaced by the game's stand-in action (a random legal one unless the game says
    otherwise) for that decision, and logged, so no bot can stall a table, and no
    bot's CPU use can stall the event loop.  A pool broken by a dead worker is
    replaced; the workers exit when the server does, even if it is killed."""

    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.workers = workers
        self.rebuilds = 0  # pools replaced after a worker died
        self._lifeline = Lifeline() if workers > 0 else None
        self.pool: Executor = self._new_pool()

    def _new_pool(self) -> Executor:
        if self._lifeline is None:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        # forkserver: never fork the running server (its threads and sockets).
        ctx = multiprocessing.get_context("forkserver")
        # The forkserver imports the rules and bots once; workers forked from it
        # start with them loaded.
        ctx.set_forkserver_preload(bot_modules())
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(self._lifeline.reader,),
        )

    async def start(self) -> None:
        """Start every worker and load the rules and bots in it, so that the first
        decisions meet their budget.  Logs and returns if the pool cannot warm up
        (decisions then get stand-ins until it can)."""
        loop = asyncio.get_running_loop()
        pool = self.pool
        if not isinstance(pool, ProcessPoolExecutor):
            await loop.run_in_executor(pool, _import_bots)
            return
        started = time.monotonic()
        answered: set[int] = set()
        try:
            async with asyncio.timeout(WARM_TIMEOUT):
                # Each round starts the missing workers (the pool spawns one per job
                # while none is idle); a worker answers only once initialised.
                while not answered or answered < set(self.worker_pids()):
                    jobs = [loop.run_in_executor(pool, _ping) for _ in range(self.workers)]
                    answered.update(await asyncio.gather(*jobs))
        except (TimeoutError, BrokenExecutor):
            log.exception("the bot pool did not warm up; bots get stand-in moves meanwhile")
            return
        log.info("bot pool warm: %d workers in %.2fs", len(answered), time.monotonic() - started)

    def worker_pids(self) -> list[int]:
        """Process ids of the current pool's workers (none for a thread)."""
        if not isinstance(self.pool, ProcessPoolExecutor):
            return []
        # The executor's own table of its processes; there is no public accessor.
        return list(self.pool._processes or {})

    async def decide(
        self, game: str, bot: str, view: dict[str, Any], legal: list[Any], seat: int, seed: int
    ) -> Action:
        """The bot's action, or the game's stand-in when it gives none in time."""
        action = await self.attempt(game, bot, view, legal, seat, seed)
        return action if action is not None else get_game(game).stand_in(legal, Rng(seed))

    async def attempt(
        self, game: str, bot: str, view: dict[str, Any], legal: list[Any], seat: int, seed: int
    ) -> Action | None:
        """The bot's action, or None when it is late, fails or cannot decide."""
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            job = loop.run_in_executor(
                pool, decide, game, bot, view, legal, seat, seed, self.budget
            )
            action = await asyncio.wait_for(job, self.budget)
            if action is not None:
                return action
            log.info("bot %s (%s seat %d) could not decide", bot, game, seat)
        except TimeoutError:
            log.warning("bot %s (%s seat %d) over its %.2fs budget", bot, game, seat, self.budget)
        except BrokenExecutor:
            log.warning("bot %s (%s seat %d) lost its worker process", bot, game, seat)
            self._replace(pool)
        except Exception:
            log.exception("bot %s (%s seat %d) failed", bot, game, seat)
        return None

    def _replace(self, broken: Executor) -> None:
        """Swap in a new pool for ``broken``, once however many decisions hit it."""
        if self.pool is not broken:
            return
        self.rebuilds += 1
        log.error("a bot worker died: replacing the bot pool (%d so far)", self.rebuilds)
        self.pool = self._new_pool()
        broken.shutdown(wait=False, cancel_futures=True)
        try:
            for _ in range(self.workers):  # start the new workers now, not at the next turn
                self.pool.submit(_ping)
        except Exception:
            log.exception("cannot start new bot workers; the next decision tries again")

    async def close(self) -> None:
        """Stop the pool; a decision still running after CLOSE_WAIT is cut short."""
        pool = self.pool
        if self._lifeline is None:
            pool.shutdown(wait=False, cancel_futures=True)  # a thread cannot be orphaned
            return
        loop = asyncio.get_running_loop()
        try:
            stop = loop.run_in_executor(None, lambda: pool.shutdown(wait=True, cancel_futures=True))
            await asyncio.wait_for(stop, CLOSE_WAIT)
        except TimeoutError:
            log.warning("bot pool still busy at shutdown; stopping its workers")
        finally:
            self._lifeline.close()


def _init_worker(lifeline: Connection) -> None:
    die_with_server(lifeline)
    _import_bots()


def _import_bots() -> None:
    """Load every rules and bot module (at once where the forkserver preloaded them)."""
    for name in bot_modules():
        try:
            importlib.import_module(name)
        except Exception:
            # That bot's decisions will fail and be replaced; the others still work.
            log.exception("bot worker cannot import %s", name)


def _ping() -> int:
    # Long enough that one worker cannot take every warm-up job while the pool is
    # still starting the others.
    time.sleep(0.1)
    return os.getpid()
