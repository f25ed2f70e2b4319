"""A whole game through real websocket clients against an in-process server."""

from __future__ import annotations

from tests.server.conftest import Harness, play_out, sit_and_start


async def test_full_game_against_bots(harness: Harness) -> None:
    alice = await harness.client("alice")
    table, token, snap = await sit_and_start(alice)
    assert snap["seat"] == 0 and len(snap["view"]["hand"]) == 13
    final = await play_out(alice, table, token, snap)
    assert final["status"] == "finished"
    assert final["version"] == 52
    result = final["view"]["result"]
    assert sum(result["scores"]) >= 0 and result["summary"]
    stored = await harness.server.store.get_game(table)
    assert stored is not None and stored.status == "finished"
    assert [a.seq for a in stored.actions] == list(range(1, 53))
    assert stored.result == result


async def test_versions_are_monotonic_and_every_viewer_gets_each_update(harness: Harness) -> None:
    alice = await harness.client("alice")
    bob = await harness.client("bob")
    table, token, snap = await sit_and_start(alice)
    spect = await bob.request({"type": "spectate", "table": table})
    assert spect["type"] == "snapshot"
    assert "hand" not in spect["view"]
    final = await play_out(alice, table, token, snap)
    seen = [spect["version"]]
    while seen[-1] < final["version"]:
        seen.append((await bob.expect("update", table=table))["version"])
    assert seen == list(range(spect["version"], final["version"] + 1))


async def test_no_frame_to_any_viewer_names_a_card_hidden_from_it(harness: Harness) -> None:
    """Leak scanner over every frame the server sent: each update or snapshot is
    checked against what was secret from its viewer at its version."""
    import json

    from engine.events import SPECTATOR
    from engine.replay import LoggedAction, steps
    from rules.registry import get_game
    from tests.conformance import faces_named

    alice = await harness.client("alice")
    bob = await harness.client("bob")
    table, token, snap = await sit_and_start(alice)
    await bob.request({"type": "spectate", "table": table})
    await play_out(alice, table, token, snap)
    while not any(json.loads(f).get("status") == "finished" for f in bob.frames if '"update"' in f):
        await bob.expect("update", table=table)

    stored = await harness.server.store.get_game(table)
    assert stored is not None
    game = get_game("whist")
    config = game.parse_config(stored.config)
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    states = {s.seq: s.state for s in steps(game, config, stored.seed, log)}
    checked = 0
    for client, viewer in ((alice, 0), (bob, SPECTATOR)):
        for frame in client.frames:
            msg = json.loads(frame)
            if msg["type"] not in ("update", "snapshot", "error"):
                continue
            state = states[msg.get("version", len(log))]
            leaked = faces_named(msg) & game.secrets(state, viewer)
            assert not leaked, f"{msg['type']} v{msg.get('version')} to {viewer} leaks {leaked}"
            checked += 1
    assert checked >= 2 * 52
