"""Frames a hostile or broken client sends get an error reply with a stable code;
the connection stays usable and nothing reaches the handlers half-parsed."""

from __future__ import annotations

import json

import pytest

from server.clock import FakeClock
from server.ratelimit import TokenBucket
from tests.server.conftest import Harness

HOSTILE: list[tuple[str | bytes, str]] = [
    ('{"type": []}', "bad_message"),  # an unhashable type crashed the lookup
    ('{"type": {"a": 1}}', "bad_message"),
    ('{"type": 7}', "bad_message"),
    ("[" * 1000 + "]" * 1000, "bad_message"),  # the decoder's recursion limit
    ('{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}", "bad_message"),
    ('{"type": "replay", "game_id": 18446744073709551616}', "bad_message"),  # past 64 bits
    ('{"type": "join", "table": 99999999999999999999999}', "bad_message"),
    ('{"type": "hello", "protocol": 1, "token": "\\ud800"}', "bad_message"),  # lone surrogate
    ('{"type": "hello", "protocol": 1, "name": "\\udfff"}', "bad_message"),
    (b'{"type": "ping"}', "bad_json"),  # the protocol is text frames only
    (b"\xff\xfe", "bad_json"),
    ("not json", "bad_json"),
    ('"a string"', "bad_message"),
    ('{"type": "no_such_thing"}', "unknown_type"),
    # An id a reply could not echo is refused, not answered without it.
    ('{"type": "ping", "id": 9223372036854775808}', "bad_message"),
    ('{"type": "ping", "id": -9223372036854775809}', "bad_message"),
    ('{"type": "ping", "id": "' + "x" * 129 + '"}', "bad_message"),
    ('{"type": "ping", "id": 1.5}', "bad_message"),
    ('{"type": "ping", "id": true}', "bad_message"),
]


async def test_the_widest_ids_are_echoed(harness: Harness) -> None:
    c = await harness.client(hello=False)
    for rid in (2**63 - 1, -(2**63), "x" * 128):
        await c.ws.send(json.dumps({"type": "ping", "id": rid}))
        assert (await c.expect("pong"))["id"] == rid
    await c.ws.send('{"type": "ping", "id": null}')  # as good as none
    assert "id" not in await c.expect("pong")


@pytest.mark.parametrize(("frame", "code"), HOSTILE, ids=lambda v: repr(v)[:40])
async def test_a_hostile_frame_gets_an_error_and_the_connection_lives(
    harness: Harness, frame: str | bytes, code: str
) -> None:
    c = await harness.client(hello=False)
    await c.ws.send(frame)
    reply = await c.expect("error")
    assert reply["code"] == code, reply
    assert (await c.request({"type": "ping"}))["type"] == "pong"


async def test_a_hostile_frame_after_hello_is_answered_the_same(harness: Harness) -> None:
    c = await harness.client()
    await c.ws.send('{"type": "replay", "game_id": 9223372036854775808}')
    assert (await c.expect("error"))["code"] == "bad_message"
    # The largest id the database holds is a clean "no such game".
    reply = await c.request({"type": "replay", "game_id": 2**63 - 1})
    assert reply["code"] == "unknown_game_id"


def test_a_flood_is_detected_even_when_tokens_trickle_back() -> None:
    """Sending 4,000 messages a second refuses nearly all of them; a token returns
    every 50 ms, which used to reset the count of refusals, so such a client was
    never called a flood."""
    clock = FakeClock()
    bucket = TokenBucket(rate=20, burst=40, clock=clock, flood_limit=200)
    flooded_after = None
    for i in range(4000):
        clock._now += 1 / 4000
        bucket.take()
        if bucket.flooding:
            flooded_after = i
            break
    assert flooded_after is not None and flooded_after < 400


def test_twice_the_rate_is_refused_but_never_a_flood() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=20, burst=40, clock=clock, flood_limit=200)
    passed = 0
    for _ in range(40 * 60):  # one minute at 40 messages a second
        clock._now += 1 / 40
        passed += bucket.take()
        assert not bucket.flooding
    assert 20 * 60 <= passed <= 20 * 60 + 40


async def test_a_flooding_connection_is_closed_with_4008(harness: Harness) -> None:
    c = await harness.client()
    for _ in range(300):
        await c.send({"type": "ping"})
    with pytest.raises(Exception):  # noqa: B017 - the close, whatever exception carries it
        for _ in range(400):
            await c.expect("never")
    assert c.ws.close_code == 4008


async def test_replies_to_every_frame_are_valid_json(harness: Harness) -> None:
    c = await harness.client(hello=False)
    for frame, _ in HOSTILE[:6]:
        await c.ws.send(frame)
        raw = await c.ws.recv()
        assert json.loads(raw)["type"] == "error"
