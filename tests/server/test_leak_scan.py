"""The leak scanner over every frame the server sends, for every game type.

A player plays a whole game against bots while a spectator watches; midway both
ask for a replay of the game still in play (as spectators: the only replay a live
game allows).  Afterwards every frame each of them received is checked: updates
and snapshots against what was secret from that viewer at their version, every
replay step against what was secret at that step, and every other frame against
what was secret when it arrived.  The game's words in a frame are scanned as people
read them (``A♠`` as well as ``AS``): a narration line may name only what its event
names, a label only what its action names, and hints nothing secret.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.events import SPECTATOR, visible
from engine.replay import LoggedAction, steps
from engine.secrecy import faces_named, faces_shown
from rules.registry import get_game
from tests.server.conftest import Client, Harness, make_settings, start_harness

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("whist", {}),
    ("poker", {"seats": 3, "hands": 3}),
    ("tractor", {"rounds": 1}),
    ("tractor", {"rounds": 1, "finding_friends": True, "seats": 5}),
    ("rummy", {"variant": "gin"}),
    ("rummy", {}),
    ("bridge", {}),
    ("crazy_eights", {"seats": 3}),
]


async def _play_with_live_replays(
    harness: Harness, alice: Client, bob: Client, game: str, options: dict[str, Any]
) -> int:
    created = await alice.request(
        {"type": "create_table", "game": game, "options": options, "seat": 0, "start": True}
    )
    assert created["type"] == "table_created", created
    table = created["table"]["table"]
    token = (await alice.expect("joined", table=table))["seat_token"]
    msg = await alice.expect("snapshot", table=table)
    while msg["status"] != "live":
        msg = await alice.expect("snapshot", table=table)
    await bob.request({"type": "spectate", "table": table})
    replays_at = {msg["version"] + 3, msg["version"] + 40, msg["version"] + 120}
    while msg["status"] == "live":
        if msg["version"] in replays_at:
            replays_at.discard(msg["version"])
            for who in (alice, bob):
                reply = await who.request({"type": "replay", "game_id": table})
                # Bots may play the game out while the request is on its way (a
                # bridge dummy never acts): then the replay is of a finished game.
                finished = harness.server.lobby.tables[table].status == "finished"
                assert reply["type"] == "replay", reply
                assert reply["status"] == "live" or finished, reply
        if msg["legal"] and msg["version"] == harness.server.lobby.tables[table].version:
            reply = await alice.request(
                {
                    "type": "act",
                    "table": table,
                    "seat_token": token,
                    "version": msg["version"],
                    "action": msg["legal"][0],
                }
            )
            # Bots may move first where several seats can act at once, or while this
            # seat acts out of turn (a bridge claim), even ending the game.
            assert reply["type"] == "ack" or reply["code"] in ("stale_version", "game_over"), (
                reply)
        msg = await alice.expect("update", table=table, timeout=20)
    return int(table)


def _scan(client: Client, viewer: int, game: Any, played: dict[int, Any], table: int) -> int:
    """Check every frame ``client`` received; the number of frames checked.

    Events are compared with what the engine says the viewer may see of that
    step (the conformance suite scans those for every game); everything else in
    a frame is scanned for cards secret from the viewer at that moment.
    """
    checked = 0
    latest = 0
    # Random tokens can spell a card by chance; they are not game content.
    skip = game.non_card_keys | {"token", "seat_token"}

    def check(shown: Any, seq: int, who: int, what: str) -> None:
        leaked = faces_named(shown, skip) & game.secrets(played[seq].state, who)
        where = sorted(k for k, v in shown.items() if faces_named(v, skip) & leaked)
        assert not leaked, f"{what} v{seq} to {who} leaks {sorted(leaked)} in {where}"

    def check_words(msg: dict[str, Any], seq: int, who: int, what: str) -> None:
        """Narration, labels and hints, in any spelling of a card."""
        secret = game.secrets(played[seq].state, who)
        said = [
            *zip(msg.get("narration") or [], msg.get("events", []), strict=True),
            *zip(msg.get("labels") or [], msg.get("legal") or [], strict=True),
            (msg.get("label"), msg.get("action")),
        ]
        for text, source in said:
            # A friend call names any card of the deck as a choice, not as a fact.
            if text is None or (isinstance(source, dict) and source.get("type") == "call"):
                continue
            leaked = (faces_shown(text) - faces_named(source)) & secret
            assert not leaked, f"{what} v{seq} to {who} leaks {sorted(leaked)} in {text!r}"
        leaked = faces_shown(msg.get("hints") or {}, skip | {"callable"}) & secret
        assert not leaked, f"{what} v{seq} hints to {who} leak {sorted(leaked)}"

    for frame in client.frames:
        msg = json.loads(frame)
        if msg["type"] == "replay":
            for step in msg["steps"]:
                seq = step["seq"]
                assert step["events"] == visible(played[seq].events, SPECTATOR)
                check({k: step[k] for k in ("action", "view")}, seq, SPECTATOR, "replay step")
                check_words(step, seq, SPECTATOR, "replay step")
                checked += 1
            continue
        if msg["type"] == "analysis":
            continue  # an ended board's deal: public once the board is over
        if msg["type"] in ("update", "snapshot"):
            latest = msg["version"]
            if msg["type"] == "update":
                assert msg["events"] == visible(played[latest].events, viewer)
                assert len(msg["narration"]) == len(msg["events"])
            assert (msg["labels"] is None) == (msg["legal"] is None)
            check_words(msg, latest, viewer, msg["type"])
            words = ("events", "legal", "narration", "labels", "hints")
            shown = {k: v for k, v in msg.items() if k not in words}
            # A friend call names any card of the deck as a choice, not as a fact.
            shown["legal"] = [a for a in msg["legal"] or [] if a.get("type") != "call"]
            check(shown, latest, viewer, msg["type"])
        else:
            check(msg, latest, viewer, msg["type"])
        checked += 1
    return checked


@pytest.fixture
async def fast_harness(sqlite_url: str) -> AsyncIterator[Harness]:
    """A server whose rate limit a scripted player cannot reach (the fake clock
    never refills the bucket)."""
    h = await start_harness(make_settings(sqlite_url, rate=1e9, burst=10**9))
    yield h
    for c in h.clients:
        await c.ws.close()
    await h.server.stop()


@pytest.mark.parametrize(("game_name", "options"), GAMES, ids=lambda v: str(v))
async def test_no_frame_of_any_type_leaks_a_hidden_card(
    fast_harness: Harness, game_name: str, options: dict[str, Any]
) -> None:
    harness = fast_harness
    # Unbounded receive queues: the scan reads the frames only after the game, and a
    # client that stops reading would stall the closing handshake at the end.
    alice = await harness.client("alice", max_queue=None)
    bob = await harness.client("bob", max_queue=None)
    table = await _play_with_live_replays(harness, alice, bob, game_name, options)

    stored = await harness.server.store.get_game(table)
    assert stored is not None
    game = get_game(game_name)
    config = game.parse_config(stored.config)
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    played = {s.seq: s for s in steps(game, config, stored.seed, log)}
    assert _scan(alice, 0, game, played, table) > len(log)  # every update, and more
    assert _scan(bob, SPECTATOR, game, played, table) > 0
    for who in (alice, bob):
        assert any(json.loads(f)["type"] == "replay" for f in who.frames)
