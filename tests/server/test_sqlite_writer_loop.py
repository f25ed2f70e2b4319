"""SQLite's writer commits the action log's appends on the event loop, so it must
never make the loop wait: not for another process's write lock (a busy database
is retried by the writer's backoff, off SQLite's busy handler) and not for a
checkpoint (the log is copied into the database on the writer's thread)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import Connection

from server.persistence.store import ACTIONS, Store, now
from server.persistence.writer import Insert
from tests.server.test_storage_faults import write_lock


@pytest.fixture
async def store(sqlite_url: str) -> AsyncIterator[Store]:
    s = await Store.open(sqlite_url)
    yield s
    await s.close()


async def longest_stall(during: asyncio.Future[Any]) -> float:
    """The longest the event loop went without running a 10 ms ticker, until
    ``during`` is done."""
    loop = asyncio.get_running_loop()
    longest, last = 0.0, loop.time()
    while not during.done():
        await asyncio.sleep(0.01)
        now = loop.time()
        longest, last = max(longest, now - last), now
    return longest


async def test_appends_blocked_by_another_writer_never_stall_the_event_loop(
    store: Store, sqlite_url: str
) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    await store.append_action(gid, 1, 0, {"n": 1}, "x")  # the connection is open
    async with write_lock(sqlite_url) as release:
        threading.Timer(1.5, release.set).start()
        append = asyncio.ensure_future(store.append_action(gid, 2, 0, {"n": 2}, "x"))
        stall = await longest_stall(append)
        await append
    # SQLite's own busy handler would have held the loop for up to a second.
    assert stall < 0.3, f"the event loop stalled for {stall:.2f} s"
    game = await store.get_game(gid)
    assert game is not None and [a.action for a in game.actions] == [{"n": 1}, {"n": 2}]


async def test_appends_commit_on_the_loop_and_other_writes_on_the_writer_thread(
    store: Store,
) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    threads: dict[str, int] = {}

    def note(what: str) -> Any:
        def op(_conn: Connection) -> None:
            threads[what] = threading.get_ident()
        return op

    row = {"game_id": gid, "seq": 1, "seat": 0, "action": {}, "at": now(), "actor": "x"}
    await store.writer.run(Insert(ACTIONS, row, then=note("append")))
    await store.writer.run(note("other"))
    assert threads["append"] == threading.get_ident()
    assert threads["other"] != threading.get_ident()


def wal_bytes(url: str) -> int:
    path = url.removeprefix("sqlite:///") + "-wal"
    return os.path.getsize(path) if os.path.exists(path) else 0


async def commit_one_by_one(store: Store, n: int) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    for seq in range(1, n + 1):
        await store.append_action(gid, seq, 0, {"n": seq, "pad": "x" * 600}, "x")
        await asyncio.sleep(0.006)  # past the commit window: one commit each


async def test_the_log_is_checkpointed_by_the_writer_not_by_commits(
    tmp_path: Any,
) -> None:
    # The same 150 commits with a checkpoint every 10 and with none: the log only
    # stays short when the writer's thread checkpoints it (commits never do).
    sizes = {}
    for every in (10, 10**9):
        url = f"sqlite:///{tmp_path}/every{every}.db"
        store = await Store.open(url)
        store.writer.checkpoint_every = every
        try:
            await commit_one_by_one(store, 150)
            sizes[every] = wal_bytes(url)
            checkpoints = store.writer.checkpoints
            # A commit that checkpoints would hold the event loop for the copy and
            # its fsync: the writer's own connection never does.
            conn = store.writer._conn
            assert conn is not None
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
            conn.commit()
        finally:
            await store.close()
        if every == 10:
            assert checkpoints >= 5, checkpoints
        else:
            assert checkpoints == 0
    assert sizes[10] * 2 < sizes[10**9], sizes
    # Nothing was lost on the way: every append reads back from a fresh connection.
    con = sqlite3.connect(f"{tmp_path}/every10.db")
    assert con.execute("SELECT count(*) FROM actions").fetchone()[0] == 150
    con.close()
