"""Reconnects: within the grace period the player gets the seat back and what it
missed; after it, the configured policy (default: a bot takes the seat) applies
and is logged."""

from __future__ import annotations

import asyncio

from tests.server.conftest import Harness
from tests.server.test_errors import turn_of
from tests.server.test_stand_ins import wait_for


async def sit(harness: Harness, name: str = "alice") -> tuple[object, int, str]:
    c = await harness.client(name)
    created = await c.request({"type": "create_table", "game": "whist", "seat": 2, "start": True})
    table = created["table"]["table"]
    joined = await c.expect("joined", table=table)
    return c, table, joined["seat_token"]


async def test_reconnect_within_grace_gets_the_same_seat_and_missed_events(
    harness: Harness,
) -> None:
    alice, table, seat_token = await sit(harness)
    t = harness.server.lobby.tables[table]
    await turn_of(harness, table, 2)
    token, seen = alice.token, t.version
    await alice.close()
    await asyncio.sleep(0.05)
    assert t.seats[2].connected is False
    # Nobody moves for seat 2 during the grace period; the other seats wait.
    await harness.clock.advance(10)
    assert t.version == seen and t.seats[2].stand_in is None

    back = await harness.client(hello=False)
    welcome = await back.hello(token=token)
    assert welcome["resumed"] and {"table": table, "seat": 2} in welcome["seats"]
    snap = await back.request(
        {"type": "resume", "table": table, "since": seen - 2, "seat_token": seat_token}
    )
    missed = [m for m in back.inbox if m["type"] == "update"]
    assert [m["version"] for m in missed] == [seen - 1, seen]
    # Each missed update shows the table as it was then; only the newest offers moves.
    assert missed[0]["legal"] is None and missed[-1]["legal"]
    assert len(missed[0]["view"]["trick"]) == len(missed[-1]["view"]["trick"]) - 1
    assert snap["type"] == "snapshot" and snap["seat"] == 2 and snap["legal"]
    assert t.seats[2].connected is True
    # The grace timer was cancelled: advancing past it changes nothing.
    await harness.clock.advance(60)
    assert t.seats[2].stand_in is None
    reply = await back.request(
        {
            "type": "act",
            "table": table,
            "seat_token": seat_token,
            "version": snap["version"],
            "action": snap["legal"][0],
        }
    )
    assert reply["type"] == "ack"


async def test_after_grace_a_bot_takes_over_and_it_is_logged(harness: Harness) -> None:
    alice, table, _ = await sit(harness)
    t = harness.server.lobby.tables[table]
    await turn_of(harness, table, 2)
    token = alice.token
    await alice.close()
    await asyncio.sleep(0.05)
    await harness.clock.advance(harness.server.settings.grace + 1)
    for _ in range(500):
        if t.status == "finished":
            break
        await asyncio.sleep(0.01)
    assert t.status == "finished", "the stand-in bot should play the game out"
    events = await harness.server.store.table_events(table)
    assert (
        "bot_took_over",
        {"seat": 2, "player": t.seats[2].player_id, "why": "grace_expired", "policy": "bot"},
    ) in events
    # The human may still come back and replay what happened.
    back = await harness.client(hello=False)
    assert (await back.hello(token=token))["resumed"]
    replay = await back.request({"type": "replay", "game_id": table, "viewer": 2})
    assert replay["type"] == "replay" and replay["total"] == 53


async def test_returning_human_takes_the_seat_back_from_the_bot(sqlite_url: str) -> None:
    from tests.server.conftest import make_settings, start_harness

    # A bot delay on the fake clock lets us catch the stand-in mid-game.
    h = await start_harness(make_settings(sqlite_url, bot_delay=1.0))
    try:
        alice, table, seat_token = await sit(h)
        t = h.server.lobby.tables[table]
        for _ in range(100):
            if t.game.to_act(t.state) == (2,):
                break
            await h.clock.advance(1)
            await asyncio.sleep(0.01)
        assert t.game.to_act(t.state) == (2,)
        token = alice.token
        await alice.close()
        await asyncio.sleep(0.05)
        await h.clock.advance(h.server.settings.grace + 0.5)
        for _ in range(200):  # the takeover is stored before it happens
            if t.seats[2].stand_in is not None:
                break
            await asyncio.sleep(0.01)
        assert t.seats[2].stand_in is not None
        back = await h.client(hello=False)
        await back.hello(token=token)
        snap = await back.request(
            {"type": "resume", "table": table, "since": 0, "seat_token": seat_token}
        )
        assert snap["type"] == "snapshot"
        assert t.seats[2].stand_in is None
        assert ("human_returned", {"seat": 2, "player": t.seats[2].player_id}) in (
            await h.server.store.table_events(table)
        )
    finally:
        await h.server.stop()


async def test_a_player_gone_while_the_table_waited_gets_a_grace_period_at_the_start(
    harness: Harness,
) -> None:
    # Jo creates a table, seats bots at 1 and 3 and goes; Kim fills seat 2, which
    # starts the game.  Jo's seat is absent from the start: the same grace period,
    # then the bot (it used to wait for Jo for ever).
    jo = await harness.client("jo")
    created = await jo.request({"type": "create_table", "game": "whist", "seat": 0})
    table = created["table"]["table"]
    await jo.expect("joined", table=table)
    for seat in (1, 3):
        assert (await jo.request({"type": "add_bot", "table": table, "seat": seat}))[
            "type"] != "error"
    await jo.close()
    await asyncio.sleep(0.05)
    t = harness.server.lobby.tables[table]
    assert t.status == "waiting" and t.seats[0].connected is False
    kim = await harness.client("kim")
    await kim.request({"type": "join", "table": table, "seat": 2})
    await wait_for(lambda: t.status == "live", "the full table starts")
    assert t.seats[0].grace is not None
    await harness.clock.advance(harness.server.settings.grace + 1)
    await wait_for(lambda: t.seats[0].stand_in is not None, "the bot takes seat 0")
    events = await harness.server.store.table_events(table)
    assert ("bot_took_over", {"seat": 0, "player": t.seats[0].player_id,
                              "why": "grace_expired", "policy": "bot"}) in events
