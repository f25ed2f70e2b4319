"""Bots think off the event loop, in a process pool, within a time budget."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import time
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bots.base import BOTS, bot_named, decide, warm_up
from engine.game import Action
from engine.rng import Rng
from rules.registry import GAMES, get_game
from server.lifeline import Lifeline, die_with_server

log = logging.getLogger("cardtable.bots")

WARM_TIMEOUT = 30.0  # seconds start() waits for every worker to answer, warm() to warm
WARM_UP_WAIT = 10.0  # seconds a worker waits for a bot's first decision (warm())
CLOSE_WAIT = 1.0  # seconds close() lets a decision in flight finish
HUNG_AFTER = 30.0  # seconds past its budget a decision may run before its worker is stopped


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

    def __init__(self, workers: int, budget: float, hung_after: float | None = None) -> None:
        self.budget = budget
        self.workers = workers
        self.rebuilds = 0  # pools replaced after a worker died or hung
        # A decision still running this long after its budget has hung its worker.
        self.hung_after = max(HUNG_AFTER, 5 * budget) if hung_after is None else hung_after
        self._lifeline = Lifeline() if workers > 0 else None
        self.pool: Executor = self._new_pool()
        # One slot per worker: a decision's budget is its thinking time, not its
        # wait for a free worker (many tables at once, or a slow bot before it).
        self._slots = asyncio.Semaphore(max(1, workers))
        self._overdue: set[asyncio.Task[None]] = set()  # late decisions still running
        self._failures: dict[str, int] = {}  # per bot: decisions that raised

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

    async def warm(self, game: str, options: dict[str, Any], bots: Sequence[str]) -> None:
        """Let each of ``bots`` decide once in every worker, thrown away, so that what
        a bot builds on its first decision does not cost it that decision (a
        tournament warms its entrants before its first table).  A bot still on
        that decision after ``WARM_UP_WAIT`` has its workers replaced (they may be
        spinning in it) and is left cold; the others are warmed in the new ones."""
        loop = asyncio.get_running_loop()
        left = tuple(bots)
        try:
            async with asyncio.timeout(WARM_TIMEOUT):
                warmed: set[int] = set()
                while left and (not warmed or warmed < set(self.worker_pids())):
                    pool = self.pool
                    wanted = (game, options, left, self.budget, max(WARM_UP_WAIT, self.budget))
                    jobs = [loop.run_in_executor(pool, _warm, *wanted)
                            for _ in range(max(1, self.workers))]
                    stuck: set[str] = set()
                    for pid, late in await asyncio.gather(*jobs):
                        warmed.add(pid)
                        stuck.update(late)
                    if stuck:
                        log.error("no first decision in %gs from %s: replacing the workers",
                                  WARM_UP_WAIT, ", ".join(sorted(stuck)))
                        self._stop_workers(pool)
                        left = tuple(b for b in left if b not in stuck)
                        warmed = set()
                    elif not isinstance(pool, ProcessPoolExecutor):
                        return
        except (TimeoutError, BrokenExecutor):
            log.warning("bots %s not warmed in every worker", ", ".join(bots))

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
        await self._slots.acquire()
        pool = self.pool
        job: asyncio.Future[Any] | None = None
        try:
            job = loop.run_in_executor(
                pool, decide, game, bot, view, legal, seat, seed, self.budget
            )
            action = await asyncio.wait_for(asyncio.shield(job), self.budget)
            if action is not None:
                return action
            log.info("bot %s (%s seat %d) could not decide", bot, game, seat)
        except TimeoutError:
            log.warning("bot %s (%s seat %d) over its %.2fs budget", bot, game, seat, self.budget)
        except BrokenExecutor:
            log.warning("bot %s (%s seat %d) lost its worker process", bot, game, seat)
            self._replace(pool)
        except Exception:
            self._log_failure(bot, game, seat)
        finally:
            if job is not None and not job.done():  # late, or its table went away
                self._watch_overdue(job, pool, bot)  # its slot is freed when it ends
            else:
                self._slots.release()
        return None

    def _log_failure(self, bot: str, game: str, seat: int) -> None:
        """The first failure of each bot with its traceback; later ones in a line."""
        count = self._failures[bot] = self._failures.get(bot, 0) + 1
        if count == 1:
            log.exception("bot %s (%s seat %d) failed", bot, game, seat)
        else:
            log.warning("bot %s (%s seat %d) failed again (%d failures)", bot, game, seat, count)

    def _watch_overdue(self, job: asyncio.Future[Any], pool: Executor, bot: str) -> None:
        """Free the late decision's slot when it ends; when it runs ``hung_after``
        seconds, stop the pool's workers (a thread cannot be stopped: its slot is
        freed and the work queues behind it) and start new ones."""

        async def watch() -> None:
            try:
                await asyncio.wait_for(job, self.hung_after)
            except TimeoutError:
                log.error("bot %s has not answered in %.0fs: replacing its worker",
                          bot, self.budget + self.hung_after)
                self._stop_workers(pool)
            except Exception:
                pass  # its failure came too late to matter: it had its stand-in
            finally:
                self._slots.release()

        task = asyncio.get_running_loop().create_task(watch())
        self._overdue.add(task)
        task.add_done_callback(self._overdue.discard)

    def _stop_workers(self, pool: Executor) -> None:
        if isinstance(pool, ProcessPoolExecutor):
            for process in list(pool._processes.values()):  # no public accessor
                process.kill()
            self._replace(pool)

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
        for task in list(self._overdue):
            task.cancel()
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


def _warm(
    game_name: str, options: dict[str, Any], bots: tuple[str, ...], budget: float, wait: float
) -> tuple[int, frozenset[str]]:
    """This worker's pid, and the bots still on their first decision here after
    ``wait`` seconds each."""
    game = get_game(game_name)
    loaded = []
    for name in bots:
        with contextlib.suppress(Exception):  # it fails again in a game, where it counts
            loaded.append((name, bot_named(game_name, name)))
    late = warm_up(game, game.parse_config(options), 1, loaded, budget, wait)
    return _ping(), late


def _ping() -> int:
    # Long enough that one worker cannot take every warm-up job while the pool is
    # still starting the others.
    time.sleep(0.1)
    return os.getpid()
