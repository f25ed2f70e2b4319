"""Who may manage a waiting table, how many a player may keep waiting, and what
becomes of a waiting table nobody starts."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.conftest import Client, Harness


async def _waiting_table(harness: Harness) -> tuple[int, Client]:
    alice = await harness.client("alice")
    created = await alice.request({"type": "create_table", "game": "whist", "seat": 0})
    table = created["table"]["table"]
    await alice.expect("joined", table=table)
    return table, alice


async def test_a_stranger_cannot_start_a_table_or_seat_bots_in_it(harness: Harness) -> None:
    table, _ = await _waiting_table(harness)
    mallory = await harness.client("mallory")
    for msg in (
        {"type": "start", "table": table},
        {"type": "add_bot", "table": table, "seat": 1},
        {"type": "remove_bot", "table": table, "seat": 1},
    ):
        reply = await mallory.request(msg)
        assert reply["type"] == "error" and reply["code"] == "not_allowed", reply
    t = harness.server.lobby.tables[table]
    assert t.status == "waiting" and [s.kind for s in t.seats] == ["human", *["empty"] * 3]


async def test_the_creator_and_seated_players_manage_the_table(harness: Harness) -> None:
    table, alice = await _waiting_table(harness)
    bob = await harness.client("bob")
    await bob.request({"type": "join", "table": table, "seat": 2})
    assert (await bob.request({"type": "add_bot", "table": table, "seat": 1}))["type"] == "table"
    reply = await alice.request({"type": "remove_bot", "table": table, "seat": 1})
    assert reply["type"] == "table"
    assert (await bob.request({"type": "start", "table": table}))["type"] == "table"
    assert harness.server.lobby.tables[table].status == "live"


@pytest.mark.parametrize(("game", "options"), [
    ("whist", {}), ("poker", {}), ("bridge", {}), ("rummy", {"players": 4}),
    ("crazy_eights", {"seats": 4}),
])
async def test_no_seat_sees_cards_before_the_start(
    harness: Harness, game: str, options: dict[str, Any]
) -> None:
    """Cards are dealt when a table is made: a player hopping from seat to seat of a
    waiting table must not see each seat's hand, nor its own before the start."""
    alice, bob = await harness.client("alice"), await harness.client("bob")
    created = await alice.request(
        {"type": "create_table", "game": game, "options": options, "seat": 0})
    table = created["table"]["table"]
    await alice.expect("snapshot", table=table)
    seen = []
    for seat in range(1, len(created["table"]["seats"])):
        joined = await bob.request({"type": "join", "table": table, "seat": seat})
        assert joined["type"] == "joined", joined
        snap = await bob.expect("snapshot", table=table)
        seen.append(snap["view"])
        assert (await bob.request({"type": "leave", "table": table}))["type"] == "left"
    assert all("hand" not in view for view in seen), seen
    assert (await bob.request({"type": "join", "table": table, "seat": 1}))["type"] == "joined"
    await alice.request({"type": "start", "table": table})
    live = await bob.expect("snapshot", table=table)
    while live["status"] != "live":
        live = await bob.expect("snapshot", table=table)
    assert live["view"]["hand"], "the hand is shown once the game is on"


async def test_a_player_keeps_at_most_five_tables_waiting(harness: Harness) -> None:
    alice = await harness.client("alice")
    for _ in range(5):
        reply = await alice.request({"type": "create_table", "game": "whist"})
        assert reply["type"] == "table_created"
    reply = await alice.request({"type": "create_table", "game": "whist"})
    assert reply["type"] == "error" and reply["code"] == "too_many_tables"
    # A table that starts no longer counts.
    started = await alice.request({"type": "create_table", "game": "whist", "start": True})
    assert started["code"] == "too_many_tables"
    first = next(iter(harness.server.lobby.tables))
    await alice.request({"type": "start", "table": first})
    reply = await alice.request({"type": "create_table", "game": "whist"})
    assert reply["type"] == "table_created"


async def test_a_waiting_table_nobody_changes_is_abandoned(harness: Harness) -> None:
    table, alice = await _waiting_table(harness)
    timeout = harness.server.settings.waiting_timeout
    await harness.clock.advance(timeout / 2)
    await alice.request({"type": "add_bot", "table": table, "seat": 1})
    await harness.clock.advance(timeout / 2 + 1)
    assert harness.server.lobby.tables[table].status == "waiting", "a change restarts the wait"
    await harness.clock.advance(timeout / 2)
    for _ in range(200):
        await asyncio.sleep(0.01)
        if table not in harness.server.lobby.tables:
            break
    assert table not in harness.server.lobby.tables
    stored = await harness.server.store.get_game(table)
    assert stored is not None and stored.status == "abandoned"
    assert stored.result == {"summary": "never started"}
    lobby = await alice.request({"type": "list_tables"})
    assert all(t["table"] != table for t in lobby["tables"])
