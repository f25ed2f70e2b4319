"""The one write path to the database: a single task commits every write.

Writes queue up while a transaction is being committed and go together in the
next one (group commit), so many tables each wait for their own durable commit
without one transaction per action, and the process never has two writers
competing for SQLite's one write lock.  Consecutive row inserts into one table
(the action log's appends) go to the driver as one executemany, so a busy
server pays the per-statement cost once per batch, not once per action.  A
batch that fails on a transient error (a lock held by another process, a
dropped connection) is retried with backoff within a bounded time; a batch that
fails otherwise is split so that only the write at fault fails.  Under a stream
of writes a batch starts no sooner than ``commit_window`` after the one before,
so each commit serves many tables; a write that finds the writer idle is
committed at once.  Every caller learns the outcome of its own write: a commit
that did not happen is never reported as done, nor swallowed.

Operations are plain functions of a synchronous SQLAlchemy connection.  With
PostgreSQL they run inside the async connection (``run_sync``).  With SQLite the
writer keeps one plain (pysqlite) connection open across batches and sends its
inserts as driver SQL with the columns' own bind processors applied (the stored
text is what SQLAlchemy would write).  A batch of nothing but row inserts (the
action log's appends, the common case under load) is committed on the event
loop itself: in WAL mode with ``synchronous=NORMAL`` such a commit appends a few
pages to the log and waits for no disk, and handing it to a thread cost more
than the commit (the wake-ups and the interpreter lock passed back and forth).
What could wait stays off the loop: the connection never waits for a lock
(``busy_timeout=0``: a busy database is retried with the writer's own backoff),
never checkpoints on commit (``wal_autocheckpoint=0``: the log is copied into
the database by a passive checkpoint on the writer's thread every
``checkpoint_every`` commits, which writers do not wait for), and every other
batch (creating games, imports, results: any size) runs on that thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Column, Connection, Dialect, Engine, Table, insert
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger("cardtable.store")
T = TypeVar("T")
Op = Callable[[Connection], Any]


class StorageError(Exception):
    """A write that was not committed (after retries): nothing of it is stored."""


@dataclass(frozen=True)
class Insert:
    """A write that inserts one row into ``table``, then runs ``then`` (if any) in
    the same transaction; its result is None.  Consecutive inserts into one table
    in a batch are sent as one statement."""

    table: Table
    row: dict[str, Any]
    then: Op | None = None


@dataclass
class _Pending:
    op: Op | Insert
    future: asyncio.Future[Any]


class FileGone(StorageError):
    """The SQLite file (or its write-ahead log) was removed or replaced under the
    server: a commit would go to a file nobody will open again."""


class _FileWatch:
    """The SQLite file as the first commit found it, and its write-ahead log as the
    first commit on the writer's current connection found it (closing the last
    connection deletes the log, so a new connection may meet a new one); each
    later commit checks they are still the ones at their paths."""

    def __init__(self, engine: Engine | None) -> None:
        name = engine.url.database if engine is not None else None
        self.paths = None if name in (None, "", ":memory:") else (name, f"{name}-wal")
        self.main: tuple[int, int] | None = None
        self.wal: tuple[int, int] | None = None
        self.gone = False

    @staticmethod
    def _id(path: str) -> tuple[int, int] | None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def committed(self) -> None:
        if self.paths is not None:
            self.main = self.main or self._id(self.paths[0])
            self.wal = self.wal or self._id(self.paths[1])

    def reconnected(self) -> None:
        self.wal = None

    def check(self) -> None:
        if self.paths is None or self.main is None:
            return
        if self.gone or self._id(self.paths[0]) != self.main or (
                self.wal is not None and self._id(self.paths[1]) != self.wal):
            if not self.gone:
                log.error("the database file %s or its -wal was removed or replaced while "
                          "the server ran: writes are refused; restore the file and restart",
                          self.paths[0])
            self.gone = True
            raise FileGone(f"the database file {self.paths[0]} was removed or replaced "
                           "while the server ran; restart the server")


def _said(exc: BaseException) -> str:
    """What the database driver said, on one line, without the statement."""
    said = str(exc.orig if isinstance(exc, DBAPIError) else exc).strip()
    return (said.splitlines() or [type(exc).__name__])[0][:300]


def transient(exc: BaseException) -> bool:
    """Whether retrying the same transaction may succeed: a busy/locked SQLite
    file, a lost or refused connection, a serialization failure."""
    if isinstance(exc, IntegrityError | FileGone):
        return False  # a constraint the same write breaks again; a file gone stays gone
    if isinstance(exc, OperationalError):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    # The driver's own words only: str(exc) quotes the statement's parameters, and a
    # player called "busy" must not make a failing write be retried for seconds.
    text = str(exc.orig if isinstance(exc, DBAPIError) else exc).lower()
    return "locked" in text or "busy" in text or "connection" in text


class Writer:
    """Runs write operations in batched transactions on one task."""

    def __init__(
        self,
        engine: AsyncEngine,
        sync_engine: Engine | None = None,
        *,
        retry_for: float = 10.0,
        max_batch: int = 512,
        commit_window: float = 0.005,
        checkpoint_every: int = 200,
    ) -> None:
        self.engine = engine
        self.sync_engine = sync_engine
        self._thread: ThreadPoolExecutor | None = None
        if sync_engine is not None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="cardtable-writer")
        self.retry_for = retry_for
        self.max_batch = max_batch
        self.commit_window = commit_window
        self.commits = 0  # transactions committed, for tests and the curious
        # SQLite: commits since the last checkpoint; the one running, if any.
        self.checkpoint_every = checkpoint_every
        self.checkpoints = 0  # checkpoints done, for tests and the curious
        self._since_checkpoint = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._checkpoint_conn: Connection | None = None  # on the writer's thread
        self._last_start = float("-inf")  # loop time the last batch began
        # SQLite's writer connection: used by the loop or the thread, one batch at a time.
        self._conn: Connection | None = None
        self._inserts: dict[tuple[Table, tuple[str, ...]], _DriverInsert] = {}
        self._file = _FileWatch(sync_engine)
        self._queue: list[_Pending] = []
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    async def run(self, op: Callable[[Connection], T] | Insert) -> T:
        """Commit ``op`` (in a transaction shared with other writes); its result
        once committed, else :class:`StorageError` (or the op's own error)."""
        if self.closed:
            raise StorageError("the store is closed")
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(op, fut))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="cardtable-writer")
        # Not shielded: a caller cancelled while waiting cancels only its future;
        # the write stays queued and is committed all the same.
        return await fut

    async def close(self) -> None:
        """Commit what is queued, then refuse further writes."""
        if self._task is not None:
            await asyncio.shield(self._task)
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._thread is not None and not self.closed:
            # On the thread: closing SQLite's last connection checkpoints the log.
            await asyncio.wrap_future(self._thread.submit(self._disconnect))
        self.closed = True
        if self._thread is not None:
            self._thread.shutdown(wait=True)
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            # A wait here costs a human nothing (5 ms) and, under load, gathers
            # the writes of many tables into one commit: about a sixth less CPU per action.
            wait = self._last_start + self.commit_window - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last_start = loop.time()
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            try:
                await self._commit_with_retries(batch)
            except Exception as exc:
                if len(batch) == 1:
                    _fail(batch[0], exc)
                    continue
                # Isolate the write at fault: each alone, so the others still land.
                for item in batch:
                    try:
                        await self._commit_with_retries([item])
                    except Exception as single:
                        _fail(item, single)

    async def _commit_with_retries(self, batch: list[_Pending]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.retry_for
        delay = 0.01
        attempt = 0
        while True:
            attempt += 1
            try:
                results = await self._commit(batch)
            except Exception as exc:
                if not transient(exc) or loop.time() + delay > deadline:
                    if transient(exc):
                        log.error("write failed after %d attempts: %s", attempt, _said(exc))
                        raise StorageError(
                            f"the database refused the write: {_said(exc)}") from exc
                    raise
                # Once per failing write, in the driver's words: the statement and its
                # parameters, 25 times over, buried the log of a locked file.
                (log.warning if attempt == 1 else log.debug)(
                    "write attempt %d failed (%s); retrying", attempt, _said(exc))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                continue
            self.commits += 1
            for item, value in zip(batch, results, strict=True):
                if not item.future.done():
                    item.future.set_result(value)
            return

    async def _commit(self, batch: list[_Pending]) -> list[Any]:
        if self.sync_engine is None:
            async with self.engine.begin() as conn:
                return await conn.run_sync(_apply, batch)
        self._file.check()
        if all(isinstance(item.op, Insert) for item in batch):
            results = self._commit_sync(batch)  # on the loop: see the module's docstring
        else:
            loop = asyncio.get_running_loop()
            results = await loop.run_in_executor(self._thread, self._commit_sync, batch)
        self._file.committed()
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.checkpoint_every and self._checkpoint is None:
            self._start_checkpoint()
        return results

    def _start_checkpoint(self) -> None:
        self._since_checkpoint = 0
        loop = asyncio.get_running_loop()
        self._checkpoint = fut = loop.run_in_executor(self._thread, self._checkpoint_sync)
        fut.add_done_callback(self._checkpointed)

    def _checkpointed(self, fut: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if fut.cancelled():
            return
        if fut.exception() is not None:
            # Not fatal: the log keeps every commit, and the next try may succeed.
            log.warning("SQLite checkpoint failed: %s", fut.exception())
        else:
            self.checkpoints += 1

    def _checkpoint_sync(self) -> None:
        """Copy the log's committed pages into the database (PASSIVE: it waits for
        no reader and no writer), on a connection of the writer's thread."""
        assert self.sync_engine is not None
        if self._checkpoint_conn is None:
            self._checkpoint_conn = self.sync_engine.connect()
        self._checkpoint_conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        self._checkpoint_conn.commit()

    def _connect(self) -> Connection:
        assert self.sync_engine is not None
        conn = self.sync_engine.connect()
        # A busy database is retried by the writer's backoff, never waited for
        # in SQLite (the commit may run on the event loop); the log is
        # checkpointed by the writer's thread, never by a commit.
        conn.exec_driver_sql("PRAGMA busy_timeout=0")
        conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        conn.commit()  # ends SQLAlchemy's autobegun transaction; batches begin their own
        return conn

    def _commit_sync(self, batch: list[_Pending]) -> list[Any]:
        if self._conn is None:
            self._conn = self._connect()
        conn = self._conn
        try:
            with conn.begin():
                return _apply(conn, batch, self._driver_insert)
        except BaseException:
            # The next batch starts on a fresh connection, whatever this one's state.
            self._drop_connection()
            raise

    def _disconnect(self) -> None:
        self._drop_connection()
        if self._checkpoint_conn is not None:
            ckpt, self._checkpoint_conn = self._checkpoint_conn, None
            ckpt.close()

    def _drop_connection(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()
            self._file.reconnected()

    def _driver_insert(self, conn: Connection, run: list[Insert]) -> bool:
        """Send ``run`` as driver SQL; False where only ``insert()`` will do."""
        keys = tuple(run[0].row)
        if any(tuple(op.row) != keys for op in run[1:]):
            return False
        plan = self._inserts.get((run[0].table, keys))
        if plan is None:
            plan = self._inserts[(run[0].table, keys)] = _DriverInsert.plan(
                conn, run[0].table, keys
            )
        if plan is _NO_PLAN:
            return False
        params = [plan.values(op.row) for op in run]
        conn.exec_driver_sql(plan.sql, params if len(params) > 1 else params[0])
        return True


@dataclass(frozen=True)
class _DriverInsert:
    """An insert of given columns as the driver's SQL, with each column's bind
    processor (JSON text, the dialect's datetime format) applied as ``insert()``
    would."""

    sql: str
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]

    @staticmethod
    def plan(conn: Connection, table: Table, keys: tuple[str, ...]) -> _DriverInsert:
        columns = [table.c[k] for k in keys]
        if conn.dialect.paramstyle != "qmark" or any(
            c.default is not None or c.onupdate is not None
            for c in table.columns if c.name not in keys
        ):
            return _NO_PLAN  # Python-side defaults are insert()'s to fill in
        names = ", ".join(conn.dialect.identifier_preparer.quote(k) for k in keys)
        marks = ", ".join("?" for _ in keys)
        return _DriverInsert(
            f"INSERT INTO {conn.dialect.identifier_preparer.format_table(table)} "
            f"({names}) VALUES ({marks})",
            keys,
            tuple(_bind_processor(c, conn.dialect) for c in columns),
        )

    def values(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row[k] if p is None else p(row[k])
            for k, p in zip(self.keys, self.processors, strict=True)
        )


_NO_PLAN = _DriverInsert("", (), ())

# SQLite's default DATETIME text, "YYYY-MM-DD HH:MM:SS.ffffff" without a zone.
_SQLITE_DATETIME = (
    "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
)


def _bind_processor(column: Column[Any], dialect: Dialect) -> Callable[[Any], Any] | None:
    """The column's bind processor as ``insert()`` applies it; for SQLite's
    default DATETIME text the same string from ``isoformat``, as the dialect's
    %-formatting of a dict was a fifth of the writer's thread per action."""
    impl = column.type.dialect_impl(dialect)
    general = impl.bind_processor(dialect)
    if general is None or getattr(impl, "_storage_format", None) != _SQLITE_DATETIME:
        return general

    def sqlite_datetime(value: Any) -> Any:
        if type(value) is datetime:
            return value.isoformat(" ", "microseconds")[:26]  # the zone's "+00:00" cut
        return general(value)

    return sqlite_datetime


def _apply(
    conn: Connection,
    batch: list[_Pending],
    driver_insert: Callable[[Connection, list[Insert]], bool] | None = None,
) -> list[Any]:
    """Every write of ``batch`` in the open transaction; their results."""
    results: list[Any] = []
    i = 0
    while i < len(batch):
        op = batch[i].op
        if not isinstance(op, Insert):
            results.append(op(conn))
            i += 1
            continue
        run = _insert_run(batch, i)
        if driver_insert is None or not driver_insert(conn, run):
            conn.execute(insert(op.table), [item.row for item in run])
        for item in run:
            results.append(item.then(conn) if item.then is not None else None)
        i += len(run)
    return results


def _insert_run(batch: list[_Pending], start: int) -> list[Insert]:
    """The inserts into one table that follow each other in ``batch`` from ``start``."""
    first = batch[start].op
    assert isinstance(first, Insert)
    run = [first]
    for item in batch[start + 1 :]:
        if not isinstance(item.op, Insert) or item.op.table is not first.table:
            break
        run.append(item.op)
    return run


def _fail(item: _Pending, exc: BaseException) -> None:
    if not item.future.done():
        item.future.set_exception(exc)
