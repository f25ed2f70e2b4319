"""The turn clock: a human who lets it run out has a bot move played for them,
through the same pipeline, and the timeout is logged; acting in time resets it."""

from __future__ import annotations

import asyncio

from server.turnclock import restored_clock
from tests.server.conftest import Harness
from tests.server.test_errors import turn_of


async def test_an_expired_turn_is_played_for_the_human_and_logged(harness: Harness) -> None:
    c = await harness.client("slowpoke")
    created = await c.request(
        {"type": "create_table", "game": "whist", "seat": 2, "start": True, "turn_seconds": 30}
    )
    assert created["table"]["turn_seconds"] == 30
    table = created["table"]["table"]
    t = harness.server.lobby.tables[table]
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
    t = harness.server.lobby.tables[table]
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


async def _moved(t: object, version: int) -> bool:
    for _ in range(200):
        if t.version > version:  # type: ignore[attr-defined]
            return True
        await asyncio.sleep(0.01)
    return False


async def test_the_time_bank_runs_after_the_turn_time_and_is_spent_for_good(
    harness: Harness,
) -> None:
    c = await harness.client("slowpoke")
    created = await c.request(
        {
            "type": "create_table",
            "game": "whist",
            "seat": 2,
            "start": True,
            "turn_seconds": 30,
            "time_bank": 20,
        }
    )
    assert created["table"]["time_bank"] == 20
    table = created["table"]["table"]
    t = harness.server.lobby.tables[table]
    await turn_of(harness, table, 2)
    version = t.version
    snap = await c.request({"type": "resume", "table": table, "since": version})
    assert snap["clock"]["seats"] == [2] and snap["clock"]["banks"][2] == 20
    await harness.clock.advance(45)  # 30 s of turn time, then 15 s of the bank
    assert t.version == version, "the bank is still running"
    await harness.clock.advance(5)
    assert await _moved(t, version), "turn time and bank are both gone"
    assert t.clock is not None and t.clock.banks[2] == 0
    # The next turn has its turn time only.
    await turn_of(harness, table, 2)
    version = t.version
    await harness.clock.advance(30)
    assert await _moved(t, version)


async def test_a_bank_partly_used_is_kept_across_turns_and_restarts(harness: Harness) -> None:
    c = await harness.client("thinker")
    created = await c.request(
        {
            "type": "create_table",
            "game": "whist",
            "seat": 2,
            "start": True,
            "turn_seconds": 10,
            "time_bank": 60,
        }
    )
    table = created["table"]["table"]
    token = (await c.expect("joined", table=table))["seat_token"]
    t = harness.server.lobby.tables[table]
    await turn_of(harness, table, 2)
    await harness.clock.advance(25)  # 15 s over the turn time
    snap = await c.request(
        {"type": "resume", "table": table, "since": t.version, "seat_token": token}
    )
    assert snap["clock"]["turn_left"] == 0 and snap["clock"]["banks"][2] == 45
    reply = await c.request(
        {
            "type": "act",
            "table": table,
            "seat_token": token,
            "version": snap["version"],
            "action": snap["legal"][0],
        }
    )
    assert reply["type"] == "ack"
    # The spent bank was stored with the action, before the ack: a server killed
    # right after it does not give the time back.
    events = await harness.server.store.table_events(table)
    assert ("time_bank", {"banks": {"2": 45.0}}) in events
    await turn_of(harness, table, 2)
    assert t.clock is not None and t.clock.banks[2] == 45
    # A restarted server rebuilds the clock with it.
    stored = await harness.server.store.get_game(table)
    assert stored is not None
    clock = restored_clock(stored.table_options, 4,
                           await harness.server.store.table_events(table))
    assert clock is not None and clock.banks == [60, 60, 45, 60]


def test_a_bank_without_a_turn_clock_is_refused() -> None:
    import pytest
    from pydantic import ValidationError

    from protocol.requests import client_adapter

    with pytest.raises(ValidationError, match="time_bank needs turn_seconds"):
        client_adapter.validate_python({"type": "create_table", "game": "whist", "time_bank": 30})
