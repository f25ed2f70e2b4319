"""``cardtable worker``'s work: take a distributed tournament's jobs from the bus
(an MQTT 5 shared subscription, so each job goes to one worker), play each in a
local process pool, record its result once (docs/cluster.md, "Distributed
tournaments")."""

from __future__ import annotations

import asyncio
import logging
import os

from bots.tournament.jobs import play_job
from server.bus import Bus, Topics
from server.cluster.jobs import JobMessage, played_json
from server.lifeline import process_pool
from server.persistence.jobs import JobResults

log = logging.getLogger("cardtable.jobs")


class Worker:
    """Takes jobs from the bus and plays ``processes`` of them at once."""

    def __init__(self, bus: Bus, results: JobResults, topics: Topics, name: str, processes: int):
        self.bus = bus
        self.results = results
        self.topics = topics
        self.name = name
        self.slots = asyncio.Semaphore(processes)
        # Pool processes die with the worker, even if it is killed (server/lifeline.py).
        self.pool = process_pool(processes)
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
        message = JobMessage.model_validate_json(payload)
        task = asyncio.create_task(self._run(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, message: JobMessage) -> None:
        key = message.key
        async with self.slots:
            try:
                if await self.results.has(key):
                    return  # a copy of a job another worker has finished
                log.info("job %s started", key)
                loop = asyncio.get_running_loop()
                played = await loop.run_in_executor(self.pool, play_job, message.job)
                first = await self.results.record(key, self.name, played_json(played))
            except Exception:
                # A bot that cannot load here, a lost pool, the database away: the
                # job stays without a result and the coordinator hands it out again.
                log.exception("job %s failed; the coordinator will hand it out again", key)
                return
            log.info("job %s done%s", key, "" if first else " (already recorded by another worker)")


def default_processes() -> int:
    return max(1, os.cpu_count() or 1)
