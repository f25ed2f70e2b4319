"""A rummy table on the server, end to end: a player at seat 0 (first legal action
every turn) against the default bot, both variants, until the game is over."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import make_settings, play_out, start_harness


@pytest.mark.parametrize(
    "options",
    [{"variant": "indian", "pool": 0}, {"variant": "gin", "target": 0}],
    ids=["indian", "gin"],
)
async def test_a_rummy_table_plays_to_the_end(tmp_path: Any, options: dict[str, Any]) -> None:
    harness = await start_harness(make_settings(f"sqlite:///{tmp_path}/cardtable.db"))
    try:
        await _play(harness, options)
    finally:
        for client in harness.clients:
            await client.ws.close()
        await harness.server.stop()


async def _play(harness: Any, options: dict[str, Any]) -> None:
    c = await harness.client()
    created = await c.request(
        {"type": "create_table", "game": "rummy", "options": options, "seat": 0, "start": True}
    )
    assert created["type"] == "table_created", created
    table = created["table"]["table"]
    joined = await c.expect("joined", table=table)
    snap = await c.expect("snapshot", table=table)
    while snap["status"] != "live":
        snap = await c.expect("snapshot", table=table)
    assert snap["view"]["variant"] == options["variant"] and len(snap["view"]["hand"]) >= 10
    final = await play_out(c, table, joined["seat_token"], snap)
    assert final["status"] == "finished"
    assert final["view"]["result"]["scores"]
