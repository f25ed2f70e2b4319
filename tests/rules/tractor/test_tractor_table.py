"""A Tractor table on the server, end to end (issue 4 §3): a player at seat 0 against
three bots and a spectator watching, one round, over real websocket clients.

The player declares trump whenever the draw offers it (live declaration), otherwise
takes the first legal action. Checked on the frames each client received: the
declaration and the tricks reach everyone, the kitty's cards reach only the
landlord until the round ends, and the view carries points and levels throughout.
"""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import Client, make_settings, start_harness


async def test_a_tractor_round_at_a_table_with_a_spectator(tmp_path: Any) -> None:
    # The harness's clock is fake and never refills the rate limiter's bucket, and a
    # round takes us over a hundred messages: lift the limit for this client.
    settings = make_settings(f"sqlite:///{tmp_path}/cardtable.db", rate=1e6, burst=10_000)
    harness = await start_harness(settings)
    try:
        player = await harness.client("ann")
        watcher = await harness.client("bob")
        created = await player.request(
            {
                "type": "create_table",
                "game": "tractor",
                "options": {"rounds": 1},
                "seat": 0,
                "start": True,
            }
        )
        assert created["type"] == "table_created", created
        table = created["table"]["table"]
        token = (await player.expect("joined", table=table))["seat_token"]
        reply = await watcher.request({"type": "spectate", "table": table})
        assert reply["type"] == "snapshot" and reply["seat"] is None, reply
        snap = await player.expect("snapshot", table=table)
        while snap["status"] != "live":
            snap = await player.expect("snapshot", table=table)
        final, mine = await _play(player, table, token, snap)
        watched = await _watch_to_end(watcher, table)
    finally:
        for client in harness.clients:
            await client.ws.close()
        await harness.server.stop()

    assert final["status"] == "finished"
    landlord = final["view"]["landlord"]
    kinds = {e["kind"] for e in mine}
    assert {"draw", "trump", "buried", "play", "trick", "round_end"} <= kinds
    # Live declaration: our declaration (when the draw offered one) reached the spectator.
    ours = [e for e in mine if e["kind"] == "declare" and e.get("seat") == 0]
    seen = [e for e in watched if e["kind"] == "declare"]
    assert len(seen) == len([e for e in mine if e["kind"] == "declare"])
    assert all(e in seen for e in ours)
    # The kitty: its cards are the landlord's alone until round_end shows them to all.
    assert not any(e["kind"] == "kitty" for e in watched)
    assert any(e["kind"] == "kitty" for e in mine) == (landlord == 0)
    # Points won and levels are on every view the spectator got.
    assert all("levels" in v for v in _views(watcher))
    end = next(e for e in watched if e["kind"] == "round_end")
    assert len(end["kitty"]) == 8
    result = final["view"]["result"]
    assert result is not None and len(result["scores"]) == 4


async def _play(
    c: Client, table: int, token: str, first: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Declare when offered, else the first legal action; every event we saw."""
    msg, events = first, []
    while msg["status"] == "live":
        if msg["legal"]:
            declare = [a for a in msg["legal"] if a["type"] == "declare"]
            action = declare[0] if declare else msg["legal"][0]
            reply = await c.request(
                {
                    "type": "act",
                    "table": table,
                    "seat_token": token,
                    "version": msg["version"],
                    "action": action,
                }
            )
            assert reply["type"] in ("ack", "error"), reply
            if reply["type"] == "error":
                # A bot's declaration can land first and make ours stale.
                assert reply["code"] in ("stale_version", "not_your_turn", "illegal_action"), reply
        msg = await c.expect("update", table=table, timeout=10)
        events.extend(msg["events"])
    return msg, events


async def _watch_to_end(c: Client, table: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        msg = await c.expect("update", table=table, timeout=10)
        events.extend(msg["events"])
        if msg["status"] != "live":
            return events


def _views(c: Client) -> list[dict[str, Any]]:
    out = []
    for raw in c.frames:
        msg = json.loads(raw)
        if msg["type"] in ("snapshot", "update"):
            out.append(msg["view"])
    return out
