"""Leaving a live table (docs/protocol.md, "Lobby"): a bot takes the seat for the
rest of the game, and the seat cannot be taken back with its old token, after a
restart either; the seat still names the player whose moves were played."""

from __future__ import annotations

from tests.server.conftest import Harness, make_settings, start_harness
from tests.server.test_end_match import two_humans
from tests.server.test_stand_ins import drain


async def test_a_seat_left_in_play_is_a_bots_for_good(harness: Harness) -> None:
    a, b, table = await two_humans(harness)
    old_token = b.seat_tokens[table]
    assert (await b.request({"type": "leave", "table": table}))["type"] == "left"
    t = harness.server.lobby.tables[table]
    assert t.seats[1].controller is not None and t.seats[1].player_id is not None
    for msg in (
        {"type": "act", "table": table, "seat_token": old_token, "version": t.version,
         "action": {"type": "pass"}},
        {"type": "resume", "table": table, "since": 0, "seat_token": old_token},
    ):
        reply = await b.request(msg)
        assert reply["type"] == "error" and reply["code"] == "bad_seat_token", reply
    assert t.seats[1].controller is not None  # the bot still plays it
    again = await harness.client(hello=False)
    welcome = await again.hello(token=b.token)
    assert welcome["seats"] == []  # not offered back as the player's seat
    await drain(a)


async def test_a_seat_left_in_play_stays_the_bots_after_a_restart(sqlite_url: str) -> None:
    h = await start_harness(make_settings(sqlite_url))
    try:
        _, b, table = await two_humans(h)
        old_token, player = b.seat_tokens[table], h.server.lobby.tables[table].seats[1].player_id
        await b.request({"type": "leave", "table": table})
    finally:
        await h.server.stop()
    h2 = await start_harness(make_settings(sqlite_url))
    try:
        seat = h2.server.lobby.tables[table].seats[1]
        assert (seat.kind, seat.player_id, seat.controller) == ("human", player, seat.stand_in)
        assert seat.stand_in is not None  # at once, not after a grace period
        c = await h2.client(hello=False)
        await c.hello(token=b.token)
        reply = await c.request(
            {"type": "resume", "table": table, "since": 0, "seat_token": old_token})
        assert reply["type"] == "error" and reply["code"] == "bad_seat_token"
    finally:
        await h2.server.stop()


async def test_autoplay_goes_on_after_a_restart(sqlite_url: str) -> None:
    """A player who switched autoplay on and went away finds the bot still playing
    for them after a restart: no grace period, no forfeit under that policy."""
    settings = make_settings(sqlite_url, disconnect_policy="forfeit")
    h = await start_harness(settings)
    try:
        _, b, table = await two_humans(h)
        reply = await b.request({"type": "autoplay", "table": table,
                                 "seat_token": b.seat_tokens[table], "on": True})
        assert reply["type"] == "table", reply
        await b.ws.close()
    finally:
        await h.server.stop()
    h2 = await start_harness(settings)
    try:
        t = h2.server.lobby.tables[table]
        seat = t.seats[1]
        assert seat.stand_in is not None and seat.grace is None
        await h2.clock.advance(settings.grace + 1)
        assert t.status == "live"  # not forfeited
        # Its owner switches it off: a later restart gives the seat a grace period.
        c = await h2.client(hello=False)
        await c.hello(token=b.token)
        off = await c.request({"type": "autoplay", "table": table,
                               "seat_token": b.seat_tokens[table], "on": False})
        assert off["type"] == "table", off
    finally:
        await h2.server.stop()
    h3 = await start_harness(settings)
    try:
        seat = h3.server.lobby.tables[table].seats[1]
        assert seat.stand_in is None and seat.grace is not None
    finally:
        await h3.server.stop()
