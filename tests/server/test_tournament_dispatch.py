"""The coordinator's side of a distributed tournament, in one process over the
in-process bus (docs/cluster.md, "Distributed tournaments"): progress counts each
game as its result arrives, a job with no result is handed out again after
``retry_after``, a job whose result is recorded is never sent, and what is stored
equals a local run's."""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from pathlib import Path

from bots.arena import derive_seeds
from bots.progress import Progress
from bots.tournament.jobs import play_job
from server.bus import LocalBus, LocalHub, Topics
from server.cluster.dispatch import Dispatcher
from server.cluster.jobs import JobMessage, played_json
from server.persistence.jobs import JobKey, JobResults
from server.persistence.results import Results
from server.persistence.store import Store
from server.tournament.runner import (
    Entrant,
    MatchGames,
    TournamentSetup,
    game_jobs,
    match_seatings,
    run_tournament,
    total_games,
)
from tests.server.test_tournament_resume import load_tournament, run_stored, stored_outcome

SETUP = TournamentSetup(
    game="whist",
    options={"deals": 1},
    entrants=(
        Entrant("h", "bots.whist.heuristic:WhistHeuristicBot"),
        Entrant("r", "bots.base:RandomBot"),
    ),
    deals=3,
    seed=11,
)
TOPICS = Topics("test")


class FakeWorker:
    """A worker that plays jobs in a thread and records them, but drops the first
    copy of the jobs in ``drop`` and holds ``hold`` until released."""

    def __init__(self, hub: LocalHub, results: JobResults, drop: set[JobKey], hold: JobKey):
        self.bus = LocalBus(hub)
        self.results = results
        self.drop = drop
        self.hold = hold
        self.release = asyncio.Event()
        self.received: Counter[JobKey] = Counter()
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.bus.subscribe(TOPICS.shared_jobs, self.on_job)
        await self.bus.start()

    def on_job(self, topic: str, payload: bytes) -> None:
        message = JobMessage.model_validate_json(payload)
        self.received[message.key] += 1
        if message.key in self.drop:
            self.drop.discard(message.key)  # lost, as with a worker killed holding it
            return
        task = asyncio.create_task(self.play(message))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """Let the games in hand finish (a copy still playing records nothing new)."""
        self.release.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.bus.close()

    async def play(self, message: JobMessage) -> None:
        if message.key == self.hold:
            await self.release.wait()
        played = await asyncio.to_thread(play_job, message.job)
        await self.results.record(message.key, "fake", played_json(played))


async def test_results_count_as_they_arrive_and_lost_jobs_go_out_again(tmp_path: Path) -> None:
    local_url = f"sqlite:///{tmp_path}/local.db"
    local = await load_tournament(local_url, await run_stored(local_url, SETUP))
    store = await Store.open(f"sqlite:///{tmp_path}/bus.db")
    hub = LocalHub()
    jobs = JobResults(store)
    # Match 1's first seating is held back, match 2's second is lost once.
    worker = FakeWorker(hub, jobs, drop={JobKey(1, 2, 1)}, hold=JobKey(1, 1, 0))
    await worker.start()
    dispatcher = Dispatcher(LocalBus(hub), jobs, TOPICS, retry_after=0.5)
    await dispatcher.start()
    progress = Progress(total_games(SETUP), io.StringIO())
    try:
        run = asyncio.create_task(
            run_tournament(
                SETUP, dispatcher.player(SETUP), results=Results(store), progress=progress
            )
        )
        # Every other game is counted while match 1 still waits for its first one.
        for _ in range(400):
            if progress.done == total_games(SETUP) - 1:
                break
            await asyncio.sleep(0.05)
        assert progress.done == total_games(SETUP) - 1
        assert not run.done()
        worker.release.set()
        report = await asyncio.wait_for(run, 60)
        assert progress.done == total_games(SETUP)
        # The lost job and the held one were handed out again (both copies of the
        # held one were played: its result is recorded once all the same).
        late = {JobKey(1, 2, 1), JobKey(1, 1, 0)}
        assert all(worker.received[k] >= 2 for k in late)
        assert all(n == 1 for k, n in worker.received.items() if k not in late)
        stored = await Results(store).get_tournament(report.tournament_id)
        assert stored is not None
        assert stored_outcome(stored) == stored_outcome(local)
        assert len(await jobs.workers(1)) == total_games(SETUP)
    finally:
        await dispatcher.close()
        await worker.close()
        await store.close()


async def test_a_recorded_job_is_never_sent(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path}/bus.db")
    hub = LocalHub()
    jobs = JobResults(store)
    worker = FakeWorker(hub, jobs, drop=set(), hold=JobKey(0, 0, 0))
    await worker.start()
    dispatcher = Dispatcher(LocalBus(hub), jobs, TOPICS, retry_after=60)
    await dispatcher.start()
    try:
        tid = await Results(store).create_tournament("whist", {"deals": 1}, SETUP.to_json())
        seed = derive_seeds(SETUP.seed, 1)[0]
        match = MatchGames(seed, match_seatings(SETUP, "h", "r", seed), 1, tid)
        first, second = game_jobs(SETUP, match)
        # Recorded while no coordinator ran (a worker went on playing what it held).
        await jobs.record(JobKey(tid, 1, 0), "earlier", played_json(play_job(first)))
        played = await asyncio.wait_for(dispatcher.run_job(match, 0, first), 30)
        assert played == play_job(first)
        assert worker.received[JobKey(tid, 1, 0)] == 0
        await asyncio.wait_for(dispatcher.run_job(match, 1, second), 30)
        assert worker.received[JobKey(tid, 1, 1)] == 1  # the one not recorded is sent
    finally:
        await dispatcher.close()
        await worker.close()
        await store.close()
