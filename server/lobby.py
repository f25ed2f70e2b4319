"""The lobby: the registry of tables in memory, the list players pick from, the
connections watching that list, the cap on waiting tables per player, and the
reaping of tables whose game is over."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from protocol import builders as p
from protocol.messages import ErrorCode, TableError
from server.clock import Clock
from server.connection import Connection
from server.jsontext import encode
from server.table import Table

OPEN = ("waiting", "live")  # the statuses the lobby lists


class Lobby:
    def __init__(self, clock: Clock, max_waiting: int) -> None:
        self.clock = clock
        self.max_waiting = max_waiting  # waiting tables one player may have created
        self.tables: dict[int, Table] = {}
        self.watchers: set[Connection] = set()  # connections that asked for the list
        self._reapers: set[asyncio.Task[None]] = set()

    def add(self, table: Table) -> None:
        self.tables[table.id] = table

    def get(self, table_id: int) -> Table:
        """The live table ``table_id``; ``unknown_table`` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(ErrorCode.UNKNOWN_TABLE, f"no live table {table_id}")
        return table

    def listing(self) -> list[dict[str, Any]]:
        """The open tables, as the ``tables`` message lists them."""
        return [t.info() for t in self.tables.values() if t.status in OPEN]

    def seats_of(self, player: int) -> list[dict[str, Any]]:
        """The seats ``player`` holds at open tables (``welcome`` names them)."""
        return [
            p.seat_claim(t.id, s.index)
            for t in self.tables.values()
            for s in t.seats
            if s.kind == "human" and s.player_id == player and t.status in OPEN
            and s.token_hash is not None  # not a seat its player left
        ]

    def check_waiting_cap(self, player: int) -> None:
        """Refuse a new table to a player who already has too many waiting to start."""
        waiting = sum(
            1 for t in self.tables.values() if t.creator == player and t.status == "waiting"
        )
        if waiting >= self.max_waiting:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"you already have {waiting} tables waiting to start; start or leave one",
            )

    # watchers

    def watch(self, conn: Connection) -> None:
        self.watchers.add(conn)

    def unwatch(self, conn: Connection) -> None:
        self.watchers.discard(conn)

    def changed(self, table: Table, text: bytes | None = None) -> None:
        """Tell watchers not at ``table`` that it changed (``text``: the ``table``
        frame, if already encoded)."""
        watchers = [c for c in self.watchers if c not in table.viewers]
        if not watchers:
            return
        text = text or encode(p.table_status(table.info()))
        for conn in watchers:
            conn.send_text(text)

    # the end of a table

    def finished(self, table: Table, keep: float = 300,
                 dropped: Callable[[], None] | None = None) -> None:
        """Keep a finished table around for ``keep`` seconds (late viewers see
        the result), then drop it (and call ``dropped``)."""

        async def reap() -> None:
            await self.clock.sleep(keep)
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                await table.stop()
                if dropped is not None:
                    dropped()

        task = asyncio.create_task(reap())
        self._reapers.add(task)
        task.add_done_callback(self._reapers.discard)

    async def stop(self) -> None:
        """Stop every table, after the commands each had already accepted."""
        for table in list(self.tables.values()):
            # Only a running actor drains its queue (one whose start failed never will).
            if table.queue is not None and table.task is not None and not table.task.done():
                with contextlib.suppress(TableError):  # a full queue: stop it as it is
                    await table.submit(_noop)
            await table.stop()
        for task in self._reapers:
            task.cancel()


async def _noop() -> None:
    return None
