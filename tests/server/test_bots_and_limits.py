"""Bots go through the same validation as humans and cannot stall a table; the rate
limiter is a token bucket on an injectable clock."""

from __future__ import annotations

import asyncio

import pytest

from bots.base import BOTS
from server.clock import FakeClock
from server.ratelimit import TokenBucket
from tests.server.conftest import make_settings, start_harness


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        BOTS,
        "whist",
        {
            **BOTS["whist"],
            "slow": "tests.server.slow_bot:SlowBot",
            "broken": "tests.server.slow_bot:BrokenBot",
        },
    )


@pytest.mark.parametrize("bot", ["slow", "broken"])
async def test_a_late_or_illegal_bot_is_replaced_and_the_game_goes_on(
    sqlite_url: str, test_bots: None, bot: str
) -> None:
    h = await start_harness(make_settings(sqlite_url, bot_budget=0.05))
    try:
        c = await h.client()
        created = await c.request({"type": "create_table", "game": "whist"})
        table = created["table"]["table"]
        for seat in range(4):
            reply = await c.request({"type": "add_bot", "table": table, "seat": seat, "bot": bot})
            assert reply["type"] == "table"
        t = h.server.lobby.tables[table]
        for _ in range(400):
            if t.version >= 8:
                break
            await asyncio.sleep(0.02)
        assert t.version >= 8, "the table must keep moving despite the bot"
        stored = await h.server.store.get_game(table)
        assert stored is not None
        # Every logged move is legal (it was replayed through the rules to get here),
        # and each is logged as the stand-in's: the bot forfeited every decision.
        assert all(a.actor == f"bot:{bot}:stand_in" for a in stored.actions)
    finally:
        await h.server.stop()


async def test_unknown_bot_is_refused(harness) -> None:
    c = await harness.client()
    created = await c.request({"type": "create_table", "game": "whist"})
    reply = await c.request(
        {"type": "add_bot", "table": created["table"]["table"], "bot": "grandmaster"}
    )
    assert reply["code"] == "unknown_bot" and "heuristic" in reply["message"]


async def test_token_bucket_refills_with_the_clock() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=10, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.debt == 1
    await clock.advance(0.1)
    assert bucket.take() and not bucket.take()
    await clock.advance(10)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


async def test_a_late_bridge_bot_passes_instead_of_bidding(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in must not bid, double or claim for a seat (Game.stand_in): four late
    # bots pass the board out.
    monkeypatch.setitem(BOTS, "bridge", {**BOTS["bridge"], "slow": "tests.server.slow_bot:SlowBot"})
    h = await start_harness(make_settings(sqlite_url, bot_budget=0.05))
    try:
        c = await h.client()
        created = await c.request({"type": "create_table", "game": "bridge"})
        table = created["table"]["table"]
        for seat in range(4):
            add = {"type": "add_bot", "table": table, "seat": seat, "bot": "slow"}
            assert (await c.request(add))["type"] == "table"
        stored = None
        for _ in range(400):
            stored = await h.server.store.get_game(table)
            if stored is not None and stored.status == "finished":
                break
            await asyncio.sleep(0.02)
        assert stored is not None and stored.status == "finished"
        assert [a.action for a in stored.actions] == [{"type": "call", "call": "P"}] * 4
    finally:
        await h.server.stop()
