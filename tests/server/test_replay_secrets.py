"""Cards a game never reveals stay hidden in its replays (docs/poker.md, "Hidden
information": folded and mucked hands are shown to nobody): over the protocol a
finished poker game is replayed from a seat's view by that seat's player alone.
A secret step (``Game.secret_actions``: Tractor's pass at the last word) is
replayed to others without its action or its actor."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from rules.registry import get_game
from server.persistence.store import StoredAction, StoredGame
from server.replay import SECRET_STEP, build_replay
from tests.rules.tractor.last_word import SEED, drawn_to_a_pass
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


def _last_word_pass() -> StoredGame:
    """A Tractor round drawn out with nobody declaring; at the last word the first
    seat that could declare passes."""
    config = get_game("tractor").parse_config({})
    log = [{"seat": seat, "action": action} for seat, action in drawn_to_a_pass()[0]]
    now = datetime.now(UTC)
    return StoredGame(
        id=1, game_type="tractor", config=config.model_dump(mode="json"), seed=SEED,
        name="t", status="live", created_at=now, finished_at=None, result=None,
        actions=[StoredAction(i + 1, a["seat"], a["action"], now, "human")
                 for i, a in enumerate(log)],
    )


def test_others_see_a_secret_step_without_its_seat_or_action() -> None:
    stored = _last_word_pass()
    passer = stored.actions[-1].seat
    reply = build_replay(stored, "spectator", start=len(stored.actions))
    (step,) = reply["steps"]
    assert step["seat"] is None and step["action"] is None
    assert step["label"] == SECRET_STEP and step["events"] == []
    stored.status = "finished"  # a seat's view is replayed once the game has ended
    other = (passer + 1) % 4
    (step,) = build_replay(stored, other, start=len(stored.actions))["steps"]
    assert step["seat"] is None and step["action"] is None and step["events"] == []
    for viewer in (passer, "all"):
        (step,) = build_replay(stored, viewer, start=len(stored.actions))["steps"]
        assert step["seat"] == passer and step["action"] == {"type": "pass"}
        assert step["events"] == [{"kind": "pass", "seat": passer}]
