"""What a node checks before it joins its cluster's bus: that no running node has
its name, and that the database's cluster uses its topics' prefix."""

from __future__ import annotations

import asyncio
import logging

from server.persistence.identity import database_identity, live_holders, record_prefix
from server.persistence.store import Store

log = logging.getLogger("cardtable.cluster")


class CannotJoin(Exception):
    """This node cannot join its cluster as configured (the message says why)."""


class NodeNameTaken(CannotJoin):
    """Another running node has this node's name."""


class OtherPrefix(CannotJoin):
    """The database's cluster runs under another topics' prefix."""


async def refuse_a_namesake(store: Store, node: str, lease: float) -> None:
    """:class:`NodeNameTaken` where another process runs under this node's name:
    it keeps renewing the leases of its tables (a previous run's, dead, does not).
    Checked before joining the bus, whose presence and last will go by name;
    a restart with leases left waits half a lease to see."""

    async def held() -> dict[int, float]:
        return {g: e for g, n, _, e in await store.leases() if n == node}

    before = await held()
    if not before:
        return
    await asyncio.sleep(lease / 2)  # a live owner renews every third of a lease
    after = await held()
    if any(after.get(g, e) > e for g, e in before.items()):
        raise NodeNameTaken(
            f"a node named {node!r} is running (it keeps renewing its tables' "
            "leases): every node needs a name of its own (--node)"
        )


async def check_identity(store: Store, node: str, prefix: str) -> str:
    """The database's id; :class:`OtherPrefix` where its cluster's nodes hold tables
    under another topics' prefix (this node would not see them, nor they it: they
    adopted each other's tables). With none live, the prefix moves to ``prefix``."""
    database, recorded = await database_identity(store)
    if recorded == prefix:
        return database
    if recorded is not None:
        holders = sorted({n for n in (await live_holders(store)).values() if n != node})
        if holders:
            raise OtherPrefix(
                f"the database's cluster uses the topics' prefix {recorded!r}, where "
                f"node {holders[0]!r} holds tables; this node was given {prefix!r}: "
                "every node of one database uses one broker and one prefix "
                "(CARDTABLE_BUS_PREFIX)")
        log.warning("the cluster's topics' prefix changes from %r to %r", recorded, prefix)
    await record_prefix(store, prefix)
    return database
