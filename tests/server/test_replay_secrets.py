"""Cards a game never reveals stay hidden in its replays (docs/poker.md, "Hidden
information": folded and mucked hands are shown to nobody): over the protocol a
finished poker game is replayed from a seat's view by that seat's player alone."""

from __future__ import annotations

import asyncio

from tests.server.conftest import Harness
from tests.server.test_stand_ins import drain


async def test_only_its_player_replays_a_poker_seat(harness: Harness) -> None:
    alice = await harness.client("alice")
    created = await alice.request({"type": "create_table", "game": "poker", "seat": 0,
                                   "start": True, "options": {"seats": 3, "hands": 2}})
    table = created["table"]["table"]
    token = (await alice.expect("joined", table=table))["seat_token"]
    await alice.request({"type": "autoplay", "table": table, "seat_token": token, "on": True})
    t = harness.server.lobby.tables[table]
    for _ in range(600):
        if t.status == "finished":
            break
        await asyncio.sleep(0.05)
    assert t.status == "finished"
    bob = await harness.client("bob")
    for viewer in (0, 1, 2):  # its own seat's cards, or a bot's: not bob's to see
        reply = await bob.request({"type": "replay", "game_id": table, "viewer": viewer})
        assert reply["type"] == "error" and reply["code"] == "replay_hidden", reply
    assert (await bob.request({"type": "replay", "game_id": table, "viewer": "all"}))[
        "type"] == "replay"
    mine = await alice.request({"type": "replay", "game_id": table, "viewer": 0})
    assert mine["type"] == "replay" and mine["viewer"] == 0
    theirs = await alice.request({"type": "replay", "game_id": table, "viewer": 1})
    assert theirs["type"] == "error" and theirs["code"] == "replay_hidden"
    await drain(alice)


async def test_a_game_with_no_secret_left_replays_from_any_seat(harness: Harness) -> None:
    alice = await harness.client("alice")
    created = await alice.request({"type": "create_table", "game": "whist", "start": True})
    table = created["table"]["table"]
    t = harness.server.lobby.tables[table]
    for _ in range(600):
        if t.status == "finished":
            break
        await asyncio.sleep(0.05)
    bob = await harness.client("bob")
    reply = await bob.request({"type": "replay", "game_id": table, "viewer": 2})
    assert reply["type"] == "replay"
