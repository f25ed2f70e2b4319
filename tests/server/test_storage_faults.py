"""A database that refuses writes for a while: another process holds SQLite's write
lock.  Writes are retried within bounds; a write that cannot land is refused as a
whole (nothing applied, nothing reported as done); bots carry on once it is back."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from server.persistence.store import Store
from tests.server.conftest import Harness, make_settings, start_harness
from tests.server.test_errors import turn_of


@asynccontextmanager
async def write_lock(url: str) -> AsyncIterator[threading.Event]:
    """Hold the database's write lock from another connection until the event is set
    (or the block ends)."""
    path = url.removeprefix("sqlite:///")
    release = threading.Event()
    held = threading.Event()

    def hold() -> None:
        # A long timeout: the server's writer may be committing when we ask.
        con = sqlite3.connect(path, isolation_level=None, timeout=60)
        con.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(30)
        con.execute("ROLLBACK")
        con.close()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    # Waited for off the event loop: the server may need the loop to finish the
    # commit that holds the lock when we ask for it.
    assert await asyncio.to_thread(held.wait, 60), "could not take the write lock"
    try:
        yield release
    finally:
        release.set()
        await asyncio.to_thread(thread.join, 10)


async def _seat_two(harness: Harness) -> tuple[Any, int, str]:
    c = await harness.client("alice")
    created = await c.request({"type": "create_table", "game": "whist", "seat": 2, "start": True})
    table = created["table"]["table"]
    token = (await c.expect("joined", table=table))["seat_token"]
    await turn_of(harness, table, 2)
    return c, table, token


async def _act(c: Any, table: int, token: str, harness: Harness) -> dict[str, Any]:
    t = harness.server.lobby.tables[table]
    action = dict(t.game.legal(t.state, 2)[0])
    return await c.request(  # type: ignore[no-any-return]
        {
            "type": "act",
            "table": table,
            "seat_token": token,
            "version": t.version,
            "action": action,
        },
        timeout=30,
    )


async def test_a_write_blocked_for_a_while_is_retried_and_lands(
    harness: Harness, sqlite_url: str
) -> None:
    c, table, token = await _seat_two(harness)
    version = harness.server.lobby.tables[table].version
    async with write_lock(sqlite_url) as release:
        threading.Timer(2.5, release.set).start()  # longer than SQLite's own busy wait
        reply = await _act(c, table, token, harness)
    assert reply["type"] == "ack" and reply["version"] == version + 1
    stored = await harness.server.store.get_game(table)
    assert stored is not None and len(stored.actions) >= version + 1


async def test_a_write_that_cannot_land_is_refused_whole_and_can_be_sent_again(
    harness: Harness, sqlite_url: str
) -> None:
    harness.server.store.writer.retry_for = 0.5
    c, table, token = await _seat_two(harness)
    t = harness.server.lobby.tables[table]
    version = t.version
    async with write_lock(sqlite_url):
        reply = await _act(c, table, token, harness)
        assert reply["type"] == "error" and reply["code"] == "storage_unavailable", reply
        assert t.version == version, "nothing of a refused action is applied"
    stored = await harness.server.store.get_game(table)
    assert stored is not None and len(stored.actions) == version
    reply = await _act(c, table, token, harness)
    assert reply["type"] == "ack" and reply["version"] == version + 1


async def test_bots_carry_on_when_the_database_comes_back(sqlite_url: str) -> None:
    h = await start_harness(make_settings(sqlite_url, bot_delay=0.0))
    try:
        h.server.store.writer.retry_for = 0.3
        c = await h.client("watcher")
        async with write_lock(sqlite_url):
            created = await c.request({"type": "create_table", "game": "whist"}, timeout=30)
            assert created["code"] == "storage_unavailable", created
        created = await c.request({"type": "create_table", "game": "whist"})
        table = created["table"]["table"]
        t = h.server.lobby.tables[table]
        await c.request({"type": "start", "table": table})
        while t.version < 5:
            await asyncio.sleep(0.01)
        async with write_lock(sqlite_url):
            stuck = t.version
            await asyncio.sleep(1.5)  # every bot write in this window fails
            assert t.version <= stuck + 1
        # The failed moves are retried a second (on the table's clock) later.
        for _ in range(500):
            if t.status == "finished":
                break
            await h.clock.advance(1.0)
            await asyncio.sleep(0.01)
        assert t.status == "finished"
        stored = await h.server.store.get_game(table)
        assert stored is not None and stored.status == "finished"
        assert [a.seq for a in stored.actions] == list(range(1, t.version + 1))
    finally:
        await h.server.stop()


async def test_writes_of_a_closed_store_are_refused(sqlite_url: str) -> None:
    import pytest

    from server.persistence.writer import StorageError

    store = await Store.open(sqlite_url)
    await store.close()
    with pytest.raises(StorageError):
        await store.create_player("late", "token")
