"""What a table does about absence: a player whose connection ends keeps the seat
for a grace period, then the disconnect policy applies (a stand-in bot, a
forfeit, or waiting); a waiting table nobody changes is abandoned.

A mixin of :class:`server.table.Table`, kept apart so each file stays readable;
it works only on the table's own fields and methods.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from bots.base import default_bot
from engine.events import Event
from engine.game import Game
from protocol.messages import TableError
from server.connection import Connection
from server.mailbox import Mailbox
from server.persistence.writer import StorageError
from server.seats import Seat
from server.table_context import TableContext
from server.table_moves import RETRY_DELAY

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Awaitable, Callable

log = logging.getLogger("cardtable.table")


def stand_ins(events: list[tuple[str, dict[str, Any]]]) -> set[int]:
    """The seats a bot was playing for at the end of a table's events: switched on
    by its player (``autoplay_on``) or by the disconnect policy (``bot_took_over``),
    until the player came back (``human_returned``)."""
    seats: set[int] = set()
    for kind, detail in events:
        if kind in ("autoplay_on", "bot_took_over"):
            seats.add(int(detail["seat"]))
        elif kind == "human_returned":
            seats.discard(int(detail["seat"]))
    return seats


class TableAbsence:
    """Grace periods, the disconnect policy, and abandoning idle waiting tables."""

    ctx: TableContext[Any]
    id: int
    game: Game[Any, Any]
    seats: list[Seat]
    status: str
    viewers: dict[Connection, int]
    touched: float
    queue: Mailbox[Any] | None
    task: asyncio.Task[None] | None

    if TYPE_CHECKING:

        def spawn(self, coro: Awaitable[Any], what: str) -> asyncio.Task[Any]: ...

        async def submit(self, job: Callable[[], Awaitable[Any]]) -> Any: ...

        def schedule_moves(self) -> None: ...

        def _stop_clock(self) -> None: ...

        def _broadcast_info(self) -> None: ...

        def _broadcast_update(self, events: list[Event]) -> None: ...

    async def detach(self, conn: Connection) -> None:
        """``conn`` ended: the actor handles it after what it already has queued
        (a seat's grace period starts); a full queue only forgets the viewer."""
        if self.queue is None or self.task is None or self.task.done():
            return
        try:
            await self.submit(partial(self.disconnected, conn))
        except TableError:
            self.viewers.pop(conn, None)

    async def disconnected(self, conn: Connection) -> None:
        self.viewers.pop(conn, None)
        pid = conn.player_id
        for seat in self.seats:
            if seat.kind == "human" and seat.player_id == pid and pid is not None:
                if any(c.player_id == pid for c in self.viewers):
                    continue  # still here on another connection
                seat.connected = False
                if self.status == "live" and seat.grace is None and seat.stand_in is None:
                    seat.grace = self.spawn(self._grace(seat), f"grace-{seat.index}")
        self._broadcast_info()

    def start_grace(self, seat: Seat) -> None:
        """After a restart, or as a table starts: absent humans get a fresh grace
        period; a seat its player left (no token) has its bot again at once."""
        if seat.kind == "human" and self.status == "live" and seat.token_hash is None:
            seat.stand_in = default_bot(self.game.name)
            return
        if (seat.kind == "human" and self.status == "live" and seat.grace is None
                and seat.stand_in is None):  # a bot already plays for it (autoplay)
            seat.grace = self.spawn(self._grace(seat), f"grace-{seat.index}")

    async def _grace(self, seat: Seat) -> None:
        await self.ctx.clock.sleep(self.ctx.settings.grace)

        async def expire() -> None:
            if not seat.connected and self.status == "live":
                await self._apply_policy(
                    seat, "grace_expired", self.ctx.settings.disconnect_policy
                )
            seat.grace = None

        # A failed write must not leave the seat waiting for ever: try again.
        while True:
            try:
                await self.submit(expire)
                return
            except (StorageError, TableError) as exc:
                log.warning("table %d seat %d: grace expiry deferred: %s", self.id, seat.index, exc)
                await self.ctx.clock.sleep(RETRY_DELAY)

    async def _apply_policy(self, seat: Seat, why: str, policy: str) -> None:
        detail = {"seat": seat.index, "player": seat.player_id, "why": why, "policy": policy}
        log.info("table %d seat %d: %s -> %s", self.id, seat.index, why, policy)
        if policy == "bot":
            await self.ctx.store.log_table_event(self.id, "bot_took_over", detail)
            seat.stand_in = default_bot(self.game.name)
            self._broadcast_info()
            self.schedule_moves()
        elif policy == "forfeit":
            result = {"forfeit": seat.index, "summary": f"seat {seat.index} forfeited"}
            await self.ctx.store.log_table_event(self.id, "forfeit", detail)
            await self.ctx.store.set_status(self.id, "abandoned", result)
            self.status = "abandoned"
            self._stop_clock()
            self._broadcast_update([])
            self._broadcast_info()
        else:
            await self.ctx.store.log_table_event(self.id, "waiting_for_player", detail)

    async def set_autoplay(self, seat: Seat, on: bool) -> None:
        """A player's own switch: the game's default bot plays for the seat until
        the player switches it off or acts again (the same stand-in an absent
        player gets, so nothing in the game or the log depends on it)."""
        detail = {"seat": seat.index, "player": seat.player_id}
        if on and seat.stand_in is None:
            await self.ctx.store.log_table_event(self.id, "autoplay_on", detail)
            seat.stand_in = default_bot(self.game.name)
            self._broadcast_info()
            self.schedule_moves()
        elif not on and seat.stand_in is not None:
            await self._human_returned(seat)

    async def _human_returned(self, seat: Seat) -> None:
        detail = {"seat": seat.index, "player": seat.player_id}
        await self.ctx.store.log_table_event(self.id, "human_returned", detail)
        seat.stand_in = None
        self._broadcast_info()

    # waiting tables nobody starts

    async def _reap_when_idle(self) -> None:
        """Abandon a waiting table after ``waiting_timeout`` seconds without a
        change, so neither memory nor the lobby fills with tables nobody starts."""
        timeout = self.ctx.settings.waiting_timeout
        while self.status == "waiting":
            idle = self.ctx.clock.now() - self.touched
            if idle < timeout:
                await self.ctx.clock.sleep(timeout - idle)
                continue
            try:
                await self.submit(self._abandon_waiting)
            except (StorageError, TableError):
                await self.ctx.clock.sleep(RETRY_DELAY)

    async def _abandon_waiting(self) -> None:
        if self.status != "waiting" or self.ctx.clock.now() - self.touched < (
            self.ctx.settings.waiting_timeout
        ):
            return
        result = {"summary": "never started"}
        await self.ctx.store.set_status(self.id, "abandoned", result)
        self.status = "abandoned"
        log.info("table %d: waiting too long without a start; abandoned", self.id)
        self._broadcast_info()
        self.ctx.on_finished(self, 0.0)
