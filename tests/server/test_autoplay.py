"""Autoplay (docs/protocol.md, "Autoplay"): a seated player lets the game's
default bot play for its seat and takes it back, through the same stand-in an
absent player gets; nothing in the game knows."""

from __future__ import annotations

from tests.server.conftest import Harness
from tests.server.test_errors import turn_of
from tests.server.test_stand_ins import drain, wait_for


async def test_autoplay_plays_for_the_seat_until_switched_off(harness: Harness) -> None:
    c = await harness.client("sleepy")
    created = await c.request({"type": "create_table", "game": "whist", "seat": 0,
                               "start": True})
    table = created["table"]["table"]
    await c.expect("joined")
    token = c.seat_tokens[table]
    t = harness.server.lobby.tables[table]
    await turn_of(harness, table, 0)
    version = t.version
    reply = await c.request({"type": "autoplay", "table": table, "seat_token": token,
                             "on": True})
    assert reply["type"] == "table" and reply["table"]["seats"][0]["bot"] is not None
    # The bot plays seat 0's turn, and the next ones.
    await wait_for(lambda: t.version > version + 4, "autoplay must play for the seat")
    reply = await c.request({"type": "autoplay", "table": table, "seat_token": token,
                             "on": False})
    assert reply["type"] == "table" and reply["table"]["seats"][0]["bot"] is None
    assert t.seats[0].stand_in is None
    stored = await harness.server.store.get_game(table)
    assert stored is not None
    assert any(a.seat == 0 and a.actor.startswith("bot:") for a in stored.actions)
    await drain(c)


async def test_autoplay_needs_the_seat_token(harness: Harness) -> None:
    c = await harness.client("stranger")
    created = await c.request({"type": "create_table", "game": "whist", "seat": 0,
                               "start": True})
    table = created["table"]["table"]
    reply = await c.request({"type": "autoplay", "table": table, "seat_token": "nope"})
    assert reply["type"] == "error" and reply["code"] == "bad_seat_token"
    await drain(c)
