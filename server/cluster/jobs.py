"""Distributed tournaments (docs/cluster.md, "Distributed tournaments").

The coordinator publishes one job per deal (seed) on the jobs topic; workers take
them through an MQTT 5 shared subscription, each job to one worker, and run the
local arena on it (``bots.arena.run`` on that one seed, unchanged) in a process
pool over their cores. A result is recorded in the database once per job (the
job is the primary key), so a job run twice, by a worker the coordinator gave up
on and by the one it was given to next, still has one result. The coordinator
re-publishes a job with no result after ``retry_after`` seconds, and builds the
same standings a local run of the same seeds gives.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict

from bots.arena import ArenaResult, Progress, Standing, mean_ci, run
from bots.base import make_bot
from rules.registry import get_game
from server.bus import Bus, BusUnavailable, Topics
from server.lifeline import set_parent_death_signal
from server.persistence.jobs import JobResults

log = logging.getLogger("cardtable.jobs")


class Job(BaseModel):
    """One deal of a tournament: the lineup (a bot name per seat) plays ``seed``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tournament: str
    index: int
    game: str
    options: dict[str, Any]
    bots: list[str]
    seed: int
    duplicate: bool
    budget: float


def lineup_names(bots: list[str]) -> list[str]:
    """The arena's name of each seat's entrant, as a local tournament names them."""
    return [f"{name}@{i}" for i, name in enumerate(bots)]


def play_job(job: Job) -> dict[str, Any]:
    """Run one job in the local arena (in a worker process)."""
    game = get_game(job.game)
    config = game.parse_config(job.options)
    lineup = [
        (n, make_bot(job.game, b)) for n, b in zip(lineup_names(job.bots), job.bots, strict=True)
    ]
    result = run(
        game,
        config,
        lineup,
        [job.seed],
        duplicate=job.duplicate,
        budget=job.budget,
        progress=False,
    )
    return {
        "per_seed": {name: values[0] for name, values in result.per_seed.items()},
        "games": result.games,
        "actions": result.actions,
        "illegal": result.illegal,
    }


class Worker:
    """Takes jobs from the bus and runs ``processes`` of them at once."""

    def __init__(self, bus: Bus, results: JobResults, topics: Topics, name: str, processes: int):
        self.bus = bus
        self.results = results
        self.topics = topics
        self.name = name
        self.slots = asyncio.Semaphore(processes)
        # Pool processes die with the worker, even if it is killed (server/lifeline.py).
        self.pool = ProcessPoolExecutor(processes, initializer=set_parent_death_signal)
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.bus.subscribe(self.topics.shared_jobs, self._on_job)
        await self.bus.start()

    async def close(self) -> None:
        await self.bus.close()
        for task in list(self._tasks):
            task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _on_job(self, topic: str, payload: bytes) -> None:
        job = Job.model_validate_json(payload)
        task = asyncio.create_task(self._run(job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job) -> None:
        async with self.slots:
            if job.index in await self.results.done(job.tournament):
                return  # a copy of a job another worker has finished
            log.info("job %s/%d started", job.tournament, job.index)
            loop = asyncio.get_running_loop()
            try:
                result = await loop.run_in_executor(self.pool, play_job, job)
            except Exception:
                log.exception(
                    "job %s/%d failed; the coordinator will hand it out again",
                    job.tournament,
                    job.index,
                )
                return
            first = await self.results.record(job.tournament, job.index, self.name, result)
            log.info(
                "job %s/%d done%s",
                job.tournament,
                job.index,
                "" if first else " (already recorded by another worker)",
            )


async def run_distributed(
    bus: Bus,
    results: JobResults,
    topics: Topics,
    job: dict[str, Any],
    seeds: list[int],
    *,
    retry_after: float = 60.0,
    progress: TextIO | None = None,
) -> ArenaResult:
    """Publish one job per seed (``job``: the fields every job shares) and wait for
    every result; the standings are the local arena's for the same seeds."""
    tournament = uuid.uuid4().hex
    jobs = [Job(tournament=tournament, index=i, seed=s, **job) for i, s in enumerate(seeds)]
    await bus.start()
    start = time.perf_counter()
    sent: dict[int, float] = {}
    bar = Progress(len(jobs), progress, label="deals")
    done: dict[int, dict[str, Any]] = {}
    while len(done) < len(jobs):
        now = time.monotonic()
        for j in jobs:
            if j.index in done or now - sent.get(j.index, -retry_after) < retry_after:
                continue
            try:
                bus.publish(topics.jobs, j.model_dump_json().encode())
            except BusUnavailable:
                continue  # tried again on the next pass
            if j.index in sent:
                log.warning(
                    "job %d has no result after %gs: handed out again", j.index, retry_after
                )
            sent[j.index] = now
        await asyncio.sleep(0.2)
        done = await results.done(tournament)
        bar.update(len(done))
    await bus.close()
    names = lineup_names(job["bots"])
    per_seed = {n: [float(done[i]["per_seed"][n]) for i in range(len(jobs))] for n in names}
    games = sum(int(r["games"]) for r in done.values())
    standings = tuple(Standing(n, *mean_ci(per_seed[n]), len(seeds), games) for n in names)
    return ArenaResult(
        standings,
        games,
        sum(int(r["actions"]) for r in done.values()),
        sum(int(r["illegal"]) for r in done.values()),
        time.perf_counter() - start,
        per_seed,
    )


def default_processes() -> int:
    return max(1, os.cpu_count() or 1)
