"""Ending the whole match by agreement (docs/protocol.md, "Ending the match"):
every connected human player must agree, bots agree by policy, a refusal
withdraws the proposal, and the ended game is stored as finished with its
standings, its log ending in the agreement so that it replays to them."""

from __future__ import annotations

from typing import Any

from engine.game import END_MATCH
from engine.replay import LoggedAction, replay
from rules.registry import get_game
from tests.server.conftest import Client, Harness
from tests.server.test_stand_ins import drain


async def two_humans(harness: Harness) -> tuple[Client, Client, int]:
    """A tractor table with humans at seats 0 and 1 and bots at 2 and 3, started."""
    a = await harness.client("ann")
    b = await harness.client("bob")
    created = await a.request({"type": "create_table", "game": "tractor", "seat": 0,
                               "options": {"rounds": 3}})
    table = created["table"]["table"]
    await a.expect("joined")
    joined = await b.request({"type": "join", "table": table, "seat": 1})
    assert joined["type"] == "joined", joined
    assert (await a.request({"type": "start", "table": table}))["type"] == "table"
    return a, b, table


def vote(c: Client, table: int, agree: bool = True) -> dict[str, Any]:
    return {"type": "end_match", "table": table, "seat_token": c.seat_tokens[table],
            "agree": agree}


async def test_the_match_ends_when_every_human_agrees(harness: Harness) -> None:
    a, b, table = await two_humans(harness)
    t = harness.server.lobby.tables[table]
    reply = await a.request(vote(a, table))
    info = reply["table"]
    assert reply["type"] == "table" and info["status"] == "live"
    # A proposal is open: seat 0 agreed, both humans must (the bots agree).
    assert info["agreed_end"] is True
    assert info["end_votes"] == [0] and info["end_needed"] == [0, 1]
    pushed = await b.expect("table")
    while pushed["table"]["end_votes"] != [0]:
        pushed = await b.expect("table")
    reply = await b.request(vote(b, table))
    assert reply["table"]["status"] == "finished"
    assert reply["table"]["end_votes"] == []
    final = await a.expect("update", status="finished")
    kinds = [e["kind"] for e in final["events"]]
    assert kinds == ["match_ended", "game_over"]
    assert final["view"]["result"] is not None
    # Stored as finished, with the standings, the log ending in the agreement.
    stored = await harness.server.store.get_game(table)
    assert stored is not None and stored.status == "finished"
    assert stored.result == t.game.result(t.state).to_json()  # type: ignore[union-attr]
    last = stored.actions[-1]
    assert last.action == {"type": END_MATCH} and last.seat == 1 and last.actor == "agreement"
    game = get_game("tractor")
    log = [LoggedAction(x.seq, x.seat, x.action) for x in stored.actions]
    ended = replay(game, game.parse_config(stored.config), stored.seed, log)
    assert game.result(ended).to_json() == stored.result  # type: ignore[union-attr]
    await drain(a)
    await drain(b)


async def test_a_refusal_withdraws_the_proposal(harness: Harness) -> None:
    a, b, table = await two_humans(harness)
    assert (await a.request(vote(a, table)))["table"]["end_votes"] == [0]
    reply = await b.request(vote(b, table, agree=False))
    assert reply["table"]["status"] == "live"
    assert reply["table"]["end_votes"] == [] and reply["table"]["end_needed"] == []
    # Agreeing afterwards opens a new proposal: seat 0's earlier agreement is gone.
    reply = await b.request(vote(b, table))
    assert reply["table"]["status"] == "live" and reply["table"]["end_votes"] == [1]
    await drain(a)
    await drain(b)


async def test_an_absent_player_does_not_block_the_end(harness: Harness) -> None:
    """A player who is away (disconnected: a stand-in plays the seat) agrees by
    policy, like the bots."""
    a, b, table = await two_humans(harness)
    await b.request({"type": "leave", "table": table})
    reply = await a.request(vote(a, table))
    assert reply["table"]["status"] == "finished"
    await drain(a)


async def test_only_games_that_end_by_agreement_and_only_seated_players(
    harness: Harness,
) -> None:
    c = await harness.client("solo")
    created = await c.request({"type": "create_table", "game": "whist", "seat": 0,
                               "start": True})
    table = created["table"]["table"]
    await c.expect("joined")
    assert created["table"]["agreed_end"] is False
    reply = await c.request(vote(c, table))
    assert reply["type"] == "error" and reply["code"] == "not_allowed"
    reply = await c.request({"type": "end_match", "table": table, "seat_token": "nope"})
    assert reply["type"] == "error" and reply["code"] == "bad_seat_token"
    await drain(c)
