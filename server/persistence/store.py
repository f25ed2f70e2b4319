"""The game store: the only code that reads or writes the database.

Every write goes through one :class:`~server.persistence.writer.Writer`: group
commits on a single task, bounded retries of transient failures, and an answer
to each caller only once its write is committed (or certainly not).  Reads use
the connection pool beside it (SQLite's WAL lets them run during a commit).
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from server.persistence.database import make_engine, make_writer_engine, upgrade
from server.persistence.leases import (
    UNFINISHED,
    StaleLease,
    acquire_op,
    check_fence,
    fenced,
    forget_ended_op,
    lease_rows,
    orphans_query,
    release_op,
    renew_op,
)
from server.persistence.models import (
    ActionRow,
    GameRow,
    Player,
    RatingRow,
    SeatRow,
    TableEvent,
    TableLease,
    TournamentBye,
    TournamentGameRow,
    TournamentJob,
    TournamentMatchRow,
    TournamentRow,
)
from server.persistence.writer import Insert, StorageError, Writer
from server.settings import DatabaseUnavailable, shown_url

log = logging.getLogger("cardtable.store")

ACTIONS = ActionRow.metadata.tables["actions"]


@functools.lru_cache(maxsize=4096)  # every action names its seat token
def token_hash(token: str) -> str:
    """What the database keeps of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


@overload
def utc(at: datetime) -> datetime: ...
@overload
def utc(at: None) -> None: ...
def utc(at: datetime | None) -> datetime | None:
    """A stored time as UTC: SQLite gives back the naive UTC time it was given."""
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    kind: str  # "empty" | "human" | "bot"
    player_id: int | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class StoredAction:
    seq: int
    seat: int
    action: dict[str, Any]
    at: datetime
    actor: str


@dataclass
class StoredGame:
    id: int
    game_type: str
    config: dict[str, Any]
    seed: int
    name: str
    status: str
    created_at: datetime
    finished_at: datetime | None
    result: dict[str, Any] | None
    table_options: dict[str, Any] = field(default_factory=dict)
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[StoredAction] = field(default_factory=list)


@dataclass(frozen=True)
class ImportedGame:
    """A game read from a file, checked through the rules, to store whole."""

    game_type: str
    config: dict[str, Any]
    seed: int
    name: str
    seats: int
    status: str  # finished, or abandoned for a record that stops before the end
    result: dict[str, Any] | None
    source: dict[str, Any]  # the file's title, players and tags
    actions: list[tuple[int, dict[str, Any]]]
    fingerprint: str  # the record hashed: the same record imported again is found by it
    actor: str = "import"


@dataclass(frozen=True)
class ImportedId:
    """Where an imported game is stored, and whether this import stored it (False:
    the same record was stored before, as ``game_id``)."""

    game_id: int
    new: bool


class Store:
    """Async access to players, games, seats and the append-only action log."""

    def __init__(self, engine: AsyncEngine, writer_engine: Engine | None = None) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.writer = Writer(engine, writer_engine)
        # In a cluster: the fencing token of each game this node owns (its writes to
        # any other game are refused), and (node, lease seconds) for the games it
        # creates.  None on a single node: nothing is fenced.
        self.fences: dict[int, int] | None = None
        self.lease_for: tuple[str, float] | None = None

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Connect to ``url``, upgrading the schema to the newest migration first;
        :class:`DatabaseUnavailable` (one line) when it cannot be opened."""
        try:
            if migrate:
                await upgrade(url)
            return cls(make_engine(url), make_writer_engine(url))
        except Exception as exc:  # refused, no such database, unknown driver or URL option
            log.debug("cannot open %s", shown_url(url), exc_info=True)
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise DatabaseUnavailable(f"cannot open the database {shown_url(url)}: "
                                   f"{reason[:300]}") from None

    async def close(self) -> None:
        """Commit pending writes, then release connections."""
        await self.writer.close()
        await self.engine.dispose()

    # players

    async def create_player(self, name: str, token: str) -> int:
        def op(c: Connection) -> int:
            res = c.execute(
                insert(Player)
                .values(name=name, token_hash=token_hash(token), created_at=now())
                .returning(Player.id)
            )
            return int(res.scalar_one())

        return await self.writer.run(op)

    async def player_by_token(self, token: str) -> tuple[int, str] | None:
        async with self._sessions() as s:
            row = (
                await s.execute(
                    select(Player.id, Player.name).where(Player.token_hash == token_hash(token))
                )
            ).first()
            return (int(row[0]), str(row[1])) if row else None

    async def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        async with self._sessions() as s:
            rows = await s.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
            return {int(i): str(n) for i, n in rows}

    # games and seats

    async def create_game(
        self,
        game_type: str,
        config: dict[str, Any],
        seed: int,
        name: str,
        seats: int,
        table_options: dict[str, Any] | None = None,
    ) -> int:
        def op(c: Connection) -> int:
            res = c.execute(
                insert(GameRow)
                .values(
                    game_type=game_type,
                    config=config,
                    seed=seed,
                    name=name,
                    status="waiting",
                    created_at=now(),
                    table_options=table_options or {},
                )
                .returning(GameRow.id)
            )
            game_id = int(res.scalar_one())
            c.execute(
                insert(SeatRow),
                [{"game_id": game_id, "seat": i, "kind": "empty"} for i in range(seats)],
            )
            if lease is not None:  # owned from its first moment: no other node adopts it
                acquire_op(game_id, *lease)(c)
            return game_id

        lease = self.lease_for
        game_id = await self.writer.run(op)
        if self.fences is not None and lease is not None:
            self.fences[game_id] = 1
        return game_id

    def _guarded(
        self, game_id: int, op: Callable[[Connection], Any]
    ) -> Callable[[Connection], Any]:
        """``op`` behind this node's fencing token for the game, in a cluster."""
        if self.fences is None:
            return op
        token = self.fences.get(game_id)
        if token is None:
            raise StaleLease(f"this node does not own table {game_id}")
        return fenced(check_fence(game_id, token), op)

    async def import_games(self, games: Sequence[ImportedGame]) -> list[ImportedId]:
        """Store whole games read from a file, every one or none: one transaction.
        Their seats stay empty; ``table_options["imported"]`` keeps the file's
        title, players and tags.  A record stored before (by its fingerprint) is
        not stored again: its id is given back as not new."""
        stamp = now()

        def op(c: Connection) -> list[ImportedId]:
            prints = {g.fingerprint for g in games}
            known: dict[str, int] = {
                str(fp): int(gid) for fp, gid in c.execute(
                    select(GameRow.fingerprint, GameRow.id).where(GameRow.fingerprint.in_(prints)))
            }
            ids = []
            for g in games:
                if g.fingerprint in known:
                    ids.append(ImportedId(known[g.fingerprint], new=False))
                    continue
                res = c.execute(
                    insert(GameRow)
                    .values(
                        game_type=g.game_type,
                        config=g.config,
                        seed=g.seed,
                        name=g.name[:64],
                        status=g.status,
                        created_at=stamp,
                        finished_at=stamp,
                        result=g.result,
                        table_options={"imported": g.source},
                        fingerprint=g.fingerprint,
                    )
                    .returning(GameRow.id)
                )
                game_id = int(res.scalar_one())
                known[g.fingerprint] = game_id
                c.execute(
                    insert(SeatRow),
                    [{"game_id": game_id, "seat": i, "kind": "empty"} for i in range(g.seats)],
                )
                if g.actions:
                    c.execute(insert(ActionRow), [
                        {"game_id": game_id, "seq": n, "seat": seat, "action": action,
                         "at": stamp, "actor": g.actor}
                        for n, (seat, action) in enumerate(g.actions, 1)
                    ])
                ids.append(ImportedId(game_id, new=True))
            return ids

        try:
            return await self.writer.run(op)
        except IntegrityError:
            # Another import stored one of these records meanwhile: now it is found.
            return await self.writer.run(op)

    async def set_seat(self, game_id: int, record: SeatRecord) -> None:
        await self.writer.run(self._guarded(game_id, _seat_op(game_id, record)))

    async def start_game(self, game_id: int, filled: Sequence[SeatRecord]) -> None:
        """The game goes live with ``filled`` (bots in the seats left empty): one write."""

        def op(c: Connection) -> None:
            for record in filled:
                _seat_op(game_id, record)(c)
            _status_op(game_id, "live", None)(c)

        await self.writer.run(self._guarded(game_id, op))

    async def set_status(
        self, game_id: int, status: str, result: dict[str, Any] | None = None
    ) -> None:
        await self.writer.run(self._guarded(game_id, _status_op(game_id, status, result)))

    async def log_table_event(self, game_id: int, kind: str, detail: dict[str, Any]) -> None:
        await self.writer.run(self._guarded(game_id, _event_op(game_id, kind, detail)))

    async def table_events(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        async with self._sessions() as s:
            rows = await s.execute(
                select(TableEvent.kind, TableEvent.detail)
                .where(TableEvent.game_id == game_id)
                .order_by(TableEvent.id)
            )
            return [(str(k), dict(d)) for k, d in rows]

    # the action log

    async def append_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        actor: str,
        *,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        event: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        """Durably append one action; returns once its transaction has committed.
        With ``status`` the game's status (and ``result``) change in the same
        transaction: a game's last action and its end are stored together or not
        at all; so is ``event`` (kind, detail), a table event the action caused."""
        row = {
            "game_id": game_id,
            "seq": seq,
            "seat": seat,
            "action": action,
            "at": now(),
            "actor": actor,
        }
        finish = _status_op(game_id, status, result) if status is not None else None
        if event is not None:
            finish = _then(_event_op(game_id, *event), finish)
        if self.fences is not None:
            # The fence runs after the insert, in its transaction: appends still go
            # to the database as one statement per batch.
            finish = self._guarded(game_id, finish or _nothing)
        try:
            await self.writer.run(Insert(ACTIONS, row, then=finish))
        except IntegrityError:
            # A retry after a connection lost during COMMIT finds its own row:
            # that is success, not a conflict.
            if not await self._holds(game_id, seq, seat, action):
                raise StorageError(f"action {seq} of game {game_id} conflicts") from None
            if self.fences is not None:  # ours, not a new owner's identical move
                await self.writer.run(self._guarded(game_id, _nothing))

    async def _holds(self, game_id: int, seq: int, seat: int, action: dict[str, Any]) -> bool:
        async with self._sessions() as s:
            row = (
                await s.execute(
                    select(ActionRow.seat, ActionRow.action).where(
                        ActionRow.game_id == game_id, ActionRow.seq == seq
                    )
                )
            ).first()
            return row is not None and row[0] == seat and dict(row[1]) == action

    # reading games back

    async def get_game(self, game_id: int, *, with_actions: bool = True) -> StoredGame | None:
        async with self._sessions() as s:
            row = await s.get(GameRow, game_id)
            if row is None:
                return None
            game = _stored(row)
            seats = await s.execute(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            )
            game.seats = [
                SeatRecord(r.seat, r.kind, r.player_id, r.bot, r.token_hash)
                for r in seats.scalars()
            ]
            if with_actions:
                acts = await s.execute(
                    select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
                )
                game.actions = [
                    StoredAction(a.seq, a.seat, dict(a.action), utc(a.at), a.actor)
                    for a in acts.scalars()
                ]
            return game

    async def held_seats(self, player_id: int) -> list[tuple[int, int]]:
        """(game, seat) of every seat ``player_id`` still holds at an unfinished game."""
        async with self._sessions() as s:
            rows = await s.execute(
                select(SeatRow.game_id, SeatRow.seat)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(
                    SeatRow.player_id == player_id,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_not(None),
                    GameRow.status.in_(UNFINISHED),
                )
                .order_by(SeatRow.game_id, SeatRow.seat)
            )
            return [(int(g), int(seat)) for g, seat in rows]

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game still waiting or live, with seats and log (to resume on startup)."""
        async with self._sessions() as s:
            ids = (
                await s.execute(
                    select(GameRow.id)
                    .where(GameRow.status.in_(("waiting", "live")))
                    .order_by(GameRow.id)
                )
            ).scalars()
            id_list = list(ids)
        games = [await self.get_game(i) for i in id_list]
        return [g for g in games if g is not None]

    async def list_games(
        self, limit: int = 50, status: str | None = None, game_type: str | None = None
    ) -> list[tuple[StoredGame, int]]:
        """Newest games first, each with its number of logged actions."""
        counts = (
            select(ActionRow.game_id, func.count().label("n"))
            .group_by(ActionRow.game_id)
            .subquery()
        )
        q = (
            select(GameRow, func.coalesce(counts.c.n, 0))
            .outerjoin(counts, counts.c.game_id == GameRow.id)
            .order_by(GameRow.id.desc())
            .limit(limit)
        )
        if status:
            q = q.where(GameRow.status == status)
        if game_type:
            q = q.where(GameRow.game_type == game_type)
        async with self._sessions() as s:
            rows = await s.execute(q)
            return [(_stored(g), int(n)) for g, n in rows]

    # table ownership in a cluster (server/persistence/leases.py)

    async def acquire_lease(self, game_id: int, node: str, seconds: float) -> int | None:
        """Take ``game_id``'s lease for ``node`` if free or expired: the fencing token."""
        token: int | None = await self.writer.run(acquire_op(game_id, node, seconds))
        if token is not None and self.fences is not None:
            self.fences[game_id] = token
        return token

    async def renew_leases(self, node: str, seconds: float) -> set[int]:
        """Extend every lease this node holds; the games whose lease it has lost
        (their fences are dropped: no write of theirs will be accepted)."""
        held = dict(self.fences or {})
        lost: set[int] = await self.writer.run(renew_op(node, held, seconds))
        for game_id in lost:
            self.drop_fence(game_id)
        return lost

    async def release_lease(self, game_id: int) -> None:
        """Give ``game_id``'s lease up (its table is gone from this node)."""
        token = (self.fences or {}).get(game_id)
        if token is None:
            return
        self.drop_fence(game_id)
        await self.writer.run(release_op(game_id, token))

    async def forget_ended_leases(self) -> None:
        """Drop the expired leases of games that ended (a dead node's)."""
        await self.writer.run(forget_ended_op())

    def drop_fence(self, game_id: int) -> None:
        if self.fences is not None:
            self.fences.pop(game_id, None)

    async def orphaned_games(self, mine: str | None = None) -> list[int]:
        """Unfinished games without a live lease (their node died, or never was);
        with ``mine``, also those leased to that node name (its previous run)."""
        async with self.engine.connect() as conn:
            return await conn.run_sync(orphans_query, UNFINISHED, mine)

    async def leases(self) -> list[tuple[int, str, int, float]]:
        async with self.engine.connect() as conn:
            return await conn.run_sync(lease_rows)

    async def delete_everything(self) -> None:
        """Empty every table (tests only)."""

        def op(c: Connection) -> None:
            for model in (
                TournamentJob,
                TournamentBye,
                RatingRow,
                TournamentGameRow,
                TournamentMatchRow,
                TournamentRow,
                ActionRow,
                TableEvent,
                TableLease,
                SeatRow,
                GameRow,
                Player,
            ):
                c.execute(delete(model))

        await self.writer.run(op)


def _nothing(c: Connection) -> None:
    return None


def _event_op(game_id: int, kind: str, detail: dict[str, Any]) -> Callable[[Connection], None]:
    def op(c: Connection) -> None:
        c.execute(insert(TableEvent).values(game_id=game_id, at=now(), kind=kind, detail=detail))

    return op


def _then(
    first: Callable[[Connection], None], second: Callable[[Connection], None] | None
) -> Callable[[Connection], None]:
    """``first``, then ``second`` if any, in one transaction."""
    if second is None:
        return first

    def op(c: Connection) -> None:
        first(c)
        second(c)

    return op


def _seat_op(game_id: int, record: SeatRecord) -> Callable[[Connection], None]:
    def op(c: Connection) -> None:
        c.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat == record.seat)
            .values(
                kind=record.kind,
                player_id=record.player_id,
                bot=record.bot,
                token_hash=record.token_hash,
            )
        )

    return op


def _status_op(
    game_id: int, status: str, result: dict[str, Any] | None
) -> Callable[[Connection], None]:
    values: dict[str, Any] = {"status": status}
    if status in ("finished", "abandoned"):
        values["finished_at"] = now()
        values["result"] = result

    def op(c: Connection) -> None:
        c.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    return op


def _stored(row: GameRow) -> StoredGame:
    return StoredGame(
        id=row.id,
        game_type=row.game_type,
        config=dict(row.config),
        seed=int(row.seed),
        name=row.name,
        status=row.status,
        created_at=utc(row.created_at),
        finished_at=utc(row.finished_at),
        result=dict(row.result) if row.result is not None else None,
        table_options=dict(row.table_options or {}),
    )
