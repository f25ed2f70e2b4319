"""A distributed tournament (docs/cluster.md, "Distributed tournaments"): a
coordinator hands the deals to two `cardtable worker` processes over the real
Mosquitto; one worker is killed with SIGKILL in the middle of a deal, its deal is
played again by the other, every deal's result is recorded exactly once, and the
standings printed are those of a local run of the same seeds."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bots.arena import derive_seeds, run
from bots.base import make_bot
from rules.registry import get_game
from server.cluster.commands import standings_lines
from server.lifeline import set_parent_death_signal
from tests.server.cluster_procs import BROKER, fresh_database
from tests.server.conftest import PG_URL
from tests.server.serverproc import ROOT, TAG_VARIABLE, new_tag, survivors

pytestmark = pytest.mark.postgres

ARGS = ["--game", "whist", "--bots", "random,heuristic", "--games", "10", "--seed", "5"]
ARGS += ["--options", '{"deals": 6}']


def cardtable(*argv: str, env: dict[str, str], log: Path | None = None) -> subprocess.Popen[bytes]:
    out = log.open("ab") if log is not None else subprocess.PIPE
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "server.cli", *argv],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE if log is None else out,
            stderr=subprocess.PIPE if log is None else out,
            preexec_fn=set_parent_death_signal,
        )
    finally:
        if log is not None and not isinstance(out, int):
            out.close()


def started_job(log: Path, timeout: float = 60) -> int:
    """The first deal a worker's log says it started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if line.endswith(" started") and "job " in line:
                return int(line.rsplit("/", 1)[1].split()[0])
        time.sleep(0.01)
    raise AssertionError("the worker started no job")


def _local_arena_standings() -> list[str]:
    """What the local arena prints for ARGS's lineup and seeds, in this process."""
    game = get_game("whist")
    config = game.parse_config({"deals": 6})
    lineup = ["random", "heuristic", "random", "heuristic"]
    bots = [(f"{name}@{i}", make_bot("whist", name)) for i, name in enumerate(lineup)]
    result = run(game, config, bots, derive_seeds(5, 10), progress=False)
    return standings_lines(game.title, lineup, 10, True, result)


def test_a_killed_workers_deal_is_played_again_and_recorded_once(tmp_path: Path) -> None:
    db = fresh_database(PG_URL, "jobs")
    tag = new_tag()
    env = {**os.environ, "PYTHONPATH": str(ROOT), TAG_VARIABLE: tag}
    env["CARDTABLE_BUS_PREFIX"] = f"test-{uuid.uuid4().hex[:10]}"
    local = _local_arena_standings()
    logs = {w: tmp_path / f"{w}.log" for w in ("w1", "w2")}
    workers = {
        w: cardtable(
            "worker",
            "--bus",
            BROKER,
            "--db",
            db,
            "--workers",
            "1",
            "--name",
            w,
            env=env,
            log=logs[w],
        )
        for w in ("w1", "w2")
    }
    coordinator = None
    try:
        for w in workers:  # both subscribed before the first job is published
            deadline = time.monotonic() + 60
            while "cardtable worker" not in logs[w].read_text(errors="replace"):
                assert time.monotonic() < deadline, f"worker {w} did not start"
                time.sleep(0.05)
        coordinator = cardtable(
            "tournament", *ARGS, "--bus", BROKER, "--db", db, "--retry-after", "3", env=env
        )
        victim = started_job(logs["w1"])
        workers["w1"].send_signal(signal.SIGKILL)  # in the middle of that deal
        out, err = coordinator.communicate(timeout=180)
        assert coordinator.returncode == 0, err.decode()
        printed = out.decode().splitlines()
        # The same deals, games, actions and standings as the local run (not the time).
        assert printed[0].rsplit(",", 1)[0] == local[0].rsplit(",", 1)[0]
        assert printed[1:] == local[1:]
        assert b"handed out again" in err
        rows = asyncio.run(_results(db))
        assert sorted(j for j, _ in rows) == list(range(10))  # each deal's result once
        assert dict(rows)[victim] == "w2"  # the killed worker's deal, played again
    finally:
        if coordinator is not None and coordinator.poll() is None:
            coordinator.kill()
        for proc in workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            proc.wait(30)
        assert survivors(tag) == {}


async def _results(url: str) -> list[tuple[int, str]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT job, worker FROM tournament_jobs"))
            return [(int(j), str(w)) for j, w in rows]
    finally:
        await engine.dispose()
