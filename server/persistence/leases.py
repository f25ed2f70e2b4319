"""Table ownership leases (docs/cluster.md, "Leases and fencing").

A node owns a table while its lease row names it and has not expired; expiry
is judged on the database's clock, so the nodes' clocks never have to agree.
Each acquisition raises the row's fencing token.  The owner's writes to that
game carry the token it acquired, and the check runs inside the write's own
transaction with the lease row locked (``FOR SHARE``): a node that lost its
lease can never append, and a node taking a table over only reads the log once
every write of the previous owner has committed or failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, literal, or_, select, update
from sqlalchemy.sql.elements import ColumnElement

from server.persistence.models import GameRow, TableLease
from server.persistence.writer import StorageError

Op = Callable[[Connection], Any]
UNFINISHED = ("waiting", "live")  # a game's statuses while a node may own its table


class StaleLease(StorageError):
    """A write for a table this node no longer owns: refused, nothing stored."""


def db_now(conn: Connection) -> ColumnElement[Any]:
    """The database's clock in seconds since the epoch."""
    if conn.dialect.name == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    return (func.julianday("now") - 2440587.5) * 86400.0


def check_fence(game_id: int, token: int) -> Op:
    """An op that refuses (``StaleLease``) unless ``token`` is the game's current
    fencing token; the lease row stays locked until the transaction ends."""

    def op(c: Connection) -> None:
        current = c.execute(
            select(TableLease.token).where(TableLease.game_id == game_id).with_for_update(read=True)
        ).scalar()
        if current != token:
            raise StaleLease(f"table {game_id}: fencing token {token} is stale (now {current})")

    return op


def fenced(check: Op, then: Op | None) -> Op:
    """``check``, then ``then`` (if any), in one transaction."""

    def op(c: Connection) -> Any:
        check(c)
        return then(c) if then is not None else None

    return op


def acquire_op(game_id: int, node: str, seconds: float) -> Op:
    """Take the lease of ``game_id`` if it is free, expired or already ``node``'s:
    the new fencing token, else None."""

    def op(c: Connection) -> int | None:
        now = float(c.execute(select(db_now(c))).scalar_one())
        row = c.execute(
            select(TableLease.node, TableLease.token, TableLease.expires_at)
            .where(TableLease.game_id == game_id)
            .with_for_update()
        ).first()
        if row is None:
            c.execute(
                insert(TableLease).values(
                    game_id=game_id, node=node, token=1, expires_at=now + seconds
                )
            )
            return 1
        if row.node != node and row.expires_at > now:
            return None
        token = int(row.token) + 1
        c.execute(
            update(TableLease)
            .where(TableLease.game_id == game_id)
            .values(node=node, token=token, expires_at=now + seconds)
        )
        return token

    return op


def renew_op(node: str, held: dict[int, int], seconds: float) -> Op:
    """Extend every lease in ``held`` (game -> token) still ``node``'s with that
    token; the games whose lease is not (lost)."""

    def op(c: Connection) -> set[int]:
        if not held:
            return set()
        now = select(db_now(c)).scalar_subquery()
        ours = or_(*(and_(TableLease.game_id == g, TableLease.token == t) for g, t in held.items()))
        c.execute(
            update(TableLease)
            .where(TableLease.node == node, ours)
            .values(expires_at=now + literal(seconds))
        )
        kept = c.execute(select(TableLease.game_id).where(TableLease.node == node, ours)).scalars()
        return set(held) - {int(g) for g in kept}

    return op


def release_op(game_id: int, token: int) -> Op:
    """Give the lease up at once (the game ended, or the node stops).  An unfinished
    game's row stays, expired, so that whoever takes the table next gets a higher
    token than this node wrote with; an ended game's row goes."""

    def op(c: Connection) -> None:
        ours = and_(TableLease.game_id == game_id, TableLease.token == token)
        status = c.execute(select(GameRow.status).where(GameRow.id == game_id)).scalar()
        if status in UNFINISHED:
            now = select(db_now(c)).scalar_subquery()
            c.execute(update(TableLease).where(ours).values(expires_at=now - literal(1.0)))
        else:
            c.execute(delete(TableLease).where(ours))

    return op


def forget_ended_op() -> Op:
    """Drop the expired leases of games that ended (their node died before it gave
    them back): nothing writes to an ended game again."""

    def op(c: Connection) -> None:
        ended = select(GameRow.id).where(GameRow.status.not_in(UNFINISHED))
        now = select(db_now(c)).scalar_subquery()
        c.execute(
            delete(TableLease).where(TableLease.expires_at < now, TableLease.game_id.in_(ended))
        )

    return op


def orphans_query(conn: Connection, statuses: Iterable[str], mine: str | None) -> list[int]:
    """Unfinished games nobody holds a live lease on (never leased, or expired),
    and those leased to the node ``mine`` (a previous run of this node)."""
    now = select(db_now(conn)).scalar_subquery()
    free = or_(TableLease.game_id.is_(None), TableLease.expires_at < now)
    if mine is not None:
        free = or_(free, TableLease.node == mine)
    rows = conn.execute(
        select(GameRow.id)
        .outerjoin(TableLease, TableLease.game_id == GameRow.id)
        .where(GameRow.status.in_(tuple(statuses)), free)
        .order_by(GameRow.id)
    ).scalars()
    return [int(g) for g in rows]


def lease_rows(conn: Connection) -> list[tuple[int, str, int, float]]:
    """Every lease: (game, node, token, expires_at), for operators and tests."""
    rows = conn.execute(
        select(TableLease.game_id, TableLease.node, TableLease.token, TableLease.expires_at)
    )
    return [(int(g), str(n), int(t), float(e)) for g, n, t, e in rows]
