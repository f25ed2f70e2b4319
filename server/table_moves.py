"""What moves a table by itself: bots, the turn clock, retries after a failed write.

A mixin of :class:`server.table.Table`, kept apart so each file stays readable;
it works only on the table's own fields and methods.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bots.base import default_bot
from engine.game import Game
from engine.rng import Rng, derive_seed
from protocol.messages import ErrorCode, TableError
from server.persistence.writer import StorageError
from server.seats import Seat
from server.table_context import TableContext
from server.turnclock import TurnClock, bank_detail

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

log = logging.getLogger("cardtable.table")
RETRY_DELAY = 1.0  # seconds before what moves by itself is tried again after a failed write


def stand_in_actor(actor: str) -> str:
    """The logged actor of the game's stand-in move made for ``actor``'s seat: a
    bot's late, failed, undecided or illegal answer (``bot:NAME:stand_in``), or at
    a tournament table an expired turn (``timeout:stand_in``)."""
    return f"{actor}:stand_in"


def is_stand_in(actor: str) -> bool:
    """Whether a logged move was the stand-in's (a forfeited decision)."""
    return actor.endswith(":stand_in")


class TableMoves:
    """Bots to act, humans on the clock, and the retry that keeps a table going."""

    ctx: TableContext[Any]
    id: int
    game: Game[Any, Any]
    seed: int
    seats: list[Seat]
    status: str
    version: int
    state: Any
    turn_seconds: float | None
    timeout_stand_in: bool
    clock: TurnClock | None
    turn_timer: asyncio.Task[None] | None
    thinking: set[tuple[int, int]]
    bot_tasks: set[asyncio.Task[None]]
    retry: asyncio.Task[None] | None

    if TYPE_CHECKING:

        def spawn(self, coro: Awaitable[Any], what: str) -> asyncio.Task[Any]: ...

        async def submit(self, job: Callable[[], Awaitable[Any]]) -> Any: ...

        async def _accept(self, seat: int, action: dict[str, Any], actor: str) -> int: ...

    def retry_soon(self) -> None:
        """A write for something that moves by itself (a bot, a clock) failed:
        schedule the moves again shortly instead of letting the table stall."""
        if self.retry is not None and not self.retry.done():
            return

        async def again() -> None:
            await self.ctx.clock.sleep(RETRY_DELAY)

            async def reschedule() -> None:
                if self.clock is not None:
                    self.clock.version = -1  # a fresh turn for whoever was timed
                self.schedule_moves()

            await self.submit(reschedule)

        self.retry = self.spawn(again(), "retry")

    # bots and the turn clock

    def schedule_moves(self) -> None:
        """Start what moves by itself: bots to act, and the turn clock for humans."""
        if self.status != "live":
            return
        self._schedule_turn_clock()
        for index in self.game.to_act(self.state):
            seat = self.seats[index]
            bot = seat.controller
            key = (index, self.version)
            if bot is None or key in self.thinking:
                continue
            self.thinking.add(key)
            task = asyncio.create_task(self._bot_turn(seat, bot, self.version))
            self.bot_tasks.add(task)
            task.add_done_callback(self.bot_tasks.discard)

    def clock_state(self, viewer: int) -> dict[str, Any] | None:
        """The turn clock as ``viewer`` may see it (None: no clock at this table)."""
        if self.clock is None or self.status != "live":
            return None
        visible = self.game.to_act_visible(self.state, viewer)
        return self.clock.view(self.ctx.clock.now(), visible)

    def _schedule_turn_clock(self) -> None:
        """Time the humans to act at this version (once per version)."""
        clock = self.clock
        if clock is None or clock.version == self.version:
            return
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        humans = tuple(i for i in self.game.to_act(self.state) if self.seats[i].controller is None)
        clock.start(self.version, humans, self.ctx.clock.now())
        self._store_banks()
        if humans:
            self.turn_timer = self.spawn(self._turn_clock(self.version), "clock")

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.settle(self.ctx.clock.now())
            self._store_banks()
        if self.turn_timer is not None:
            self.turn_timer.cancel()

    def _turn_spent(self) -> tuple[float, tuple[str, dict[str, Any]] | None]:
        """Now, and the ``time_bank`` table event of what the turn on the clock spent
        if it ended now (None: nothing), to store with the action that ends it."""
        at = self.ctx.clock.now()
        banks = self.clock.settled(at) if self.clock is not None else {}
        return at, (("time_bank", bank_detail(banks)) if banks else None)

    def _turn_stored(self, at: float) -> None:
        """The turn ended at ``at`` and its bank was stored with its action."""
        if self.clock is not None:
            self.clock.settle(at)
            self.clock.take_changes()

    def _store_banks(self) -> None:
        assert self.clock is not None
        changed = self.clock.take_changes()
        if changed:
            detail = bank_detail(changed)
            self.spawn(self.ctx.store.log_table_event(self.id, "time_bank", detail), "banks")

    async def _turn_clock(self, version: int) -> None:
        assert self.clock is not None
        expiry = self.clock.expiry()
        if expiry is None:
            return
        seconds, seat = expiry
        await self.ctx.clock.sleep(seconds)
        if self.version != version or self.status != "live":
            return
        legal = [dict(a) for a in self.game.legal(self.state, seat)]
        seed = derive_seed(self.seed, version, seat)
        if self.timeout_stand_in:
            bot = "stand_in"
            action: Any = dict(self.game.stand_in(legal, Rng(seed)))
        else:
            bot = default_bot(self.game.name)
            action = await self.ctx.bots.decide(
                self.game.name, bot, self.game.view(self.state, seat), legal, seat, seed
            )

        async def expire() -> None:
            if self.version != version or self.status != "live":
                return  # the player made it after all
            detail = {"seat": seat, "version": version, "seconds": self.turn_seconds}
            log.info("table %d seat %d: turn clock expired", self.id, seat)
            await self.ctx.store.log_table_event(self.id, "turn_timeout", detail)
            try:
                await self._accept(seat, dict(action), f"timeout:{bot}")
            except TableError as exc:
                if exc.code != ErrorCode.ILLEGAL_ACTION:
                    raise
                stand_in = dict(self.game.stand_in(legal, Rng(seed)))
                await self._accept(seat, stand_in, f"timeout:{bot}")

        try:
            await self.submit(expire)
        except (StorageError, TableError) as exc:
            log.warning("table %d: turn clock expiry not stored (%s); retrying", self.id, exc)
            self.retry_soon()

    async def _bot_turn(self, seat: Seat, bot: str, version: int) -> None:
        try:
            await self.ctx.clock.sleep(self.ctx.settings.bot_delay)
            view = self.game.view(self.state, seat.index)
            legal = [dict(a) for a in self.game.legal(self.state, seat.index)]
            if self.version != version or not legal:
                return
            seed = derive_seed(self.seed, version, seat.index)
            action = await self.ctx.bots.attempt(
                self.game.name, bot, view, legal, seat.index, seed
            )

            async def play() -> None:
                if self.version != version or seat.controller != bot or self.status != "live":
                    return
                stand_in = dict(self.game.stand_in(legal, Rng(seed)))
                if action is None:  # late, failed or undecided: logged by the bot pool
                    await self._accept(seat.index, stand_in, stand_in_actor(f"bot:{bot}"))
                    return
                try:
                    await self._accept(seat.index, dict(action), f"bot:{bot}")
                except TableError as exc:
                    if exc.code != ErrorCode.ILLEGAL_ACTION:
                        raise
                    log.warning("bot %s made an illegal move: %s", bot, exc.message)
                    await self._accept(seat.index, stand_in, stand_in_actor(f"bot:{bot}"))

            await self.submit(play)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # Nothing else would move this seat again: retry shortly.  An error, not a
            # warning: a bug that fails every retry stalls the table, and a tournament's
            # server (which shows errors only) must say so.
            log.error("bot turn at table %d failed (%r); retrying", self.id, exc)
            self.retry_soon()
        finally:
            self.thinking.discard((seat.index, version))
