"""Group commits send the action log's appends as one statement per batch, and a
bad append in a batch still fails alone."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from typing import Any

import pytest
from sqlalchemy import event, insert, select

from server.persistence.database import make_writer_engine
from server.persistence.store import ACTIONS, Store


@pytest.fixture
async def store(db_url: str):
    s = await Store.open(db_url)
    yield s
    await s.close()


def count_inserts(store: Store) -> list[int]:
    """Rows per INSERT INTO actions statement the driver receives, in order."""
    sizes: list[int] = []

    def seen(_c: Any, _cur: Any, statement: str, params: Any, _ctx: Any, many: bool) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
            sizes.append(len(params) if many else 1)

    # SQLite's writer has an engine of its own (one thread hand-off per commit).
    engine = store.writer.sync_engine or store.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    return sizes


async def test_appends_queued_together_are_one_statement(store: Store) -> None:
    gids = [await store.create_game("whist", {}, i, f"t{i}", 4) for i in range(4)]
    sizes = count_inserts(store)
    await asyncio.gather(
        *(store.append_action(g, s, 0, {"n": s}, "bot:x") for g in gids for s in range(1, 11))
    )
    assert sum(sizes) == 40
    # The first append commits alone; the 39 queued behind it go in one batch.
    assert len(sizes) <= 3, sizes
    for g in gids:
        game = await store.get_game(g)
        assert game is not None and [a.action for a in game.actions] == [
            {"n": s} for s in range(1, 11)
        ]


async def test_a_conflicting_append_in_a_batch_fails_alone(store: Store) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    await store.append_action(gid, 1, 0, {"a": 1}, "x")
    results = await asyncio.gather(
        store.append_action(gid, 2, 0, {"a": 2}, "x"),
        store.append_action(gid, 1, 0, {"a": "dup"}, "x"),  # seq 1 is taken
        store.append_action(gid, 3, 0, {"a": 3}, "x"),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Exception)
    game = await store.get_game(gid)
    assert game is not None and [a.action for a in game.actions] == [{"a": i} for i in (1, 2, 3)]


async def test_the_last_action_and_the_end_of_its_game_commit_together(store: Store) -> None:
    a = await store.create_game("whist", {}, 1, "a", 4)
    b = await store.create_game("whist", {}, 2, "b", 4)
    await asyncio.gather(
        store.append_action(a, 1, 0, {}, "x"),
        store.append_action(b, 1, 0, {}, "x", status="finished", result={"summary": "b"}),
        store.append_action(a, 2, 0, {}, "x", status="finished", result={"summary": "a"}),
    )
    for gid, summary in ((a, "a"), (b, "b")):
        game = await store.get_game(gid)
        assert game is not None and game.status == "finished"
        assert game.result == {"summary": summary} and game.finished_at is not None


async def test_sqlites_driver_sql_stores_what_insert_would(sqlite_url: str) -> None:
    """The SQLite writer sends appends as driver SQL, not through ``insert()``;
    the row it stores is the one ``insert()`` stores, byte for byte."""
    store = await Store.open(sqlite_url)
    try:
        engine = store.writer.sync_engine
        assert engine is not None
        compiled: list[bool] = []

        def seen(_c: Any, _cur: Any, statement: str, _p: Any, ctx: Any, _many: bool) -> None:
            if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
                compiled.append(ctx.compiled is not None)

        event.listen(engine, "before_cursor_execute", seen)
        gid = await store.create_game("whist", {}, 1, "t", 4)
        action = {"type": "play", "card": "A♠", "n": [1, None, 2.5], "ok": True}
        await store.append_action(gid, 1, 2, action, "player:7")
        assert compiled == [False]  # driver SQL, not a compiled insert()
        # Another engine: the writer keeps its pool's one connection.
        other = make_writer_engine(sqlite_url)
        assert other is not None
        with other.begin() as c:
            at = c.execute(select(ACTIONS.c.at)).scalar_one()
            c.execute(insert(ACTIONS), [{"game_id": gid, "seq": 2, "seat": 2,
                                         "action": action, "at": at, "actor": "player:7"}])
            rows = c.exec_driver_sql(
                "SELECT seat, action, at, actor FROM actions ORDER BY seq"
            ).all()
        other.dispose()
        assert rows[0] == rows[1]
        game = await store.get_game(gid)
        assert game is not None and game.actions[0].action == action
    finally:
        await store.close()


def test_sqlite_datetime_text_is_the_dialect_s_own() -> None:
    """The writer's DATETIME text for SQLite (from ``isoformat``) is the dialect's
    %-formatted text for every datetime, naive or zoned, with or without
    microseconds, and dates and None go to the dialect's own processor."""
    from sqlalchemy import create_engine

    from server.persistence.writer import _bind_processor

    dialect = create_engine("sqlite://").dialect
    column = ACTIONS.c.at
    ours = _bind_processor(column, dialect)
    theirs = column.type.dialect_impl(dialect).bind_processor(dialect)
    assert ours is not None and theirs is not None and ours is not theirs
    rng = random.Random(7)
    zones = [None, dt.UTC, dt.timezone(dt.timedelta(hours=-5, minutes=-30))]
    for _ in range(20_000):
        value = dt.datetime(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28),
                            rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59),
                            rng.choice([0, 1, 999_999, rng.randint(0, 999_999)]),
                            tzinfo=rng.choice(zones))
        assert ours(value) == theirs(value), value
    assert ours(dt.date(2026, 11, 28)) == theirs(dt.date(2026, 11, 28))
    assert ours(None) is None


async def test_json_the_fast_encoder_refuses_is_stored_all_the_same(store: Store) -> None:
    """An integer wider than 64 bits and a non-string key (which orjson refuses
    without options) are stored as the standard library would read them."""
    gid = await store.create_game("whist", {}, 1, "t", 4)
    action = {"type": "x", "big": 2**70, "keys": {1: "one"}}
    await store.append_action(gid, 1, 0, action, "player:1")
    game = await store.get_game(gid)
    assert game is not None
    assert game.actions[0].action == {"type": "x", "big": 2**70, "keys": {"1": "one"}}


def test_only_the_drivers_words_make_a_failure_worth_retrying() -> None:
    """A constraint broken by a row that says "busy" (a player's name, a job's result)
    fails at once; a locked file or a lost connection is retried."""
    import sqlite3

    from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

    from server.persistence.writer import transient

    fk = sqlite3.IntegrityError("FOREIGN KEY constraint failed")
    assert not transient(IntegrityError("INSERT ...", ('{"busy": 0}',), fk))
    quoted = DBAPIError("INSERT ...", ("connection busy locked",), ValueError("bad value"))
    assert not transient(quoted)
    assert transient(OperationalError("INSERT", (), sqlite3.OperationalError("database is locked")))
    assert transient(DBAPIError("INSERT", (), OSError("connection reset by peer")))


async def test_a_write_retried_is_logged_once_in_the_drivers_words(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A locked file retried many times: one warning, without the statement or its
    parameters (a player's name, a token's hash)."""
    import logging
    import sqlite3

    from sqlalchemy.exc import OperationalError

    failures = iter(range(4))

    def op(c: Any) -> str:
        if next(failures, None) is not None:
            raise OperationalError("INSERT INTO players VALUES (?)", ("hunter2",),
                                   sqlite3.OperationalError("database is locked"))
        return "stored"

    with caplog.at_level(logging.DEBUG, "cardtable"):
        assert await store.writer.run(op) == "stored"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        "write attempt 1 failed (database is locked); retrying"]
    assert "hunter2" not in caplog.text and "INSERT" not in caplog.text


@pytest.mark.parametrize("removed", ["cardtable.db", "cardtable.db-wal"])
async def test_writes_to_a_database_file_removed_under_the_server_are_refused(
    tmp_path: Any, removed: str
) -> None:
    """A file removed while the server runs takes every later commit with it (the
    server wrote to an unlinked file, a restart found no games): they are refused."""
    from server.persistence.writer import StorageError

    store = await Store.open(f"sqlite:///{tmp_path}/cardtable.db")
    try:
        await store.create_player("ann", "t1")
        (tmp_path / removed).unlink()
        with pytest.raises(StorageError, match="was removed or replaced while the server ran"):
            await store.create_player("bob", "t2")
        with pytest.raises(StorageError):  # and stay refused
            await store.create_player("cy", "t3")
    finally:
        await store.close()


def test_a_log_met_anew_after_a_reconnection_is_not_taken_for_a_removal(tmp_path: Any) -> None:
    """Closing the last connection deletes the write-ahead log, so after the writer
    reconnects (a failed batch) the log may be a new file; before, it may not."""
    from sqlalchemy import create_engine

    from server.persistence.writer import FileGone, _FileWatch

    main, wal = tmp_path / "c.db", tmp_path / "c.db-wal"
    main.write_bytes(b"db")
    wal.write_bytes(b"log")
    watch = _FileWatch(create_engine(f"sqlite:///{main}"))
    watch.committed()
    watch.check()

    def new_log() -> None:
        wal.unlink()
        (tmp_path / "other").write_bytes(b"log")  # holds the old inode number apart
        wal.write_bytes(b"log")

    new_log()
    with pytest.raises(FileGone):
        watch.check()
    watch = _FileWatch(create_engine(f"sqlite:///{main}"))
    watch.committed()
    watch.reconnected()
    new_log()
    watch.check()  # nothing to compare the log with until the next commit
    watch.committed()
    watch.check()
