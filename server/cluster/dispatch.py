"""The coordinator's side of a distributed tournament (docs/cluster.md,
"Distributed tournaments"): each game of a match is published as a job on the
bus, its result read from the database as it arrives, and a job with no result
after ``retry_after`` seconds is handed out again (its worker died, or froze, or
held it while dying).  The tournament runner sees one more ``MatchPlayer``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from bots.arena import PlayedGame
from bots.tournament.jobs import GameJob
from server.bus import Bus, BusUnavailable, Topics
from server.cluster.jobs import JobMessage, played_of
from server.persistence.jobs import JobKey, JobResults
from server.tournament.runner import MatchGames, MatchPlayer, TournamentSetup, job_player

log = logging.getLogger("cardtable.jobs")
POLL = 0.25  # seconds between reads of the results


@dataclass
class _Pending:
    message: JobMessage
    result: asyncio.Future[PlayedGame]
    sent: float | None = None  # monotonic time of the last publication


class Dispatcher:
    """Publishes jobs and hands each caller its job's result once recorded."""

    def __init__(
        self, bus: Bus, results: JobResults, topics: Topics, *, retry_after: float = 60.0
    ) -> None:
        self.bus = bus
        self.results = results
        self.topics = topics
        self.retry_after = retry_after
        self._pending: dict[JobKey, _Pending] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.bus.start()
        self._task = asyncio.create_task(self._loop(), name="job-dispatcher")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.bus.close()

    def player(self, setup: TournamentSetup) -> MatchPlayer:
        """The runner's player: every game of a match a job for the workers."""
        return job_player(setup, self.run_job)

    async def run_job(self, match: MatchGames, index: int, job: GameJob) -> PlayedGame:
        if match.tournament is None:
            raise ValueError("a distributed tournament is stored: its jobs name its id")
        message = JobMessage(
            tournament=match.tournament, match=match.number, seating=index, job=job
        )
        pending = _Pending(message, asyncio.get_running_loop().create_future())
        self._pending[message.key] = pending
        self._wake.set()
        try:
            return await pending.result
        finally:
            self._pending.pop(message.key, None)

    async def _loop(self) -> None:
        while True:
            if not self._pending:
                self._wake.clear()
                await self._wake.wait()
            # Results first: a resumed run finds some recorded and never sends them.
            try:
                await self._collect()
                self._publish()
            except Exception:  # the database is away: try again at the next poll
                log.warning("cannot read the jobs' results; trying again", exc_info=True)
            await asyncio.sleep(POLL)

    async def _collect(self) -> None:
        found = await self.results.found(sorted(self._pending))
        for key, data in found.items():
            pending = self._pending.pop(key, None)
            if pending is not None and not pending.result.done():
                pending.result.set_result(played_of(data))

    def _publish(self) -> None:
        now = time.monotonic()
        for key, p in list(self._pending.items()):
            if p.sent is not None and now - p.sent < self.retry_after:
                continue
            try:
                self.bus.publish(self.topics.jobs, p.message.model_dump_json().encode())
            except BusUnavailable:
                continue  # tried again on the next pass
            if p.sent is not None:
                log.warning(
                    "job %s has no result after %gs: handed out again", key, self.retry_after
                )
            p.sent = now
