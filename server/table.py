"""A table is an actor: one task, one bounded queue, every mutation in order.

The validation pipeline for an action is, in this order: session (the
connection said hello) → seat token → phase (the game is live) → version (the
action was decided on the current version) → turn → rules.  An accepted action
is committed to the database before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from bots.base import default_bot, make_bot
from engine.errors import IllegalAction
from engine.events import JSON, SPECTATOR, Event, Visibility
from engine.game import Game
from protocol import builders as p
from protocol.messages import ErrorCode, TableError
from server.connection import Connection, Reply
from server.jsontext import encode
from server.mailbox import Mailbox
from server.persistence.store import SeatRecord, token_hash
from server.seats import Seat
from server.table_absence import TableAbsence
from server.table_analyses import TableAnalyses
from server.table_context import TableContext
from server.table_moves import TableMoves
from server.table_votes import TableVotes
from server.turnclock import TurnClock

log = logging.getLogger("cardtable.table")
T = TypeVar("T")
KEEP_FINISHED = 300.0  # seconds a finished table stays in memory (late viewers see the result)


# One version of a table as kept for reconnects: the version, its events, its state.
HistoryEntry = tuple[int, list[Event], Any]

@dataclass(frozen=True, slots=True)
class _Broadcast:
    """What one broadcast's updates share: every receiver's view, the seats that
    may act, and each event's JSON with who may see it."""

    views: dict[int, JSON]
    acting: tuple[int, ...]
    events: list[tuple[Visibility, JSON]]

    def shown(self, viewer: int) -> list[JSON]:
        """The events' JSON ``viewer`` may see, in order."""
        return [event for seen, event in self.events if seen.shows(viewer)]


@dataclass(eq=False)
class Table(TableMoves, TableAbsence, TableVotes, TableAnalyses):
    ctx: TableContext[Table]
    id: int
    name: str
    game: Game[Any, Any]
    config: Any
    seed: int
    seats: list[Seat]
    status: str = "waiting"
    version: int = 0
    state: Any = None
    viewers: dict[Connection, int] = field(default_factory=dict)
    # Recent versions with their events and the state they led to, for reconnects.
    history: deque[HistoryEntry] = field(default_factory=deque)
    queue: Mailbox[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]] | None = None
    task: asyncio.Task[None] | None = None
    thinking: set[tuple[int, int]] = field(default_factory=set)
    bot_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    turn_seconds: float | None = None  # the turn clock; None: no clock
    time_bank: float | None = None  # seconds each seat may overrun over the game
    clock: TurnClock | None = None
    turn_timer: asyncio.Task[None] | None = None
    creator: int | None = None  # the player who created the table (manages it while waiting)
    # Tournament tables: an expired turn gets the game's stand-in, not the default
    # bot's move, so a late remote bot gains nothing from a stronger bot's play.
    timeout_stand_in: bool = False
    touched: float = 0.0  # last change while waiting (idle waiting tables are reaped)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)  # supervised background work
    retry: asyncio.Task[None] | None = None
    # Board number -> the ``analysis`` message of each board analysed this session
    # (re-sent after a snapshot, so late viewers see them too).
    analyses: dict[int, dict[str, Any]] = field(default_factory=dict)
    analysis_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    # Per seat, the actions the rules refused it (how many, the first's reason and
    # message): a tournament tells a websocket bot's author (they cost no move).
    refused: dict[int, tuple[int, str]] = field(default_factory=dict)
    end_votes: set[int] = field(default_factory=set)  # seats agreeing to end the match
    # Viewer -> (version, view) of the last update built for it at the table's
    # version, kept where the narration reads the position before an action (the
    # presentation ``remembers``): the next action's narration starts from it
    # instead of a view built again from the state before (views are pure, and
    # frames never change them).
    last_views: dict[int, tuple[int, JSON]] = field(default_factory=dict)

    @cached_property
    def names(self) -> list[str]:
        """The seats' display names (the game's, fixed by the table's options)."""
        return list(self.game.seat_names(self.config))

    # the actor

    def start_actor(self) -> None:
        self.queue = Mailbox(self.ctx.settings.table_queue)
        self.history = deque(maxlen=self.ctx.settings.history)
        if self.turn_seconds is not None and self.clock is None:
            self.clock = TurnClock.new(self.turn_seconds, self.time_bank, len(self.seats))
        self.touched = self.ctx.clock.now()
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        if self.status == "waiting":
            self.spawn(self._reap_when_idle(), "reaper")

    def spawn(self, coro: Awaitable[Any], what: str) -> asyncio.Task[Any]:
        """Run background work of this table, supervised: it is cancelled with the
        table, and an exception is logged, never lost."""
        task = asyncio.ensure_future(coro)
        task.set_name(f"table-{self.id}-{what}")
        self.tasks.add(task)
        task.add_done_callback(self._reaped)
        return task

    def _reaped(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %d: %s failed", self.id, task.get_name(), exc_info=task.exception())

    async def _run(self) -> None:
        assert self.queue is not None
        await self._finish_if_over()
        while True:
            job, fut = await self.queue.get()
            try:
                result = await job()
            except Exception as exc:
                if not fut.done():
                    fut.set_exception(exc)
            else:
                if not fut.done():
                    fut.set_result(result)

    async def _finish_if_over(self) -> None:
        """Mark a resumed game finished if its log already ends it (a database
        written before the last action and the result were one transaction)."""
        result = self.game.result(self.state) if self.status == "live" else None
        if result is None:
            return
        await self.ctx.store.set_status(self.id, "finished", result.to_json())
        self.status = "finished"
        log.info("table %d: its log ends the game; recorded as finished", self.id)
        self._broadcast_info()
        self.ctx.on_finished(self, KEEP_FINISHED)

    async def submit(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` inside the actor, after everything queued before it."""
        assert self.queue is not None
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        try:
            self.queue.put_nowait((job, fut))
        except asyncio.QueueFull:
            raise TableError(ErrorCode.TABLE_BUSY, "the table is busy; try again") from None
        return await fut

    async def stop(self) -> None:
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        for t in [*self.bot_tasks, *self.analysis_tasks, *self.tasks]:
            t.cancel()
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
        if self.task:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    # information

    def info(self) -> dict[str, Any]:
        names = self.names
        options = self.game.config_json(self.config)
        # A fixed deal's cards are hidden from the players: say only that it is set.
        dealt = [k for k in self.game.dealing_options if options.pop(k, None) is not None]
        return {
            "table": self.id,
            "name": self.name,
            "game": self.game.name,
            "options": options,
            "fixed_deal": bool(dealt),
            "status": self.status,
            "version": self.version,
            "seats": [
                {
                    "seat": s.index,
                    "name": names[s.index],
                    "kind": s.kind,
                    "player": s.player_name,
                    "bot": s.controller,
                    "connected": s.connected if s.kind == "human" else True,
                }
                for s in self.seats
            ],
            "spectators": sum(1 for v in self.viewers.values() if v == SPECTATOR),
            "turn_seconds": self.turn_seconds,
            "time_bank": self.time_bank,
            **self.vote_info(),
        }

    def seat_of_token(self, token: str | None) -> Seat | None:
        if not token:
            return None
        h = token_hash(token)
        return next((s for s in self.seats if s.token_hash == h and s.kind == "human"), None)

    def _legal_for(
        self, viewer: int, acting: tuple[int, ...] | None = None
    ) -> list[Mapping[str, Any]] | None:
        """``viewer``'s legal actions now (``acting``: ``may_act`` of the state, if
        the caller has it)."""
        if self.status != "live" or viewer < 0:
            return None
        # A seat the rules let act out of turn (a bridge claim) gets its legal actions too.
        if viewer not in (self.game.may_act(self.state) if acting is None else acting):
            return None
        # Not copied: the frames built from it are encoded, never changed.
        return list(self.game.legal(self.state, viewer))

    def snapshot(self, viewer: int) -> dict[str, Any]:
        # The cards are dealt when the table is made, but nobody holds a hand until the
        # start: a seated view then would let one player see every seat's cards by
        # joining and leaving each before the start.
        view = self.game.view(self.state, viewer if self.status != "waiting" else SPECTATOR)
        legal = self._legal_for(viewer)
        words = self.game.presentation
        return p.snapshot(
            table=self.id,
            version=self.version,
            seat=viewer if viewer >= 0 else None,
            status=self.status,
            view=view,
            to_act=self._to_act(viewer),
            legal=legal,
            labels=words.labels(view, legal),
            hints=words.hints(view),
            clock=self.clock_state(viewer),
        )

    def _to_act(self, viewer: int) -> list[int]:
        if self.status != "live":
            return []
        return list(self.game.to_act_visible(self.state, viewer))

    # broadcasting

    def _shared(self, state: Any, events: list[Event], viewers: set[int]) -> _Broadcast:
        """What the updates of ``viewers`` for the action that made ``state`` share,
        built once (the seats that may act only for the current state)."""
        return _Broadcast(
            self.game.views(state, viewers),
            self.game.may_act(state) if state is self.state and self.status == "live" else (),
            [(e.visibility, e.to_json()) for e in events],
        )

    def _update(self, viewer: int, version: int, state: Any, shared: _Broadcast) -> dict[str, Any]:
        """The ``update`` for ``viewer`` of the action that made ``version``/``state``
        (``shared``: what it has in common with the other viewers' updates)."""
        current = version == self.version
        live = self.status == "live" or not current
        view = shared.views[viewer]
        legal = self._legal_for(viewer, shared.acting) if current else None
        shown = shared.shown(viewer)
        words = self.game.presentation
        # Events are read from the position they started from (a first card leads);
        # a table resumed after a restart lacks that position for its first action.
        start = view
        if words.remembers:
            start = self._view_before(version, viewer, view)
            if current:
                self.last_views[viewer] = (version, view)
        return p.update(
            table=self.id,
            version=version,
            seat=viewer if viewer >= 0 else None,
            status=self.status if current else "live",
            events=shown,
            narration=words.narration(start, shown, viewer, self.names),
            view=view,
            to_act=list(self.game.to_act_visible(state, viewer)) if live else [],
            legal=legal,
            labels=words.labels(view, legal),
            hints=words.hints(view),
            clock=self.clock_state(viewer) if current else None,
        )

    def _view_before(self, version: int, viewer: int, view: JSON) -> JSON:
        """``viewer``'s view at ``version - 1`` (``view`` itself where the history
        no longer holds that state)."""
        last = self.last_views.get(viewer)
        if last is not None and last[0] == version - 1:
            return last[1]
        before = self._state_at(version - 1)
        return view if before is None else self.game.view(before, viewer)

    def _state_at(self, version: int) -> Any:
        """The state at ``version`` if the history still holds it (versions in the
        history are consecutive), else None."""
        if not self.history:
            return None
        i = version - self.history[0][0]
        if 0 <= i < len(self.history) and self.history[i][0] == version:
            return self.history[i][2]
        return None

    def _broadcast_update(self, events: list[Event]) -> None:
        # Built and encoded once per viewer (every spectator shares one text), from
        # what is the same for every viewer built once.
        receivers = list(self.viewers.items())
        shared = self._shared(self.state, events, {viewer for _, viewer in receivers})
        texts: dict[int, bytes] = {}
        for conn, viewer in receivers:
            text = texts.get(viewer)
            if text is None:
                text = texts[viewer] = encode(
                    self._update(viewer, self.version, self.state, shared)
                )
            conn.send_text(text)

    def _broadcast_info(self) -> None:
        text = encode(p.table_status(self.info()))
        for conn in list(self.viewers):
            conn.send_text(text)
        self.ctx.on_change(self, text)

    # commands (each runs inside the actor via submit)

    async def join(self, reply: Reply, seat_no: int | None) -> None:
        conn = reply.conn
        pid = conn.require_session()
        if self.status != "waiting":
            raise TableError(ErrorCode.ALREADY_STARTED, "the game has started; spectate instead")
        if any(s.player_id == pid for s in self.seats):
            raise TableError(ErrorCode.SEAT_TAKEN, "you already have a seat at this table")
        seat = self._free_seat(seat_no)
        token = secrets.token_urlsafe(24)
        # Stored first: a seat the database lacks is nobody's after a restart.
        await self.ctx.store.set_seat(
            self.id, SeatRecord(seat.index, "human", pid, None, token_hash(token))
        )
        seat.kind, seat.player_id, seat.player_name = "human", pid, conn.name
        seat.token_hash, seat.connected, seat.bot = token_hash(token), True, None
        self.touched = self.ctx.clock.now()
        self.viewers[conn] = seat.index
        conn.tables.add(self)
        reply.send(p.joined(self.id, seat.index, token))
        conn.send(self.snapshot(seat.index))
        self._broadcast_info()
        if all(s.kind != "empty" for s in self.seats):
            await self.start()

    def _free_seat(self, seat_no: int | None) -> Seat:
        if seat_no is None:
            seat = next((s for s in self.seats if s.kind == "empty"), None)
            if seat is None:
                raise TableError(ErrorCode.SEAT_TAKEN, "the table is full")
            return seat
        if not 0 <= seat_no < len(self.seats):
            raise TableError(ErrorCode.BAD_SEAT, f"seats are 0..{len(self.seats) - 1}")
        if self.seats[seat_no].kind != "empty":
            raise TableError(ErrorCode.SEAT_TAKEN, f"seat {seat_no} is taken")
        return self.seats[seat_no]

    def require_manager(self, conn: Connection) -> None:
        """Only the table's creator or a player seated at it may manage a waiting
        table (start it, add or remove bots): a stranger must not fill seats kept
        for friends."""
        pid = conn.require_session()
        if pid == self.creator:
            return
        if any(s.kind == "human" and s.player_id == pid for s in self.seats):
            return
        raise TableError(
            ErrorCode.NOT_ALLOWED, "only the table's creator or its seated players manage it"
        )

    async def add_bot(self, reply: Reply, seat_no: int | None, bot: str | None) -> None:
        self.require_manager(reply.conn)
        if self.status != "waiting":
            raise TableError(ErrorCode.ALREADY_STARTED, "the game has started")
        name = bot or default_bot(self.game.name)
        try:
            make_bot(self.game.name, name)
        except IllegalAction as exc:
            raise TableError(ErrorCode.UNKNOWN_BOT, exc.message) from None
        seat = self._free_seat(seat_no)
        await self.ctx.store.set_seat(self.id, SeatRecord(seat.index, "bot", bot=name))
        seat.kind, seat.bot = "bot", name
        self.touched = self.ctx.clock.now()
        reply.send(p.table_status(self.info()))
        self._broadcast_info()
        if all(s.kind != "empty" for s in self.seats):
            await self.start()

    async def remove_bot(self, reply: Reply, seat_no: int) -> None:
        self.require_manager(reply.conn)
        if self.status != "waiting":
            raise TableError(ErrorCode.ALREADY_STARTED, "the game has started")
        if not 0 <= seat_no < len(self.seats) or self.seats[seat_no].kind != "bot":
            raise TableError(ErrorCode.BAD_SEAT, f"no bot at seat {seat_no}")
        seat = self.seats[seat_no]
        await self.ctx.store.set_seat(self.id, SeatRecord(seat.index, "empty"))
        seat.kind, seat.bot = "empty", None
        self.touched = self.ctx.clock.now()
        reply.send(p.table_status(self.info()))
        self._broadcast_info()

    async def leave(self, reply: Reply) -> None:
        conn = reply.conn
        pid = conn.require_session()
        seat = next((s for s in self.seats if s.player_id == pid and s.kind == "human"), None)
        self.viewers.pop(conn, None)
        conn.tables.discard(self)
        if seat is not None:
            if self.status == "waiting":
                await self.ctx.store.set_seat(self.id, SeatRecord(seat.index, "empty"))
                seat.kind, seat.player_id, seat.player_name = "empty", None, None
                seat.token_hash, seat.connected = None, False
                self.touched = self.ctx.clock.now()
            elif self.status == "live":
                # Leaving a live game gives the seat to a bot for the rest of it (no
                # grace): its token stops working, so the seat cannot be taken back
                # (the seat still names its player, whose moves these were).
                await self.ctx.store.set_seat(
                    self.id, SeatRecord(seat.index, "human", seat.player_id))
                seat.connected, seat.token_hash = False, None
                await self._apply_policy(seat, "left", "bot")
        reply.send(p.left(self.id))
        self._broadcast_info()

    async def spectate(self, reply: Reply) -> None:
        conn = reply.conn
        conn.require_session()
        self.viewers[conn] = SPECTATOR
        conn.tables.add(self)
        reply.send(self.snapshot(SPECTATOR))
        self._send_analyses(conn)
        self._broadcast_info()

    async def start(self) -> None:
        if self.status != "waiting":
            raise TableError(ErrorCode.ALREADY_STARTED, "the game has already started")
        bot = default_bot(self.game.name)
        filled = [SeatRecord(s.index, "bot", bot=bot) for s in self.seats if s.kind == "empty"]
        # The bots that fill the table and the start are one write.
        await self.ctx.store.start_game(self.id, filled)
        for record in filled:
            self.seats[record.seat].kind, self.seats[record.seat].bot = "bot", bot
        self.status = "live"
        for seat in self.seats:
            # A player who left while the table waited is not here to play: the
            # grace period it would have had, live, starts now.
            if seat.kind == "human" and not seat.connected:
                self.start_grace(seat)
        self.history.append((0, self.game.initial_events(self.state), self.state))
        snapshots: dict[int, bytes] = {}
        for conn, viewer in list(self.viewers.items()):
            if viewer not in snapshots:
                snapshots[viewer] = encode(self.snapshot(viewer))
            conn.send_text(snapshots[viewer])
        self._broadcast_info()
        self.schedule_moves()

    async def start_by(self, reply: Reply) -> None:
        """A player's ``start`` request; answered with the table's new status."""
        self.require_manager(reply.conn)
        await self.start()
        reply.send(p.table_status(self.info()))

    async def act(
        self, reply: Reply, seat_token: str, version: int, action: dict[str, Any]
    ) -> int:
        """A player's action; acknowledged from inside the actor, so the ``ack``
        leaves in the same write as the ``update`` it follows."""
        conn = reply.conn
        conn.require_session()
        seat = self.seat_of_token(seat_token)
        if seat is None or seat.player_id != conn.player_id:
            raise TableError(ErrorCode.BAD_SEAT_TOKEN, "that seat token is not yours here")
        if self.status == "waiting":
            raise TableError(ErrorCode.NOT_STARTED, "the game has not started")
        if self.status != "live":
            raise TableError(ErrorCode.GAME_OVER, "the game is over")
        unversioned = (action.get("type") in self.game.unversioned_actions
                       and seat.index not in self.game.to_act(self.state))
        if version != self.version and not unversioned:
            raise TableError(
                ErrorCode.STALE_VERSION, f"the table is at version {self.version}, not {version}"
            )
        if seat.index not in self.game.may_act(self.state):
            raise TableError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        # A human acting again takes the seat back from a stand-in bot.
        if seat.stand_in is not None:
            await self._human_returned(seat)
        try:
            accepted = await self._accept(seat.index, action, f"player:{seat.player_id}")
        except TableError as exc:
            if exc.code == ErrorCode.ILLEGAL_ACTION:
                count, first = self.refused.get(seat.index, (0, f"{exc.reason}: {exc.message}"))
                self.refused[seat.index] = (count + 1, first)
            raise
        reply.send(p.ack(self.id, accepted))
        return accepted

    def own_live_seat(self, reply: Reply, seat_token: str, what: str) -> Seat:
        """The requester's seat at this live table (``what`` needs a live game)."""
        conn = reply.conn
        conn.require_session()
        seat = self.seat_of_token(seat_token)
        if seat is None or seat.player_id != conn.player_id:
            raise TableError(ErrorCode.BAD_SEAT_TOKEN, "that seat token is not yours here")
        if self.status != "live":
            raise TableError(ErrorCode.NOT_STARTED if self.status == "waiting"
                             else ErrorCode.GAME_OVER, f"{what} needs a live game")
        return seat

    async def autoplay(self, reply: Reply, seat_token: str, on: bool) -> None:
        """Switch the seat's autoplay (docs/protocol.md, "Autoplay")."""
        seat = self.own_live_seat(reply, seat_token, "autoplay")
        await self.set_autoplay(seat, on)
        reply.send(p.table_status(self.info()))

    async def _accept(self, seat: int, action: dict[str, Any], actor: str) -> int:
        try:
            self.game.check_fields(action)
            move = self.game.validate(self.state, seat, action)
            new_state, events = self.game.apply(self.state, seat, move)
        except IllegalAction as exc:
            raise TableError(ErrorCode.ILLEGAL_ACTION, exc.message, exc.code) from None
        return await self.commit(seat, dict(move.action), actor, new_state, events)

    async def commit(self, seat: int, action: dict[str, Any], actor: str, new_state: Any,
                     events: list[Event]) -> int:
        """Store an action that led to ``new_state``, then make it the table's:
        the new version, everyone's update, the end of the game if it ended."""
        version = self.version + 1
        result = self.game.result(new_state)
        at, banks = self._turn_spent()
        # Durable before visible: nobody hears of an action the database lacks,
        # and a game's last action and its end are one write (and the bank its
        # turn spent: a crash right after the ack must not give the time back).
        await self.ctx.store.append_action(
            self.id, version, seat, action, actor,
            status="finished" if result is not None else None,
            result=result.to_json() if result is not None else None,
            event=banks,
        )
        self._turn_stored(at)
        self.state, self.version = new_state, version
        self.history.append((version, events, new_state))
        if result is not None:
            self.status = "finished"
            self.end_votes.clear()
            self._stop_clock()
        else:
            self.schedule_moves()  # first, so the update shows the new turn's clock
        self._broadcast_update(events)
        if self.game.analysis is not None:
            for ended in self.game.analysis.ended_boards(events, version):
                self.analyse(ended)
        if result is not None:
            self._broadcast_info()
            self.ctx.on_finished(self, KEEP_FINISHED)
        return version

    async def resume(self, reply: Reply, since: int, seat_token: str | None) -> None:
        """Attach the connection (as its seat if the token is right) and catch it up."""
        conn = reply.conn
        pid = conn.require_session()
        viewer = SPECTATOR
        if seat_token is not None:
            seat = self.seat_of_token(seat_token)
            if seat is None or seat.player_id != pid:
                raise TableError(ErrorCode.BAD_SEAT_TOKEN, "that seat token is not yours here")
            viewer = seat.index
            if seat.stand_in is not None:
                await self._human_returned(seat)
            seat.connected = True
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
        self.viewers[conn] = viewer
        conn.tables.add(self)
        oldest = self.history[0][0] if self.history else None
        if oldest is not None and oldest <= since + 1:
            # Replay the missed versions, each with the view as it was then ...
            for version, events, state in self.history:
                if version > since:
                    shared = self._shared(state, events, {viewer})
                    conn.send(self._update(viewer, version, state, shared))
        # ... and always end with a snapshot, which answers the request.
        reply.send(self.snapshot(viewer))
        self._send_analyses(conn)
        self._broadcast_info()
