"""One stand-in: whenever a table must move for a seat whose bot gave no legal
answer (an illegal bot move, an expired turn clock whose bot answered illegally),
the move is ``Game.stand_in`` seeded as the bot's decision was, never a fixed
choice such as the first legal action."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from bots.base import BOTS
from engine.replay import LoggedAction, steps
from engine.rng import Rng, derive_seed
from rules.registry import get_game
from server.persistence.store import StoredGame
from tests.server.conftest import Client, Harness, make_settings, start_harness
from tests.server.test_errors import turn_of


@pytest.fixture
def broken_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whist's default bot (the one that fills seats and plays for a late human)
    always answers with an illegal action."""
    monkeypatch.setitem(
        BOTS, "whist", {"broken": "tests.server.slow_bot:BrokenBot", **BOTS["whist"]}
    )


def expected_stand_ins(stored: StoredGame) -> list[dict[str, Any]]:
    """What the stand-in plays at each logged action's position, seeded by the
    version the decision was made at."""
    game = get_game(stored.game_type)
    config = game.parse_config(stored.config)
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    out = []
    for step, entry in zip(steps(game, config, stored.seed, log), log, strict=False):
        legal = [dict(a) for a in game.legal(step.state, entry.seat)]
        seed = derive_seed(stored.seed, entry.seq - 1, entry.seat)
        out.append(dict(game.validate(step.state, entry.seat,
                                      game.stand_in(legal, Rng(seed))).action))
    return out


async def wait_for(condition: Any, what: str) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def drain(c: Client) -> None:
    """Read what the server sent, so that the client can close promptly."""
    with contextlib.suppress(TimeoutError):
        while True:
            await asyncio.wait_for(c.ws.recv(), 0.05)


async def test_an_illegal_bot_move_is_replaced_by_the_stand_in(
    sqlite_url: str, broken_default: None
) -> None:
    h = await start_harness(make_settings(sqlite_url))
    try:
        c = await h.client()
        created = await c.request({"type": "create_table", "game": "whist", "start": True})
        t = h.server.lobby.tables[created["table"]["table"]]
        await wait_for(lambda: t.version >= 8, "the bots' table must keep moving")
        stored = await h.server.store.get_game(t.id)
        assert stored is not None and len(stored.actions) >= 8
        assert [a.action for a in stored.actions] == expected_stand_ins(stored)
    finally:
        await h.server.stop()


async def test_an_expired_clock_whose_bot_is_illegal_plays_the_stand_in(
    harness: Harness, broken_default: None
) -> None:
    c = await harness.client("slowpoke")
    created = await c.request(
        {"type": "create_table", "game": "whist", "seat": 2, "start": True, "turn_seconds": 5}
    )
    table = created["table"]["table"]
    t = harness.server.lobby.tables[table]
    for _ in range(3):
        await turn_of(harness, table, 2)
        version = t.version
        await harness.clock.advance(5)
        await wait_for(lambda: t.version > version, "the clock must play for the seat")  # noqa: B023
    await drain(c)
    stored = await harness.server.store.get_game(table)
    assert stored is not None
    assert sum(a.actor.startswith("timeout:") for a in stored.actions) == 3
    assert [a.action for a in stored.actions] == expected_stand_ins(stored)
