"""Who serves a database: one single-node server alone, or the nodes of one cluster
together.  Two single-node servers on one database would both resume and play its
live tables (a cluster's leases keep its nodes apart; a single node has none), so a
single node holds the database exclusively and a cluster node shares it with the
other nodes only.

SQLite: an ``flock`` on the database file (SQLite itself locks with ``fcntl``, which
does not meet it).  PostgreSQL: a session advisory lock, held by one connection for
the server's life.  Either goes when the process does, after ``kill -9`` too.
"""

from __future__ import annotations

import contextlib
import fcntl
import os

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.settings import shown_url, sqlite_file

# The advisory lock's key: any number no other program on the database uses.
_PG_KEY = 0x63617264_7461626C  # "cardtabl"


class DatabaseInUse(Exception):
    """Another server serves the database in a way this one cannot share."""


class ServingLock:
    """The database held for serving; :meth:`release` lets it go."""

    def __init__(self, fd: int | None = None, conn: AsyncConnection | None = None) -> None:
        self._fd = fd
        self._conn = conn

    @classmethod
    async def take(cls, engine: AsyncEngine, url: str, *, cluster: bool) -> ServingLock:
        """Hold the database for a single node (``cluster`` False: alone) or a cluster
        node (shared with other nodes); :class:`DatabaseInUse` if it cannot be."""
        path = sqlite_file(url)
        if path is not None:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, (fcntl.LOCK_SH if cluster else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise DatabaseInUse(_in_use(url, cluster)) from None
            return cls(fd=fd)
        if engine.dialect.name != "postgresql":
            return cls()  # in-memory SQLite: nobody else can open it
        conn = await engine.connect()
        call = "pg_try_advisory_lock_shared" if cluster else "pg_try_advisory_lock"
        got = (await conn.execute(text(f"SELECT {call}(:key)"), {"key": _PG_KEY})).scalar()
        await conn.commit()
        if not got:
            await conn.close()
            raise DatabaseInUse(_in_use(url, cluster))
        return cls(conn=conn)

    async def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the flock goes with the descriptor
            self._fd = None
        if self._conn is not None:
            with contextlib.suppress(Exception):  # a connection already lost lost its lock too
                await self._conn.close()
            self._conn = None


def _in_use(url: str, cluster: bool) -> str:
    if cluster:
        return (f"a single-node cardtable server is serving the database {shown_url(url)}: "
                "stop it before starting the cluster's nodes on it")
    return (f"another cardtable server is serving the database {shown_url(url)}: one "
            "server per database (or a cluster of nodes, --bus); stop it first")
