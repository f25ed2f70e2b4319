"""The validation pipeline and the limits: each bad request gets its documented
error code (only to its sender) or close code, and the table is unchanged."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client, Harness, make_settings, start_harness


async def two_humans(harness: Harness) -> tuple[Client, Client, int]:
    """Alice at seat 2, Bob at seat 0, bots at 1 and 3; the game started.
    Seat 1 leads the first trick, so Alice is the first human to act."""
    alice = await harness.client("alice")
    bob = await harness.client("bob")
    created = await alice.request(
        {"type": "create_table", "game": "whist", "seat": 2, "start": False}
    )
    table = created["table"]["table"]
    await alice.expect("joined")
    joined = await bob.request({"type": "join", "table": table, "seat": 0})
    assert joined["type"] == "joined"
    started = await alice.request({"type": "start", "table": table})
    assert started["type"] == "table" and started["table"]["status"] == "live"
    return alice, bob, table


async def turn_of(harness: Harness, table: int, seat: int) -> None:
    """Wait until ``seat`` is to act (bots play the seats between)."""
    t = harness.server.lobby.tables[table]
    for _ in range(500):
        if t.game.to_act(t.state) == (seat,):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never my turn")


async def test_out_of_turn_other_seat_and_stale_version(harness: Harness) -> None:
    alice, bob, table = await two_humans(harness)
    await turn_of(harness, table, 2)
    t = harness.server.lobby.tables[table]
    version = t.version
    legal = t.game.legal(t.state, 2)
    a_token, b_token = alice.seat_tokens[table], bob.seat_tokens[table]

    # Bob acts while it is Alice's turn.
    reply = await bob.request(
        {
            "type": "act",
            "table": table,
            "seat_token": b_token,
            "version": version,
            "action": dict(legal[0]),
        }
    )
    assert reply["code"] == "not_your_turn"
    # Bob tries Alice's seat with his own token, then a made-up token.
    for token in (b_token + "x", "forged"):
        reply = await bob.request(
            {
                "type": "act",
                "table": table,
                "seat_token": token,
                "version": version,
                "action": dict(legal[0]),
            }
        )
        assert reply["code"] == "bad_seat_token"
    # Bob uses Alice's token: tokens are bound to the session that joined.
    reply = await bob.request(
        {
            "type": "act",
            "table": table,
            "seat_token": a_token,
            "version": version,
            "action": dict(legal[0]),
        }
    )
    assert reply["code"] == "bad_seat_token"
    # Alice on a stale version.
    reply = await alice.request(
        {
            "type": "act",
            "table": table,
            "seat_token": a_token,
            "version": version - 1,
            "action": dict(legal[0]),
        }
    )
    assert reply["code"] == "stale_version"
    # Alice plays a card she does not hold: the rules' own code rides along.
    held = set(t.game.view(t.state, 2)["hand"])
    missing = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S") if c not in held)
    reply = await alice.request(
        {
            "type": "act",
            "table": table,
            "seat_token": a_token,
            "version": version,
            "action": {"type": "play", "card": missing},
        }
    )
    assert reply["code"] == "illegal_action" and reply["reason"] == "not_in_hand"
    assert missing not in reply["message"]
    # A legal card with a field no whist action has (a typo, say): refused, naming it.
    reply = await alice.request(
        {
            "type": "act",
            "table": table,
            "seat_token": a_token,
            "version": version,
            "action": {**dict(legal[0]), "crad": "AS"},
        }
    )
    assert reply["code"] == "illegal_action" and reply["reason"] == "bad_action"
    assert "unknown field 'crad'" in reply["message"]
    # Nothing of that changed the table; errors went only to their senders.
    assert t.version == version
    assert all(m["type"] != "error" for m in bob.inbox if m.get("id") is None)
    reply = await alice.request(
        {
            "type": "act",
            "table": table,
            "seat_token": a_token,
            "version": version,
            "action": dict(legal[0]),
        }
    )
    assert reply == {"type": "ack", "table": table, "version": version + 1, "id": reply["id"]}


@pytest.mark.parametrize(
    "frame,code",
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "teleport"}), "unknown_type"),
        (json.dumps({"type": "join"}), "bad_message"),
        (json.dumps({"type": "join", "table": "x"}), "bad_message"),
        # JSON types as the schema says: true is no number, "3" no seat.
        (json.dumps({"type": "act", "table": 1, "version": True, "action": {}}), "bad_message"),
        (json.dumps({"type": "join", "table": 1, "seat": "3"}), "bad_message"),
        (json.dumps({"type": "join", "table": 1.0}), "bad_message"),
        (json.dumps({"type": "join", "table": 999}), "unknown_table"),
        (json.dumps({"type": "create_table", "game": "chess"}), "unknown_game"),
        (
            json.dumps({"type": "create_table", "game": "whist", "options": {"deals": 0}}),
            "bad_option",
        ),
        (json.dumps({"type": "replay", "game_id": 424242}), "unknown_game_id"),
    ],
)
async def test_malformed_requests_get_documented_codes(harness: Harness, frame: str, code: str):
    c = await harness.client()
    await c.ws.send(frame)
    err = await c.expect("error")
    assert err["code"] == code, err
    assert set(err) >= {"type", "code", "message", "reason"}  # the same keys, always
    assert err["reason"] is None  # only an illegal_action has one
    assert (await c.request({"type": "ping"}))["type"] == "pong"  # still connected


@pytest.mark.parametrize(("game", "version", "current"), [
    ("tractor", 1, 5), ("bridge", 1, 2), ("whist", -5, 1), ("poker", 10**30, 1)])
async def test_new_tables_are_made_at_the_rules_current_version(
    harness: Harness, game: str, version: int, current: int
) -> None:
    """The options' ``version`` is the server's: an older one is for stored tables."""
    c = await harness.client()
    err = await c.request({"type": "create_table", "game": game,
                           "options": {"version": version}})
    assert err["type"] == "error" and err["code"] == "bad_option", err
    assert "'version'" in err["message"]
    made = await c.request({"type": "create_table", "game": game,
                            "options": {"version": current}})
    assert made["type"] == "table_created" and made["table"]["options"]["version"] == current


async def test_hello_is_required_first(harness: Harness) -> None:
    c = await harness.client(hello=False)
    reply = await c.request({"type": "list_tables"})
    assert reply["code"] == "hello_required"


async def test_unsupported_protocol_version_closes_4002(harness: Harness) -> None:
    c = await harness.client(hello=False)
    reply = await c.request({"type": "hello", "protocol": 99})
    assert reply["code"] == "unsupported_version"
    with pytest.raises(ConnectionClosed) as closed:
        await c.ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4002


async def keep_playing(harness: Harness, client: Client) -> dict[str, Any]:
    created = await client.request(
        {"type": "create_table", "game": "whist", "seat": 0, "start": True}
    )
    return created


async def test_oversize_frame_closes_1009_while_others_play(harness: Harness) -> None:
    calm = await harness.client("calm")
    big = await harness.client("big")
    await big.ws.send("x" * (64 * 1024 + 1))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            await big.ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert (await keep_playing(harness, calm))["type"] == "table_created"


async def test_flood_is_rate_limited_then_closed_4008(harness: Harness) -> None:
    calm = await harness.client("calm")
    noisy = await harness.client("noisy")
    # The fake clock never advances, so the bucket never refills: deterministic.
    for i in range(40 + 300):
        try:
            await noisy.ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))
        except ConnectionClosed:
            break
    codes, notices = [], []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            msg = json.loads(await noisy.ws.recv())
            codes.append(msg.get("code") or msg["type"])
            if msg.get("code") == "rate_limited":
                notices.append(msg)
    assert "rate_limited" in codes
    # The refused message is not read: the notice names no request (not the last one
    # that passed, which a client would take for the refused one).
    assert notices and all("id" not in n for n in notices)
    assert codes.count("pong") <= 40
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008
    assert (await keep_playing(harness, calm))["type"] == "table_created"


async def test_idle_connections_are_closed_4010(sqlite_url: str) -> None:
    h = await start_harness(make_settings(sqlite_url, idle_timeout=0.2))
    try:
        # Silent from the start: a hello could itself miss 0.2 s on a loaded machine.
        c = await h.client(hello=False)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(c.ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4010
    finally:
        await h.server.stop()


async def test_a_client_that_keeps_talking_is_not_idle(sqlite_url: str) -> None:
    h = await start_harness(make_settings(sqlite_url, idle_timeout=0.3))
    try:
        c = await h.client()
        for _ in range(8):  # 0.8 s of pings, each well inside the timeout
            await c.ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(c.ws.recv(), 5))["type"] == "pong"
            await asyncio.sleep(0.1)
        with pytest.raises(ConnectionClosed) as closed:  # silent now
            await asyncio.wait_for(c.ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4010
    finally:
        await h.server.stop()


async def test_slow_consumer_is_disconnected_4009(sqlite_url: str) -> None:
    h = await start_harness(make_settings(sqlite_url, outbound_queue=4))
    try:
        slow = await h.client("slow")
        conn = next(c for c in h.server.connections if c.player_id is not None)
        # Fill the outbound queue faster than any client could drain it.
        for _ in range(10):
            conn.send({"type": "pong"})
        assert conn.closing
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(slow.ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4009
    finally:
        await h.server.stop()


async def test_a_stream_of_malformed_messages_closes_4000(harness: Harness) -> None:
    c = await harness.client()
    for _ in range(20):
        await c.ws.send("nonsense")
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await c.ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
