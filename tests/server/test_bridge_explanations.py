"""Every call explained, over the wire: a spectator's frames carry each call's meaning
by the bidders' system (the narration line, the ``explanations`` hint), and so do the
replay's steps."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Harness

# Long solid suits: the bots' double-dummy play solves in milliseconds.
DEAL = "N:AKQJT98.AK.AKQ.2 765.QJT98.JT9.43 432.765.8765.765 .432.432.AKQJT98"


def _explained(hints: dict[str, Any]) -> bool:
    said, meant = hints.get("auction") or [], hints.get("explanations") or []
    return len(said) == len(meant) and all(m["meaning"] for m in meant)


async def test_spectators_and_replays_get_every_calls_meaning(harness: Harness) -> None:
    alice = await harness.client("alice")
    created = await alice.request(
        {"type": "create_table", "game": "bridge", "options": {"deal": DEAL}}
    )
    table = int(created["table"]["table"])
    assert (await alice.request({"type": "spectate", "table": table}))["type"] == "snapshot"
    for seat in range(4):
        reply = await alice.request({"type": "add_bot", "table": table, "seat": seat, "bot": "gib"})
        assert reply["type"] == "table", reply
    calls = 0
    while True:
        msg = await alice.expect("update", table=table, timeout=30)
        assert _explained(msg["hints"])
        for event, line in zip(msg["events"], msg["narration"], strict=True):
            if event["kind"] == "call":
                calls += 1
                assert " — " in line and "no agreed meaning" not in line, line
        if msg["status"] == "finished":
            break
    assert calls >= 4

    replay = await alice.request({"type": "replay", "game_id": table, "viewer": "spectator"})
    assert replay["type"] == "replay"
    steps = [s for s in replay["steps"] if (s.get("action") or {}).get("type") == "call"]
    assert len(steps) == calls
    for step in steps:
        assert _explained(step["hints"])
        lines = [line for line in step["narration"] if line]
        assert any(" — " in line for line in lines), lines
