"""What the CLI's commands share: the ``--db`` option, the settings from the
command line and the environment, and the store of an existing database."""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Callable
from typing import Any

from server.settings import Settings, default_db_path, sqlite_file


def add_db(p: argparse.ArgumentParser) -> None:
    """The ``--db`` option."""
    p.add_argument(
        "--db",
        dest="db_url",
        help="database URL (env CARDTABLE_DB_URL; default sqlite:///"
        f"{default_db_path()}, the same wherever the command runs)",
    )


# The largest id a database column holds (a signed 64-bit integer).
MAX_ID = 2**63 - 1


def _whole(text: str, wrong: str, not_a: str) -> int:
    """``text`` as a whole number from 1 to :data:`MAX_ID`, or the argparse error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} {not_a}") from None
    if not 1 <= value <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text} {wrong}")
    return value


def record_id(text: str) -> int:
    """An argparse type for a stored game's or tournament's id: a whole number that
    a database can hold, so that a mistyped one is "no such game", not a crash."""
    return _whole(text, f"is not an id (ids are 1 to {MAX_ID})", "is not an id (a whole number)")


def positive(text: str) -> int:
    """An argparse type for a count of at least 1 (``--limit``)."""
    return _whole(text, "is not a count (1 or more)", "is not a whole number")


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings: the command line's, else the environment's, else the defaults."""
    keys = ("host", "port", "db_url", "log_level", "grace", "disconnect_policy")
    more = ("bot_delay", "bot_workers", "bus", "node", "lease_seconds")
    return Settings.from_env(**{k: getattr(args, k, None) for k in keys + more})


class NoDatabase(Exception):
    """A read command was pointed at a SQLite file that does not exist."""


def with_store(args: argparse.Namespace, fn: Callable[[Any], Any]) -> Any:
    """Run ``fn(store)`` on the configured database, for commands that only read it:
    a missing SQLite file is an error (opening it would create an empty database
    and report no games), raised as :class:`NoDatabase`."""
    from server.persistence.store import Store

    url = settings_of(args).db_url
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise NoDatabase(
            f"error: no database at {path}\n"
            "Name the server's database with --db URL or CARDTABLE_DB_URL "
            f"(the default is {default_db_path()})."
        )

    async def run() -> Any:
        store = await Store.open(url)
        try:
            return await fn(store)
        finally:
            await store.close()

    return asyncio.run(run())


def configure_logging(level: str) -> None:
    """The server's log lines at ``level``; the libraries' line per step (alembic's
    migration plugins at every start, websockets' every connection) only at debug."""
    logging.basicConfig(
        level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if level != "debug":
        for name in ("alembic", "websockets"):
            logging.getLogger(name).setLevel(logging.WARNING)
