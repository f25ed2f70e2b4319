"""Replays of long games: paged and bounded in size, built off the event loop."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from engine.replay import LoggedAction
from engine.rng import Rng
from rules.registry import get_game
from server.replay import PAGE_BYTES
from tests.server.conftest import Harness


async def _store_long_game(harness: Harness, hands: int = 150) -> tuple[int, int]:
    """A finished poker game of many hands, played at random and stored; its id and
    number of actions."""
    game = get_game("poker")
    config = game.parse_config({"seats": 6, "hands": hands})
    seed = 7
    state = game.new(config, seed)
    rng = Rng(seed)
    log: list[LoggedAction] = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        action = dict(rng.choice(list(game.legal(state, seat))))
        state, _ = game.act(state, seat, action)
        log.append(LoggedAction(len(log) + 1, seat, action))
    store = harness.server.store
    game_id = await store.create_game("poker", game.config_json(config), seed, "long", 6)
    await asyncio.gather(
        *(store.append_action(game_id, a.seq, a.seat, dict(a.action), "test") for a in log)
    )
    await store.set_status(game_id, "finished", game.result(state).to_json())  # type: ignore[union-attr]
    return game_id, len(log)


async def test_a_long_replay_comes_in_pages_of_bounded_size(harness: Harness) -> None:
    game_id, actions = await _store_long_game(harness)
    c = await harness.client()
    seqs: list[int] = []
    start, pages = 0, 0
    while start is not None:
        await c.send(
            {
                "type": "replay",
                "game_id": game_id,
                "viewer": "all",
                "start": start,
                "limit": 2000,
                "id": "p",
            }
        )
        frame = await asyncio.wait_for(c.ws.recv(), 60)
        assert len(frame) < PAGE_BYTES + 64 * 1024  # one step past the budget at most
        page = json.loads(frame)
        assert page["total"] == actions + 1
        seqs += [s["seq"] for s in page["steps"]]
        start, pages = page["next"], pages + 1
    assert seqs == list(range(actions + 1))
    assert pages > 1


async def test_a_replay_being_built_does_not_hold_up_other_connections(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-applying a long log takes seconds (a 5,869-action game took 9-12 s); the
    build is made slow on purpose here, so the order of the replies shows whether
    the event loop waited for it."""
    import server.stored_requests

    game_id, _ = await _store_long_game(harness, hands=5)
    real = server.stored_requests.build_replay

    def slow(*args: Any, **kw: Any) -> dict[str, Any]:
        time.sleep(1.0)
        return real(*args, **kw)

    monkeypatch.setattr(server.stored_requests, "build_replay", slow)
    reader = await harness.client("reader")
    other = await harness.client("other")
    order: list[str] = []

    async def replay() -> None:
        reply = await reader.request(
            {"type": "replay", "game_id": game_id, "viewer": "all", "limit": 2000}, timeout=60
        )
        assert reply["type"] == "replay"
        order.append("replay")

    async def ping() -> None:
        await asyncio.sleep(0.2)  # after the replay request is in
        assert (await other.request({"type": "ping"}))["type"] == "pong"
        order.append("pong")

    await asyncio.gather(replay(), ping())
    assert order == ["pong", "replay"]
