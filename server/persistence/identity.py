"""A database's identity as its cluster knows it: a random id (nodes announce it
with their presence, so a node of another database on the same bus is ignored)
and the topics' prefix the cluster uses (a node given another one is refused
while the cluster's nodes hold tables), and who holds the live tables now."""

from __future__ import annotations

import uuid

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from server.persistence.leases import db_now
from server.persistence.models import ClusterIdentity, TableLease
from server.persistence.store import Store


async def database_identity(store: Store) -> tuple[str, str | None]:
    """(the database's id, its cluster's prefix, if one was recorded); the id is
    made the first time it is asked for."""

    def op(c: Connection) -> tuple[str, str | None]:
        row = c.execute(select(ClusterIdentity.database, ClusterIdentity.prefix)).first()
        if row is not None:
            return str(row[0]), row[1]
        made = str(uuid.uuid4())
        c.execute(insert(ClusterIdentity).values(id=1, database=made, prefix=None))
        return made, None

    try:
        return await store.writer.run(op)
    except IntegrityError:  # another node made it meanwhile: read that one
        return await store.writer.run(op)


async def record_prefix(store: Store, prefix: str) -> None:
    """The cluster's topics' prefix is now ``prefix``."""

    def op(c: Connection) -> None:
        c.execute(update(ClusterIdentity).where(ClusterIdentity.id == 1).values(prefix=prefix))

    await store.writer.run(op)


async def live_holders(store: Store, table_id: int | None = None) -> dict[int, str]:
    """The nodes whose leases are live now, by table (``table_id``: of that one)."""

    def query(c: Connection) -> dict[int, str]:
        live = select(TableLease.game_id, TableLease.node).where(
            TableLease.expires_at > db_now(c))
        if table_id is not None:
            live = live.where(TableLease.game_id == table_id)
        return {int(g): str(n) for g, n in c.execute(live)}

    async with store.engine.connect() as conn:
        return await conn.run_sync(query)
