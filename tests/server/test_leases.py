"""Table ownership leases and fencing, against SQLite and the real PostgreSQL:
a node that lost its lease can never append (the database refuses the stale
token in the write's own transaction)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.persistence.leases import StaleLease, check_fence, fenced
from server.persistence.store import Store


@pytest.fixture
async def nodes(db_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two nodes' stores on one database, both fencing their writes."""
    a, b = await Store.open(db_url), await Store.open(db_url, migrate=False)
    for store, name in ((a, "a"), (b, "b")):
        store.fences = {}
        store.lease_for = (name, 30.0)
    yield a, b
    await a.close()
    await b.close()


async def _game(store: Store) -> int:
    return await store.create_game("whist", {"version": 1}, 7, "t", 4)


async def test_a_created_game_is_leased_to_its_creator(nodes: tuple[Store, Store]) -> None:
    a, b = nodes
    gid = await _game(a)
    assert a.fences == {gid: 1}
    assert await a.orphaned_games() == []
    assert await b.acquire_lease(gid, "b", 30.0) is None  # still a's
    await a.append_action(gid, 1, 0, {"type": "play"}, "player:1")


async def test_a_node_that_lost_its_lease_cannot_append(nodes: tuple[Store, Store]) -> None:
    a, b = nodes
    a.lease_for = ("a", -1.0)  # expired at once: the next node may take it over
    gid = await _game(a)
    assert await b.orphaned_games() == [gid]
    assert await b.acquire_lease(gid, "b", 30.0) == 2
    with pytest.raises(StaleLease):
        await a.append_action(gid, 1, 0, {"type": "play", "card": "AS"}, "player:1")
    with pytest.raises(StaleLease):
        await a.set_status(gid, "abandoned")
    await b.append_action(gid, 1, 2, {"type": "play", "card": "KS"}, "bot:x")
    stored = await b.get_game(gid)
    assert stored is not None and stored.status == "waiting"
    assert [(x.seq, x.seat) for x in stored.actions] == [(1, 2)]
    # The stale node's renewal tells it what it lost, and drops the fence.
    assert await a.renew_leases("a", 30.0) == {gid}
    assert a.fences == {}
    assert await b.renew_leases("b", 30.0) == set()


async def test_a_node_writes_only_to_games_it_owns(nodes: tuple[Store, Store]) -> None:
    a, b = nodes
    gid = await _game(a)
    with pytest.raises(StaleLease):
        await b.append_action(gid, 1, 0, {"type": "play"}, "player:1")
    with pytest.raises(StaleLease):
        await b.log_table_event(gid, "x", {})
    assert (await b.get_game(gid)).actions == []  # type: ignore[union-attr]


async def test_a_released_lease_is_free_at_once_and_its_token_stays_fenced(
    nodes: tuple[Store, Store],
) -> None:
    """A node that stops gives its tables back; the next owner's token is still
    higher, so a write of the old owner's still in flight is refused."""
    a, b = nodes
    gid = await _game(a)
    await a.release_lease(gid)
    assert a.fences == {}
    assert await b.orphaned_games() == [gid]
    assert await b.acquire_lease(gid, "b", 30.0) == 2
    assert [(g, n, t) for g, n, t, _ in await b.leases()] == [(gid, "b", 2)]
    with pytest.raises(StaleLease):
        await a.writer.run(fenced(check_fence(gid, 1), None))


async def test_an_ended_game_s_lease_goes(nodes: tuple[Store, Store]) -> None:
    """Given back when its game ends, or, when its node died first, swept once it
    has expired."""
    a, b = nodes
    gid = await _game(a)
    await a.append_action(gid, 1, 0, {"type": "play"}, "player:1", status="finished")
    await a.release_lease(gid)
    assert await b.leases() == []
    a.lease_for = ("a", -1.0)  # a node that dies with its game ended, lease held
    other = await _game(a)
    await a.append_action(other, 1, 0, {"type": "play"}, "player:1", status="finished")
    assert [g for g, *_ in await b.leases()] == [other]
    await b.forget_ended_leases()
    assert await b.leases() == []


async def test_a_refused_final_action_leaves_the_game_unfinished(
    nodes: tuple[Store, Store],
) -> None:
    a, b = nodes
    a.lease_for = ("a", -1.0)
    gid = await _game(a)
    await b.acquire_lease(gid, "b", 30.0)
    with pytest.raises(StaleLease):
        await a.append_action(
            gid, 1, 0, {"type": "play"}, "player:1", status="finished", result={"s": 1}
        )
    stored = await b.get_game(gid)
    assert stored is not None and stored.status == "waiting" and stored.actions == []


async def test_without_fencing_nothing_is_checked(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        gid = await _game(store)
        await store.append_action(gid, 1, 0, {"type": "play"}, "player:1")
        assert await store.leases() == []
    finally:
        await store.close()
