"""The turn clock: a human who lets it run out has a bot move played for them,
through the same pipeline, and the timeout is logged; acting in time resets it."""

from __future__ import annotations

import asyncio

from tests.server.conftest import Harness
from tests.server.test_errors import turn_of


async def test_an_expired_turn_is_played_for_the_human_and_logged(harness: Harness) -> None:
    c = await harness.client("slowpoke")
    created = await c.request(
        {"type": "create_table", "game": "whist", "seat": 2, "start": True, "turn_seconds": 30}
    )
    assert created["table"]["turn_seconds"] == 30
    table = created["table"]["table"]
    t = harness.server.tables[table]
    await turn_of(harness, table, 2)
    version = t.version
    await harness.clock.advance(29)
    assert t.version == version, "the clock has not run out yet"
    await harness.clock.advance(1)
    for _ in range(200):
        if t.version > version:
            break
        await asyncio.sleep(0.01)
    assert t.version > version
    stored = await harness.server.store.get_game(table)
    assert stored is not None
    assert stored.actions[version].actor.startswith("timeout:")
    assert stored.actions[version].seat == 2
    assert ("turn_timeout", {"seat": 2, "version": version, "seconds": 30.0}) in (
        await harness.server.store.table_events(table)
    )
    assert stored.table_options["turn_seconds"] == 30.0


async def test_acting_in_time_beats_the_clock(harness: Harness) -> None:
    c = await harness.client("quick")
    created = await c.request(
        {"type": "create_table", "game": "whist", "seat": 2, "start": True, "turn_seconds": 30}
    )
    table = created["table"]["table"]
    token = (await c.expect("joined"))["seat_token"]
    t = harness.server.tables[table]
    await turn_of(harness, table, 2)
    await harness.clock.advance(20)
    legal = t.game.legal(t.state, 2)
    reply = await c.request(
        {
            "type": "act",
            "table": table,
            "seat_token": token,
            "version": t.version,
            "action": dict(legal[0]),
        }
    )
    assert reply["type"] == "ack"
    await harness.clock.advance(15)  # past the first clock, not the second
    stored = await harness.server.store.get_game(table)
    assert stored is not None
    assert all(not a.actor.startswith("timeout:") for a in stored.actions)
