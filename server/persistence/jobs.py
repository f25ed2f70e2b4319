"""The results of a distributed tournament's jobs (docs/cluster.md, "Distributed
tournaments"): one per job, keyed by (tournament, match, seating), recorded once
whatever worker sends it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, select, tuple_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from server.persistence.models import TournamentJob
from server.persistence.store import Store


@dataclass(frozen=True, order=True)
class JobKey:
    """A job's id: the game of match ``match`` of stored tournament
    ``tournament`` in the match's ``seating``-th seating."""

    tournament: int
    match: int
    seating: int

    def __str__(self) -> str:
        return f"{self.tournament}/{self.match}/{self.seating}"


_KEY = tuple_(TournamentJob.tournament_id, TournamentJob.match_number, TournamentJob.seating)


class JobResults:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, key: JobKey, worker: str, result: dict[str, Any]) -> bool:
        """Store ``key``'s result unless one is stored already: whether this one was."""
        row = {
            "tournament_id": key.tournament,
            "match_number": key.match,
            "seating": key.seating,
            "worker": worker,
            "result": result,
            "at": datetime.now(UTC),
        }

        def op(c: Connection) -> bool:
            dialect = pg_insert if c.dialect.name == "postgresql" else sqlite_insert
            stmt = dialect(TournamentJob).values(**row).on_conflict_do_nothing()
            return bool(c.execute(stmt).rowcount)

        inserted: bool = await self.store.writer.run(op)
        return inserted

    async def has(self, key: JobKey) -> bool:
        """Whether ``key``'s result is stored."""
        async with self.store.engine.connect() as conn:
            found = await conn.execute(
                select(TournamentJob.seating).where(
                    TournamentJob.tournament_id == key.tournament,
                    TournamentJob.match_number == key.match,
                    TournamentJob.seating == key.seating,
                )
            )
            return found.first() is not None

    async def found(self, keys: Sequence[JobKey]) -> dict[JobKey, dict[str, Any]]:
        """The results stored of ``keys``: key -> result."""
        if not keys:
            return {}
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(
                    TournamentJob.tournament_id,
                    TournamentJob.match_number,
                    TournamentJob.seating,
                    TournamentJob.result,
                ).where(_KEY.in_([(k.tournament, k.match, k.seating) for k in keys]))
            )
            return {JobKey(int(t), int(m), int(s)): dict(r) for t, m, s, r in rows}

    async def workers(self, tournament: int) -> dict[JobKey, str]:
        """Which worker's result was recorded for each job of ``tournament``."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(
                    TournamentJob.match_number, TournamentJob.seating, TournamentJob.worker
                ).where(TournamentJob.tournament_id == tournament)
            )
            return {JobKey(tournament, int(m), int(s)): str(w) for m, s, w in rows}
