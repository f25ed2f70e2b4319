"""Actions the rules allow out of turn (``Game.may_act``) over the websocket: a bridge
claim by a player who is not on turn is offered in that player's frames, passes the
table's turn check, suspends the play, and a rejection resumes it (docs/protocol.md,
"Playing"; docs/rules/bridge.md, "Claims"); a Tractor declaration while others draw
is judged on the table as it stands, whatever version it names."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Client, Harness

# North can make every trick in notrump; East is on lead against 7NT.
DEAL = "N:AKQJ.AKQJ.AKQ.AK 65432.32.JT98.QJ 87.T98765.432.T9 T9.4.765.8765432"
N, E, S, W = range(4)


async def frame(c: Client, table: int, version: int) -> dict[str, Any]:
    """The update of ``version`` this client gets."""
    return await c.expect("update", table=table, version=version)


async def act(c: Client, table: int, version: int, action: dict[str, Any]) -> dict[str, Any]:
    return await c.request({"type": "act", "table": table, "seat_token": c.seat_tokens[table],
                            "version": version, "action": action})


async def test_a_claim_out_of_turn_suspends_play_until_it_is_answered(harness: Harness) -> None:
    clients = [await harness.client(name) for name in ("n", "e", "s", "w")]
    created = await clients[N].request({"type": "create_table", "game": "bridge", "seat": N,
                                        "options": {"deal": DEAL, "claims": "defenders"}})
    table = created["table"]["table"]
    for seat in (E, S, W):
        joined = await clients[seat].request({"type": "join", "table": table, "seat": seat})
        assert joined["type"] == "joined", joined
    await clients[N].request({"type": "start", "table": table})
    version = 0
    for seat, call in ((N, "7NT"), (E, "P"), (S, "P"), (W, "P")):
        assert (await act(clients[seat], table, version, {"type": "call", "call": call}))[
            "type"] == "ack"
        version += 1
    # East is on lead; North (declarer) and West may claim out of turn, the dummy not.
    seen = [await frame(c, table, version) for c in clients]
    assert all(f["to_act"] == [E] for f in seen)
    assert seen[N]["legal"] == [{"type": "claim", "tricks": n} for n in range(14)]
    assert seen[W]["legal"] == seen[N]["legal"] and seen[S]["legal"] is None
    assert any(a["type"] == "play" for a in seen[E]["legal"])
    assert (await act(clients[N], table, version, {"type": "claim", "tricks": 13}))["type"] == "ack"
    version += 1
    seen = [await frame(c, table, version) for c in clients]
    assert seen[N]["view"]["phase"] == "claim" and seen[N]["to_act"] == [E, W]
    # Play is suspended: East's lead is refused until the claim is answered.
    refused = await act(clients[E], table, version, {"type": "play", "card": "2S"})
    assert refused["code"] == "illegal_action" and refused["reason"] == "bad_action"
    refused = await act(clients[N], table, version, {"type": "claim", "tricks": 13})
    assert refused["code"] == "not_your_turn"
    assert (await act(clients[E], table, version, {"type": "reject_claim"}))["type"] == "ack"
    version += 1
    seen = [await frame(c, table, version) for c in clients]
    assert seen[E]["to_act"] == [E] and seen[E]["view"]["phase"] == "play"
    assert (await act(clients[E], table, version, {"type": "play", "card": "2S"}))["type"] == "ack"
    version += 1
    # West concedes the rest out of turn while the declarer plays from dummy: the
    # declarer and West's partner (Law 68B2) answer, then the board is over.
    assert (await act(clients[W], table, version, {"type": "claim", "tricks": 0}))["type"] == "ack"
    for seat in (N, E):
        version += 1
        reply = await act(clients[seat], table, version, {"type": "accept_claim"})
        assert reply["type"] == "ack", reply
    stored = await harness.server.store.get_game(table)
    assert stored is not None and stored.status == "finished"
    assert stored.result is not None and "7NT by N, 13 tricks, NS +1520" in stored.result["summary"]


async def test_a_tractor_declaration_out_of_turn_is_judged_on_the_table_as_it_stands(
    harness: Harness,
) -> None:
    """Each draw moves the version, faster than a person answers: a declaration made
    on a version one draw old is taken (the rules judge it now); the drawer's own
    stale draw is still refused."""
    clients = [await harness.client(name) for name in ("n", "e", "s", "w")]
    created = await clients[0].request({"type": "create_table", "game": "tractor", "seat": 0,
                                        "options": {"rounds": 1}})
    table = created["table"]["table"]
    for seat in (1, 2, 3):
        assert (await clients[seat].request({"type": "join", "table": table, "seat": seat}))[
            "type"] == "joined"
    await clients[0].request({"type": "start", "table": table})
    seen = []
    for c in clients:
        snap = await c.expect("snapshot", table=table)
        while snap["status"] != "live":
            snap = await c.expect("snapshot", table=table)
        seen.append(snap)
    version = seen[0]["version"]
    for _ in range(100):
        drawer = seen[0]["to_act"][0]
        declarers = [s for s, f in enumerate(seen) if s != drawer and f["legal"]]
        if declarers:
            break
        reply = await act(clients[drawer], table, version, {"type": "draw"})
        assert reply["type"] == "ack", reply
        version += 1
        seen = [await frame(c, table, version) for c in clients]
    else:
        raise AssertionError("no seat could declare out of turn in the draw")
    seat = declarers[0]
    declaration = seen[seat]["legal"][0]
    assert declaration["type"] == "declare"
    # The drawer draws again before the declaration arrives, naming the old version.
    assert (await act(clients[drawer], table, version, {"type": "draw"}))["type"] == "ack"
    stale = await act(clients[drawer], table, version, {"type": "draw"})
    assert stale["code"] == "stale_version"
    taken = await act(clients[seat], table, version, declaration)
    assert taken["type"] == "ack" and taken["version"] == version + 2, taken
