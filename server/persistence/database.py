"""Engines for SQLite and PostgreSQL URLs, and schema upgrades through Alembic."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from server.jsontext import dumps

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def normalize_url(url: str) -> str:
    """Accept plain ``sqlite:///`` / ``postgresql://`` URLs and pick the async driver."""
    u = make_url(url)
    if u.drivername in ("sqlite", "sqlite+pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        u = u.set(drivername="postgresql+asyncpg")
    return u.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets readers (replays, `cardtable games`) run beside the writer.
    # synchronous=NORMAL keeps every commit across a process kill; power loss may
    # drop the last commits, which docs/operations.md states.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    # Short: the writer retries with backoff, and a blocked write holds a thread.
    cur.execute("PRAGMA busy_timeout=1000")
    cur.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` with the pragmas and pool settings we rely on."""
    url = normalize_url(url)
    if is_sqlite(url):
        db_path = make_url(url).database
        if db_path and db_path != ":memory:":
            Path(db_path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, json_serializer=dumps)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


def make_writer_engine(url: str) -> Engine | None:
    """For SQLite, a plain (pysqlite) engine for the writer (server/persistence/
    writer.py): a whole group commit is one call into the driver, on the event
    loop or the writer's thread, instead of one hand-off per driver call.  None
    for other databases (their async driver does the I/O)."""
    if not is_sqlite(url):
        return None
    sync_url = make_url(normalize_url(url)).set(drivername="sqlite+pysqlite")
    engine = create_engine(
        sync_url,
        pool_size=2,
        max_overflow=0,
        # The writer keeps two connections open: its own (used by the event loop
        # or its thread, one at a time) and its checkpointer's; the check is for
        # threads that share.
        connect_args={"check_same_thread": False},
        # The same compact text as the async engine's: a third of the standard
        # library's time for an action's JSON.
        json_serializer=dumps,
    )
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade_sync(url: str, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (blocking; Alembic runs its own loop)."""
    from alembic import command

    command.upgrade(_alembic_config(url), revision)


def downgrade_sync(url: str, revision: str) -> None:
    """Take the schema down to ``revision`` (for operators rolling back a release)."""
    from alembic import command

    command.downgrade(_alembic_config(url), revision)


async def upgrade(url: str, revision: str = "head") -> None:
    """Bring the schema to ``revision`` from async code (in a worker thread)."""
    await asyncio.to_thread(upgrade_sync, url, revision)


async def downgrade(url: str, revision: str) -> None:
    """Take the schema down to ``revision`` from async code."""
    await asyncio.to_thread(downgrade_sync, url, revision)
