"""Frames carry the game's words: ``labels`` for ``legal``, ``narration`` for ``events``
(read from the position each update started from) and ``hints`` for ``view``; replay
steps carry ``label``, ``narration`` and ``hints`` too."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.events import SPECTATOR
from engine.replay import LoggedAction, steps
from rules.registry import get_game
from server.replay import SECRET_STEP
from tests.server.conftest import Harness, make_settings, play_out, sit_and_start, start_harness


@pytest.fixture
async def fast_harness(sqlite_url: str) -> AsyncIterator[Harness]:
    """A server whose rate limit a scripted player cannot reach."""
    h = await start_harness(make_settings(sqlite_url, rate=1e9, burst=10**9))
    yield h
    for c in h.clients:
        await c.ws.close()
    await h.server.stop()


async def test_whist_frames_say_what_happened_and_what_each_move_is(harness: Harness) -> None:
    alice = await harness.client("alice")
    table, token, snap = await sit_and_start(alice)
    assert snap["hints"] == {"teams": ["North/South", "East/West"]} and "narration" not in snap
    final = await play_out(alice, table, token, snap)
    assert final["status"] == "finished" and final["labels"] is None
    frames = [json.loads(f) for f in alice.frames]
    states = [m for m in frames if m.get("type") in ("snapshot", "update")]
    for msg in states:
        pretty = [f"Play {a['card'][0].replace('T', '10')}" for a in msg["legal"] or []]
        labels = msg["labels"] or []
        assert [label[: len(p)] for label, p in zip(labels, pretty, strict=True)] == pretty
    lines = [line for m in states if m["type"] == "update" for line in m["narration"]]
    assert any(line and line.startswith("You play ") for line in lines)
    assert any(line and line.startswith("East plays ") for line in lines)
    assert any(line and "the trick  (tricks North/South" in line for line in lines)
    assert lines[-1] is not None and lines[-1].startswith("Game over: ")


async def test_narration_starts_from_the_position_before_the_events(
    fast_harness: Harness,
) -> None:
    # Tractor names a trick's first play a lead: only the position before says so.
    harness = fast_harness
    alice = await harness.client("alice")
    created = await alice.request(
        {"type": "create_table", "game": "tractor", "options": {"rounds": 1}, "seat": 0}
    )
    table = created["table"]["table"]
    token = (await alice.expect("joined", table=table))["seat_token"]
    await alice.expect("snapshot", table=table)
    msg = await alice.request({"type": "start", "table": table})
    while msg.get("type") != "snapshot" or msg["status"] != "live":
        msg = await alice.expect("snapshot", table=table)
    updates = []
    live = harness.server.lobby.tables[table]
    while msg["status"] == "live":
        if len(updates) % 5 == 4:
            # A view kept from an older version (a viewer that missed updates) must
            # not be read as the position before the next action.
            live.last_views[0] = (live.version - 2, {"trick": [["stale"]]})
        if msg["legal"] and msg["version"] == harness.server.lobby.tables[table].version:
            act = {"type": "act", "table": table, "seat_token": token, "version": msg["version"]}
            await alice.request({**act, "action": msg["legal"][0]})
        msg = await alice.expect("update", table=table, timeout=20)
        updates.append(msg)

    stored = await harness.server.store.get_game(table)
    assert stored is not None
    game = get_game("tractor")
    config = game.parse_config(stored.config)
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    played = {s.seq: s.state for s in steps(game, config, stored.seed, log)}
    names = list(game.seat_names(config))
    for m in updates:
        before = game.view(played[m["version"] - 1], 0)
        assert m["narration"] == game.presentation.narration(before, m["events"], 0, names)
        assert m["hints"] == game.presentation.hints(m["view"])
    lines = [line or "" for m in updates for line in m["narration"]]
    assert any(" leads " in line or line.startswith("You lead ") for line in lines)

    reply: dict[str, Any] = await alice.request({"type": "replay", "game_id": table})
    assert reply["type"] == "replay"
    for prev, step in zip(reply["steps"], reply["steps"][1:], strict=False):
        words = game.presentation
        assert step["narration"] == words.narration(prev["view"], step["events"], SPECTATOR, names)
        if step["action"] is None:  # a secret step: a pass at the last word
            assert step["label"] == SECRET_STEP and step["seat"] is None
        else:
            assert step["label"] == words.step_label(prev["view"], step["action"])
        assert step["hints"] == words.hints(step["view"])
    assert reply["steps"][0]["label"] is None
    assert any(s["label"] == "Bury (withheld)" for s in reply["steps"])
