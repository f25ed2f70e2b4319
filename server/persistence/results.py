"""Tournament results: tournaments, matches, their games (stored as games, so
they replay like any table's), and ratings over time.  Writes go through the
store's one writer, like every other write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.persistence.models import (
    ActionRow,
    GameRow,
    RatingRow,
    SeatRow,
    TournamentBye,
    TournamentGameRow,
    TournamentMatchRow,
    TournamentRow,
)
from server.persistence.store import Store, now, utc


@dataclass(frozen=True)
class StoredGameOfMatch:
    """One of a match's games: its id in ``games`` (the replay's id), the bot in
    each seat, the per-seat scores and stand-ins, and how many actions it took."""

    game_id: int
    bots: list[str]
    scores: list[float]
    stand_ins: list[int]
    actions: int = 0


@dataclass(frozen=True)
class StoredMatch:
    number: int
    round: int
    bot_a: str
    bot_b: str
    seed: int
    score_a: float
    score_b: float
    games: list[StoredGameOfMatch] = field(default_factory=list)


@dataclass(frozen=True)
class StoredRating:
    match_number: int
    bot: str
    mu: float
    sigma: float


@dataclass(frozen=True)
class StoredBye:
    """A Swiss round's bye: ``bot`` sat out ``round`` and scored ``points``."""

    round: int
    bot: str
    points: float


@dataclass(frozen=True)
class StoredTournament:
    id: int
    game_type: str
    config: dict[str, Any]
    setup: dict[str, Any]
    status: str
    created_at: datetime
    finished_at: datetime | None
    standings: dict[str, Any] | None
    matches: list[StoredMatch] = field(default_factory=list)
    ratings: list[StoredRating] = field(default_factory=list)
    byes: list[StoredBye] = field(default_factory=list)


class MatchAlreadyStored(Exception):
    """Another run stored this match number of the tournament first: two processes
    are running (or resuming) one tournament."""

    def __init__(self, tournament_id: int, number: int) -> None:
        super().__init__(
            f"tournament {tournament_id}: match {number} is stored already; "
            "another process is running this tournament"
        )
        self.tournament_id = tournament_id


@dataclass(frozen=True)
class GameToStore:
    """A finished game to store with its match: seats' bots, log and result."""

    bots: Sequence[str]
    seed: int
    log: Sequence[tuple[int, dict[str, Any]]]
    result: dict[str, Any]
    stand_ins: Sequence[int]
    game_id: int | None = None  # already stored (played at a server table)
    stand_in_moves: Sequence[int] = ()  # places in ``log`` of the stand-in's moves


class Results:
    """Reads and writes of tournament results on ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sessions = async_sessionmaker(store.engine, expire_on_commit=False)

    async def create_tournament(
        self, game_type: str, config: dict[str, Any], setup: dict[str, Any]
    ) -> int:
        def op(c: Connection) -> int:
            res = c.execute(
                insert(TournamentRow)
                .values(
                    game_type=game_type,
                    config=config,
                    setup=setup,
                    status="running",
                    created_at=now(),
                )
                .returning(TournamentRow.id)
            )
            return int(res.scalar_one())

        return await self.store.writer.run(op)

    async def add_match(
        self,
        tournament_id: int,
        game_type: str,
        config: dict[str, Any],
        match: StoredMatch,
        games: Sequence[GameToStore],
        ratings: Sequence[StoredRating],
    ) -> list[int]:
        """Store one match in one transaction: its games (each a finished game
        with seats and log, unless already stored), the match, and the ratings
        after it.  Returns the games' ids."""

        def op(c: Connection) -> list[int]:
            ids = []
            for g in games:
                game_id = (
                    g.game_id
                    if g.game_id is not None
                    else _insert_game(c, game_type, config, tournament_id, match.number, g)
                )
                ids.append(game_id)
            try:
                mid = int(
                    c.execute(
                        insert(TournamentMatchRow)
                        .values(
                            tournament_id=tournament_id,
                            number=match.number,
                            round=match.round,
                            bot_a=match.bot_a,
                            bot_b=match.bot_b,
                            seed=match.seed,
                            score_a=match.score_a,
                            score_b=match.score_b,
                        )
                        .returning(TournamentMatchRow.id)
                    ).scalar_one()
                )
            except IntegrityError:
                # The unique (tournament, number) index: the whole transaction is undone.
                raise MatchAlreadyStored(tournament_id, match.number) from None
            c.execute(
                insert(TournamentGameRow),
                [
                    {
                        "match_id": mid,
                        "game_id": gid,
                        "seating": {
                            "bots": list(g.bots),
                            "scores": list(g.result.get("scores", [])),
                            "stand_ins": list(g.stand_ins),
                        },
                    }
                    for gid, g in zip(ids, games, strict=True)
                ],
            )
            _insert_ratings(c, tournament_id, game_type, ratings)
            return ids

        return await self.store.writer.run(op)

    async def add_ratings(
        self, tournament_id: int, game_type: str, ratings: Sequence[StoredRating]
    ) -> None:
        """Ratings not tied to a match (each bot's at the start)."""
        await self.store.writer.run(lambda c: _insert_ratings(c, tournament_id, game_type, ratings))

    async def add_bye(self, tournament_id: int, bye: StoredBye) -> None:
        """Store a round's bye, unless it is stored already (a resumed run meets
        the byes of the rounds it replays again)."""
        row = {"tournament_id": tournament_id, "round": bye.round, "bot": bye.bot}

        def op(c: Connection) -> None:
            dialect = pg_insert if c.dialect.name == "postgresql" else sqlite_insert
            c.execute(
                dialect(TournamentBye).values(**row, points=bye.points).on_conflict_do_nothing()
            )

        await self.store.writer.run(op)

    async def reopen(self, tournament_id: int) -> None:
        """Mark a tournament running again (it is being resumed)."""

        def op(c: Connection) -> None:
            c.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id)
                .values(status="running", finished_at=None, standings=None)
            )

        await self.store.writer.run(op)

    async def finish(self, tournament_id: int, status: str, standings: dict[str, Any]) -> None:
        def op(c: Connection) -> None:
            c.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id)
                .values(status=status, finished_at=now(), standings=standings)
            )

        await self.store.writer.run(op)

    async def list_tournaments(self, limit: int = 30) -> list[tuple[StoredTournament, int]]:
        """Newest first, each with its number of matches."""
        counts = (
            select(TournamentMatchRow.tournament_id, func.count().label("n"))
            .group_by(TournamentMatchRow.tournament_id)
            .subquery()
        )
        q = (
            select(TournamentRow, func.coalesce(counts.c.n, 0))
            .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
            .order_by(TournamentRow.id.desc())
            .limit(limit)
        )
        async with self._sessions() as s:
            return [(_tournament(t), int(n)) for t, n in await s.execute(q)]

    async def get_tournament(self, tournament_id: int) -> StoredTournament | None:
        """A tournament with its matches (and their games) and ratings history."""
        async with self._sessions() as s:
            row = await s.get(TournamentRow, tournament_id)
            if row is None:
                return None
            t = _tournament(row)
            matches = (
                await s.execute(
                    select(TournamentMatchRow)
                    .where(TournamentMatchRow.tournament_id == tournament_id)
                    .order_by(TournamentMatchRow.number)
                )
            ).scalars()
            by_id: dict[int, StoredMatch] = {}
            for m in matches:
                by_id[m.id] = StoredMatch(
                    m.number, m.round, m.bot_a, m.bot_b, int(m.seed), m.score_a, m.score_b
                )
                t.matches.append(by_id[m.id])
            if by_id:
                ours = select(TournamentGameRow.game_id).where(
                    TournamentGameRow.match_id.in_(list(by_id))
                )
                actions = (
                    select(ActionRow.game_id, func.count().label("n"))
                    .where(ActionRow.game_id.in_(ours))
                    .group_by(ActionRow.game_id)
                    .subquery()
                )
                games = await s.execute(
                    select(TournamentGameRow, func.coalesce(actions.c.n, 0))
                    .outerjoin(actions, actions.c.game_id == TournamentGameRow.game_id)
                    .where(TournamentGameRow.match_id.in_(list(by_id)))
                    .order_by(TournamentGameRow.game_id)
                )
                for g, n in games:
                    seating = dict(g.seating)
                    by_id[g.match_id].games.append(
                        StoredGameOfMatch(
                            g.game_id,
                            list(seating["bots"]),
                            [float(x) for x in seating["scores"]],
                            [int(x) for x in seating["stand_ins"]],
                            int(n),
                        )
                    )
            byes = await s.execute(
                select(TournamentBye)
                .where(TournamentBye.tournament_id == tournament_id)
                .order_by(TournamentBye.round)
            )
            t.byes.extend(StoredBye(b.round, b.bot, b.points) for b in byes.scalars())
            ratings = await s.execute(
                select(RatingRow)
                .where(RatingRow.tournament_id == tournament_id)
                .order_by(RatingRow.id)
            )
            t.ratings.extend(
                StoredRating(r.match_number, r.bot, r.mu, r.sigma) for r in ratings.scalars()
            )
            return t

    async def latest_ratings(
        self, game_type: str, bots: Sequence[str]
    ) -> dict[str, tuple[float, float, str | None]]:
        """Each bot's newest stored rating in ``game_type`` (mu, sigma, and the bot
        the name stood for in the run that stored it: its ``module:Class``), if any:
        a new tournament carries ratings on from the runs before it."""
        newest = (
            select(func.max(RatingRow.id))
            .where(RatingRow.game_type == game_type, RatingRow.bot.in_(list(bots)))
            .group_by(RatingRow.bot)
        )
        async with self._sessions() as s:
            rows = (
                await s.execute(
                    select(RatingRow.bot, RatingRow.mu, RatingRow.sigma, TournamentRow.setup)
                    .join(TournamentRow, TournamentRow.id == RatingRow.tournament_id)
                    .where(RatingRow.id.in_(newest))
                )
            ).all()
        found: dict[str, tuple[float, float, str | None]] = {}
        for bot, mu, sigma, setup in rows:
            targets = {e.get("name"): e.get("target") for e in (setup or {}).get("entrants", [])}
            found[str(bot)] = (float(mu), float(sigma), targets.get(bot))
        return found


def _insert_game(
    c: Connection,
    game_type: str,
    config: dict[str, Any],
    tournament_id: int,
    number: int,
    g: GameToStore,
) -> int:
    at = now()
    game_id = int(
        c.execute(
            insert(GameRow)
            .values(
                game_type=game_type,
                config=config,
                seed=g.seed,
                name=f"Tournament {tournament_id} match {number}",
                status="finished",
                created_at=at,
                finished_at=at,
                result=g.result,
                table_options={"tournament": tournament_id},
            )
            .returning(GameRow.id)
        ).scalar_one()
    )
    c.execute(
        insert(SeatRow),
        [{"game_id": game_id, "seat": i, "kind": "bot", "bot": b} for i, b in enumerate(g.bots)],
    )
    stood_in = set(g.stand_in_moves)
    if g.log:
        c.execute(
            insert(ActionRow),
            [
                {
                    "game_id": game_id,
                    "seq": k + 1,
                    "seat": seat,
                    "action": action,
                    "at": at,
                    "actor": f"bot:{g.bots[seat]}" + (":stand_in" if k in stood_in else ""),
                }
                for k, (seat, action) in enumerate(g.log)
            ],
        )
    return game_id


def _insert_ratings(
    c: Connection, tournament_id: int, game_type: str, ratings: Sequence[StoredRating]
) -> None:
    if ratings:
        at = now()
        c.execute(
            insert(RatingRow),
            [
                {
                    "tournament_id": tournament_id,
                    "match_number": r.match_number,
                    "game_type": game_type,
                    "bot": r.bot,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "at": at,
                }
                for r in ratings
            ],
        )


def _tournament(row: TournamentRow) -> StoredTournament:
    return StoredTournament(
        id=row.id,
        game_type=row.game_type,
        config=dict(row.config),
        setup=dict(row.setup),
        status=row.status,
        created_at=utc(row.created_at),
        finished_at=row.finished_at,
        standings=dict(row.standings) if row.standings is not None else None,
    )
