"""Distributed tournaments (docs/cluster.md, "Distributed tournaments"): `cardtable
tournament --bus` runs the same stored, rated tournament as a local run, its games
played by `cardtable worker` processes over the real Mosquitto.  A worker killed
with SIGKILL in the middle of a game has that game played again by the other,
every game's result is recorded exactly once, a coordinator killed with SIGKILL
is resumed with `--resume ID`, and what is stored equals a local run's."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.lifeline import set_parent_death_signal
from server.persistence.jobs import JobKey, JobResults
from server.persistence.results import Results, StoredTournament
from server.persistence.store import Store
from tests.server.cluster_procs import BROKER, fresh_database
from tests.server.conftest import PG_URL
from tests.server.serverproc import ROOT, TAG_VARIABLE, new_tag, survivors
from tests.server.test_tournament_resume import stored_outcome

# A bot whose games take a while (so a test can kill a process mid-game).
STEADY = "steady=tests.server.slow_bot:SteadyBot"
# Swiss with three bots: each round's pairing waits for the round before; round 1
# pairs the first two (the steady bot plays every game of it), the third has a bye.
SWISS = ["--game", "whist", "--bots", f"heuristic,{STEADY},random", "--schedule", "swiss"]
SWISS += ["--rounds", "2", "--games", "3", "--seed", "5", "--options", '{"deals": 2}']
SWISS_GAMES = 2 * 3 * 2  # rounds x deals x seatings (one pair a round, a bye)
ROBIN = ["--game", "whist", "--bots", f"heuristic,{STEADY}", "--games", "12", "--seed", "3"]
ROBIN_GAMES = 12 * 2


class Procs:
    """The processes one test starts, all tagged so none can outlive it."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.tag = new_tag()
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), TAG_VARIABLE: self.tag}
        self.env["CARDTABLE_BUS_PREFIX"] = f"test-{uuid.uuid4().hex[:10]}"
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *argv: str) -> subprocess.Popen[bytes]:
        with (
            (self.tmp / f"{name}.out").open("ab") as out,
            (self.tmp / f"{name}.err").open("ab") as err,
        ):
            proc = subprocess.Popen(
                [sys.executable, "-m", "server.cli", *argv],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=err,
                preexec_fn=set_parent_death_signal,
            )
        self.procs.append(proc)
        return proc

    def worker(self, name: str, db: str) -> subprocess.Popen[bytes]:
        argv = ["worker", "--bus", BROKER, "--db", db, "--workers", "1", "--name", name]
        proc = self.start(name, *argv)
        deadline = time.monotonic() + 60
        while "cardtable worker" not in self.out(name):  # subscribed before any job
            assert proc.poll() is None and time.monotonic() < deadline, self.err(name)
            time.sleep(0.05)
        return proc

    def out(self, name: str) -> str:
        return (self.tmp / f"{name}.out").read_text(errors="replace")

    def err(self, name: str) -> str:
        return (self.tmp / f"{name}.err").read_text(errors="replace")

    def stop(self) -> dict[int, str]:
        """End every process still running; the tagged ones left (none, we check)."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        return survivors(self.tag)


def started_job(p: Procs, worker: str, timeout: float = 60) -> JobKey:
    """The first game a worker's log says it started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in p.err(worker).splitlines():
            if line.endswith(" started") and "job " in line:
                t, m, s = line.rsplit(" ", 2)[1].split("/")
                return JobKey(int(t), int(m), int(s))
        time.sleep(0.01)
    raise AssertionError(f"{worker} started no job")


def local_run(tmp: Path, flags: list[str], capsys: Any) -> tuple[list[str], StoredTournament]:
    """The same tournament played locally: what it prints and what it stores."""
    url = f"sqlite:///{tmp}/local.db"
    assert main(["tournament", *flags, "--db", url]) == 0
    return capsys.readouterr().out.splitlines(), asyncio.run(_stored(url))[0]


async def _stored(url: str) -> tuple[StoredTournament, dict[JobKey, str]]:
    store = await Store.open(url)
    try:
        t = await Results(store).get_tournament(1)
        assert t is not None
        return t, await JobResults(store).workers(1)
    finally:
        await store.close()


def same_standings(printed: list[str], local: list[str]) -> None:
    """Every line alike but the time the run took (the header's end)."""
    assert printed[0].rsplit(",", 1)[0] == local[0].rsplit(",", 1)[0]
    assert printed[1:] == local[1:]


@pytest.mark.postgres
def test_a_killed_workers_game_is_played_again_and_recorded_once(
    tmp_path: Path, capsys: Any
) -> None:
    local_lines, local = local_run(tmp_path, SWISS, capsys)
    db = fresh_database(PG_URL, "jobs")
    p = Procs(tmp_path)
    try:
        workers = {w: p.worker(w, db) for w in ("w1", "w2")}
        flags = ["--bus", BROKER, "--db", db, "--retry-after", "3"]
        coordinator = p.start("coordinator", "tournament", *SWISS, *flags)
        victim = started_job(p, "w1")
        workers["w1"].send_signal(signal.SIGKILL)  # in the middle of that game
        assert coordinator.wait(180) == 0, p.err("coordinator")
        same_standings(p.out("coordinator").splitlines(), local_lines)
        err = p.err("coordinator")
        assert "handed out again" in err
        assert f"progress: {SWISS_GAMES}/{SWISS_GAMES} games (100%)" in err
        t, by_worker = asyncio.run(_stored(db))
        # Each game's result once (the key is the primary key), the killed one by w2.
        assert len(by_worker) == SWISS_GAMES
        assert {(k.match, k.seating) for k in by_worker} == {
            (m, s) for m in range(1, SWISS_GAMES // 2 + 1) for s in (0, 1)
        }
        assert by_worker[victim] == "w2"
        assert len(t.byes) == 2
        assert stored_outcome(t) == stored_outcome(local)
    finally:
        assert p.stop() == {}


def test_a_killed_coordinator_is_resumed_on_sqlite(tmp_path: Path, capsys: Any) -> None:
    local_lines, local = local_run(tmp_path, ROBIN, capsys)
    path = tmp_path / "shared.db"
    db = f"sqlite:///{path}"
    p = Procs(tmp_path)
    try:
        worker = p.worker("w1", db)
        coordinator = p.start("first", "tournament", *ROBIN, "--bus", BROKER, "--db", db)
        deadline = time.monotonic() + 120
        while _count(path, "tournament_matches") < 1:
            assert coordinator.poll() is None and time.monotonic() < deadline, p.err("first")
            time.sleep(0.02)
        # Hold the worker, so the coordinator cannot finish, and kill the coordinator.
        worker.send_signal(signal.SIGSTOP)
        coordinator.send_signal(signal.SIGKILL)
        coordinator.wait(30)
        stored_before = _count(path, "tournament_matches")
        assert 1 <= stored_before < ROBIN_GAMES // 2
        worker.send_signal(signal.SIGCONT)  # it finishes the games it holds meanwhile
        resumed = p.start("resumed", "tournament", "--resume", "1", "--bus", BROKER, "--db", db)
        assert resumed.wait(180) == 0, p.err("resumed")
        games_before = 2 * stored_before
        assert f"started: {ROBIN_GAMES} games to play ({games_before} done before)" in p.err(
            "resumed"
        )
        printed = p.out("resumed").splitlines()
        assert f"{stored_before} stored before resuming" in printed[0]
        header = printed[0].replace(f"; {stored_before} stored before resuming", "")
        same_standings([header, *printed[1:]], local_lines)
        t, by_worker = asyncio.run(_stored(db))
        assert len(by_worker) == ROBIN_GAMES == _count(path, "tournament_jobs")
        assert stored_outcome(t) == stored_outcome(local)
    finally:
        assert p.stop() == {}


def _count(path: Path, table: str) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path, timeout=10) as conn:
        try:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        except sqlite3.OperationalError:  # not created yet
            return 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--bus", "http://x"], "not an mqtt://[USER:PASSWORD@]HOST:PORT URL"),
        (["--bus", BROKER, "--workers", "0"], "--workers must be at least 1"),
        (["--bus", BROKER, "--name", "w" * 65], "--name must be 1 to 64 characters"),
    ],
)
def test_bad_worker_flags_are_clear_errors(
    flags: list[str], message: str, tmp_path: Path, capsys: Any
) -> None:
    assert main(["worker", *flags, "--db", f"sqlite:///{tmp_path}/w.db"]) == 2
    assert message in capsys.readouterr().err
