"""The bot pool: warm when the server starts, rebuilt once when a worker dies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bots.base import BOTS
from engine.rng import Rng
from rules.registry import get_game
from server import botpool
from server.app import Server
from server.botpool import BotRunner
from tests.server.conftest import make_settings


def whist_turn(seed: int = 7) -> tuple[dict[str, Any], list[Any], int]:
    """The view, legal actions and seat of the first turn of a whist deal."""
    game = get_game("whist")
    state = game.new(game.parse_config({}), seed)
    seat = game.to_act(state)[0]
    return dict(game.view(state, seat)), [dict(a) for a in game.legal(state, seat)], seat


def children_of(pid: int) -> set[int]:
    """Every live descendant of ``pid``."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != b"Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - found
        found |= frontier
    return found


@pytest.fixture
async def runner() -> AsyncIterator[BotRunner]:
    r = BotRunner(workers=2, budget=10.0)
    await r.start()
    try:
        yield r
    finally:
        await r.close()


def kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


async def test_the_workers_run_and_are_warm_when_start_returns(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    server = Server(make_settings(sqlite_url, bot_workers=2))
    await server.start()
    try:
        workers = server.bots.worker_pids()
        assert len(workers) == 2 and set(workers) <= children_of(os.getpid())
        view, legal, seat = whist_turn()
        with caplog.at_level(logging.WARNING, "cardtable.bots"):
            action = await server.bots.decide("whist", "heuristic", view, legal, seat, 1)
        assert action in legal and not caplog.records
    finally:
        await server.stop()
    # Stopping the server stops its workers.
    assert not set(workers) & children_of(os.getpid())


async def test_a_dead_worker_costs_stand_ins_and_one_new_pool(
    runner: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    view, legal, seat = whist_turn()
    old_pool, old_workers = runner.pool, runner.worker_pids()
    # Freeze the workers so that two decisions are in flight (one on each worker) and two
    # wait for a free worker when one of them dies
    # (a stopped process ignores every signal but SIGKILL: kill them all at the end).
    for pid in old_workers:
        os.kill(pid, signal.SIGSTOP)
    try:
        with caplog.at_level(logging.WARNING, "cardtable.bots"):
            jobs = [
                asyncio.create_task(runner.decide("whist", "heuristic", view, legal, seat, n))
                for n in range(4)
            ]
            await asyncio.sleep(0.2)
            kill(old_workers[:1])
            actions = await asyncio.wait_for(asyncio.gather(*jobs), 5)
    finally:
        kill(old_workers)
    # The two decisions on the workers got the stand-in (the same one a late bot
    # gets); the two waiting for a free worker were played on the new pool.
    stand_in = get_game("whist").stand_in
    assert actions[:2] == [stand_in(legal, Rng(n)) for n in range(2)]
    assert all(a in legal for a in actions[2:])
    # The broken pool was replaced once, not once per failed decision.
    assert runner.rebuilds == 1 and runner.pool is not old_pool
    assert sum("replacing the bot pool" in r.getMessage() for r in caplog.records) == 1

    # Later decisions run on the new pool's workers.
    caplog.clear()
    with caplog.at_level(logging.WARNING, "cardtable.bots"):
        action = await runner.decide("whist", "heuristic", view, legal, seat, 9)
    assert action in legal and not caplog.records
    assert runner.rebuilds == 1
    new_workers = runner.worker_pids()
    assert new_workers and not set(new_workers) & set(old_workers)


async def test_a_bot_that_cannot_decide_gets_the_stand_in_without_an_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(
        BOTS, "whist", {**BOTS["whist"], "undecided": "tests.server.slow_bot:UndecidedBot"}
    )
    runner = BotRunner(workers=0, budget=5.0)  # in a thread: the patched registry applies
    view, legal, seat = whist_turn()
    try:
        with caplog.at_level(logging.INFO, "cardtable.bots"):
            action = await runner.decide("whist", "undecided", view, legal, seat, 3)
    finally:
        await runner.close()
    assert action == get_game("whist").stand_in(legal, Rng(3))
    # An answer of None is the bot's way to say so, not a failure.
    assert [r.levelno for r in caplog.records] == [logging.INFO]


def _pid_and_parent() -> tuple[int, int]:
    return os.getpid(), os.getppid()


def test_a_forked_pool_process_whose_parent_is_already_gone_exits() -> None:
    """A pool process checks, once it has asked to die with its parent, that the
    parent it was forked by is still its parent: one killed in between would never
    send the signal, and the process would wait for work for ever."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from server.lifeline import die_with_parent, process_pool

    with process_pool(1) as pool:
        pid, parent = pool.submit(_pid_and_parent).result(timeout=30)
        assert parent == os.getpid() and pid != os.getpid()
    # Named parent not its own: as after the real one died before the check.
    fork = multiprocessing.get_context("fork")
    with (
        ProcessPoolExecutor(1, mp_context=fork, initializer=die_with_parent,
                            initargs=(os.getpid() + 1_000_000,)) as pool,
        pytest.raises(BrokenProcessPool),
    ):
        pool.submit(_pid_and_parent).result(timeout=30)


async def test_the_budget_counts_thinking_not_waiting_for_a_free_worker() -> None:
    """Four tables ask one worker at once for a bot that thinks 0.3 s of its 0.5 s:
    every one gets the bot's own move, none the stand-in for its wait."""
    runner = BotRunner(workers=0, budget=0.5)
    view, legal, seat = whist_turn()
    try:
        actions = await asyncio.gather(*(
            runner.attempt("whist", "tests.server.slow_bot:ThinkingBot", view, legal, seat, n)
            for n in range(4)
        ))
    finally:
        await runner.close()
    assert actions == [legal[-1]] * 4


async def test_a_hung_bot_s_worker_is_stopped_and_replaced() -> None:
    runner = BotRunner(workers=1, budget=0.2, hung_after=1.0)
    await runner.start()
    view, legal, seat = whist_turn()
    try:
        (hung_worker,) = runner.worker_pids()
        assert await runner.attempt(
            "whist", "tests.server.slow_bot:HungBot", view, legal, seat, 1) is None
        # The next decision waits for the worker, which never comes free: after
        # hung_after the worker is stopped and a new one plays the moves (the first
        # may miss its 0.2 s while the new process starts on a busy machine).
        actions = []
        for n in range(10):
            actions.append(await asyncio.wait_for(
                runner.attempt("whist", "heuristic", view, legal, seat, 2 + n), 30))
            if actions[-1] is not None:
                break
        assert actions[-1] in legal and runner.rebuilds == 1
        assert hung_worker not in children_of(os.getpid())
    finally:
        await runner.close()


async def test_a_failing_bot_s_traceback_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runner = BotRunner(workers=0, budget=5.0)
    view, legal, seat = whist_turn()
    try:
        with caplog.at_level(logging.WARNING, "cardtable.bots"):
            for n in range(3):
                assert await runner.attempt(
                    "whist", "tests.server.slow_bot:RaisingBot", view, legal, seat, n) is None
    finally:
        await runner.close()
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert "this bot has a bug" in caplog.text
    assert ["failed again" in r.getMessage() for r in caplog.records[1:]] == [True, True]


async def test_warming_a_bot_keeps_its_first_decision_in_each_worker_within_budget() -> None:
    bot = "tests.server.slow_bot:ColdBot"
    view, legal, seat = whist_turn()
    cold = BotRunner(workers=2, budget=0.5)
    await cold.start()
    try:
        assert await cold.attempt("whist", bot, view, legal, seat, 1) is None
    finally:
        await cold.close()
    warm = BotRunner(workers=2, budget=0.5)
    await warm.start()
    try:
        await warm.warm("whist", {}, [bot])
        actions = await asyncio.gather(*(
            warm.attempt("whist", bot, view, legal, seat, n) for n in range(4)))
    finally:
        await warm.close()
    assert actions == [legal[-1]] * 4


async def test_a_bot_stuck_in_its_first_decision_has_its_workers_replaced_and_the_rest_warm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(botpool, "WARM_UP_WAIT", 2.0)  # the cold bot takes a second
    stuck, cold = "tests.server.slow_bot:FirstCallHangs", "tests.server.slow_bot:ColdBot"
    view, legal, seat = whist_turn()
    runner = BotRunner(workers=2, budget=0.5)
    await runner.start()
    try:
        first = set(runner.worker_pids())
        await asyncio.wait_for(runner.warm("whist", {}, [stuck, cold]), 25)
        # The workers holding the stuck call are gone; the new ones are warm for the other.
        assert runner.rebuilds == 1 and not first & children_of(os.getpid())
        actions = await asyncio.gather(*(
            runner.attempt("whist", cold, view, legal, seat, n) for n in range(4)))
        assert actions == [legal[-1]] * 4
    finally:
        await runner.close()
