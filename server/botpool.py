"""Bots think off the event loop, in a process pool, within a time budget."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from bots.base import decide
from engine.game import Action
from engine.rng import Rng
from rules.registry import get_game

log = logging.getLogger("cardtable.bots")


class BotRunner:
    """Runs bot decisions in worker processes; a late or failing bot is replaced
    by the game's stand-in action (a random legal one unless the game says
otherwise) for that decision, and logged, so no bot can stall
    a table, and no bot's CPU use can stall the event loop."""

    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.pool: Executor
        if workers > 0:
            # forkserver: never fork the running server (its threads and sockets).
            ctx = multiprocessing.get_context("forkserver")
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
        else:
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")

    async def decide(
        self, game: str, bot: str, view: dict[str, Any], legal: list[Any], seat: int, seed: int
    ) -> Action:
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(
            self.pool, decide, game, bot, view, legal, seat, seed, self.budget
        )
        try:
            return await asyncio.wait_for(job, self.budget)
        except TimeoutError:
            log.warning("bot %s (%s seat %d) over its %.2fs budget", bot, game, seat, self.budget)
        except Exception:
            log.exception("bot %s (%s seat %d) failed", bot, game, seat)
        return get_game(game).stand_in(legal, Rng(seed))

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
