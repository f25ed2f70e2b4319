"""The results of a distributed tournament's jobs (docs/cluster.md, "Distributed
tournaments"): recorded once per job, idempotently, whatever worker sends it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from server.persistence.models import TournamentJob
from server.persistence.store import Store


class JobResults:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, tournament: str, job: int, worker: str, result: dict[str, Any]) -> bool:
        """Store ``job``'s result unless one is stored already: whether this one was."""
        row = {
            "tournament": tournament,
            "job": job,
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

    async def done(self, tournament: str) -> dict[int, dict[str, Any]]:
        """The results stored so far: job -> result."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(TournamentJob.job, TournamentJob.result).where(
                    TournamentJob.tournament == tournament
                )
            )
            return {int(j): dict(r) for j, r in rows}

    async def workers(self, tournament: str) -> dict[int, str]:
        """Which worker's result was recorded for each job."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(TournamentJob.job, TournamentJob.worker).where(
                    TournamentJob.tournament == tournament
                )
            )
            return {int(j): str(w) for j, w in rows}
