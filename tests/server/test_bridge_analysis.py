"""Double-dummy analysis for users: the table pushed after a board ends at a live
table, and replays with the score of every legal card (websocket and terminal)."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.dds import dd_table, solve_position
from rules.bridge import BridgeGame
from rules.bridge.analysis import card_scores
from rules.bridge.par import par
from server.cli import main
from server.persistence.store import SeatRecord, Store
from tests.server.conftest import Harness, load_stored

# Long solid suits: the whole table solves in milliseconds, so the tests stay fast.
DEAL = "N:AKQJT98.AK.AKQ.2 765.QJT98.JT9.43 432.765.8765.765 .432.432.AKQJT98"


def _strain(contract: str) -> str:
    return "N" if contract[1:3] == "NT" else contract[1]


async def _bot_table(harness: Harness, alice: Any) -> int:
    """A bridge table on DEAL with four random bots, watched by ``alice``."""
    created = await alice.request(
        {"type": "create_table", "game": "bridge", "options": {"deal": DEAL}}
    )
    assert created["type"] == "table_created", created
    table = int(created["table"]["table"])
    assert (await alice.request({"type": "spectate", "table": table}))["type"] == "snapshot"
    for seat in range(4):
        reply = await alice.request(
            {"type": "add_bot", "table": table, "seat": seat, "bot": "random"}
        )
        assert reply["type"] == "table", reply
    return table


async def test_a_board_that_ends_is_analysed_for_everyone_at_the_table(harness: Harness) -> None:
    alice = await harness.client("alice")
    table = await _bot_table(harness, alice)
    analysis = await alice.expect("analysis", table=table, timeout=30)
    assert analysis["board"] == 1 and analysis["deal"] == DEAL
    expected = dd_table(DEAL)
    assert analysis["dd_table"] == expected
    p = par(expected, "None", "N")  # board 1: dealer North, nobody vulnerable
    assert analysis["par"]["score_ns"] == p.score == 980
    assert analysis["par"]["contracts"] == [
        {"contract": "6S", "declarers": "NS", "doubled": False, "tricks": 12}
    ]
    # It names the version whose action ended the board: the last one of this one-board game.
    stored = await harness.server.store.get_game(table)
    assert stored is not None and stored.status == "finished"
    assert analysis["version"] == len(stored.actions)

    # A viewer who comes later gets it right after the snapshot.
    bob = await harness.client("bob")
    snap = await bob.request({"type": "spectate", "table": table})
    assert snap["type"] == "snapshot" and snap["status"] == "finished"
    late = await bob.expect("analysis", table=table)
    assert late == analysis

    # The finished game replays with every card's double-dummy score.
    replay = await bob.request(
        {"type": "replay", "game_id": table, "viewer": "all", "analysis": True}, timeout=30
    )
    assert replay["type"] == "replay" and replay["analysis"] is True
    plays = 0
    for before, step in zip(replay["steps"], replay["steps"][1:], strict=False):
        action = step["action"]
        if action["type"] != "play":
            continue
        view = before["view"]
        leader = "NESW"[(view["declarer"] + 1) % 4]
        pos = solve_position(DEAL, _strain(view["contract"]), leader, view["played"])
        got = step["analysis"]["play"]
        assert got["scores"] == pos.scores and got["best"] == pos.best
        assert got["played"] == action["card"]
        assert got["cost"] == pos.best - pos.scores[action["card"]]
        plays += 1
    # The opening lead at least, unless a random bot claimed before any card (either
    # side may claim on its turn, the opening leader too).
    claimed = any((s["action"] or {}).get("type") == "claim" for s in replay["steps"][1:])
    assert plays >= 1 or claimed
    board_steps = [s for s in replay["steps"] if (s.get("analysis") or {}).get("board")]
    assert len(board_steps) == 1 and board_steps[0]["analysis"]["board"]["dd_table"] == expected


async def test_the_analysis_of_a_game_in_play_is_refused(harness: Harness) -> None:
    alice = await harness.client("alice")
    created = await alice.request(
        {
            "type": "create_table",
            "game": "bridge",
            "options": {"deal": DEAL},
            "seat": 0,
            "start": True,
        }
    )
    table = int(created["table"]["table"])
    await alice.expect("snapshot", table=table, status="live")  # North deals: alice to call
    bob = await harness.client("bob")
    for viewer in ("spectator", "all", 1):
        refused = await bob.request(
            {"type": "replay", "game_id": table, "viewer": viewer, "analysis": True}
        )
        assert refused["type"] == "error" and refused["code"] == "replay_hidden", refused
    plain = await bob.request({"type": "replay", "game_id": table, "viewer": "spectator"})
    assert plain["type"] == "replay" and plain["analysis"] is False
    assert all("analysis" not in s or s["analysis"] is None for s in plain["steps"])


# ---------------------------------------------------------------- a stored board, scripted


def _scripted_log() -> list[tuple[int, dict[str, Any]]]:
    """4♠ by North on DEAL; every card the *last* legal one (which often costs a trick)."""
    game = BridgeGame()
    state = game.new(game.parse_config({"deal": DEAL}), 1)
    log: list[tuple[int, dict[str, Any]]] = []
    for seat, call in ((0, "4S"), (1, "P"), (2, "P"), (3, "P")):
        log.append((seat, {"type": "call", "call": call}))
        state, _ = game.act(state, seat, log[-1][1])
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        action = [a for a in game.legal(state, seat) if a["type"] == "play"][-1]
        log.append((seat, dict(action)))
        state, _ = game.act(state, seat, action)
    return log


def _store_game(url: str, actions: int | None = None) -> int:
    """Store the scripted board (finished, or in play after ``actions`` actions)."""
    log = _scripted_log()

    async def run() -> int:
        store = await Store.open(url)
        try:
            gid = await store.create_game("bridge", {"version": 1, "deal": DEAL}, 1, "dd", 4)
            for seat in range(4):
                await store.set_seat(gid, SeatRecord(seat, "bot", None, "random", None))
            await store.set_status(gid, "live")
            for seq, (seat, action) in enumerate(log[:actions], 1):
                await store.append_action(gid, seq, seat, action, "bot:random")
            if actions is None:
                await store.set_status(gid, "finished", {"summary": "board 1: 4S by N"})
            return gid
        finally:
            await store.close()

    return asyncio.run(run())


def test_every_card_of_a_stored_board_against_its_double_dummy_score(sqlite_url: str) -> None:
    from server.replay import build_replay

    gid = _store_game(sqlite_url)

    stored = load_stored(sqlite_url, gid)
    data = build_replay(stored, "all", 0, 1000, analysis=True)
    game = BridgeGame()
    state = game.new(game.parse_config({"deal": DEAL}), 1)
    plays = costly = 0
    for step in data["steps"][1:]:
        action = step["action"]
        if action["type"] == "play":
            # The rules' pure function and the solver agree on the position before the card.
            pos = solve_position(DEAL, "S", "E", list(step["view"]["played"][:-1]))
            assert card_scores(state) == pos.scores == step["analysis"]["play"]["scores"]
            plays += 1
            costly += step["analysis"]["play"]["cost"] > 0
        else:
            assert step["analysis"] is None or step["analysis"]["play"] is None
        state, _ = game.act(state, step["seat"], action)
    assert plays == 52 and costly >= 5


def test_terminal_replay_with_dd_marks_each_card_played(sqlite_url: str, capsys: Any) -> None:
    gid = _store_game(sqlite_url)
    assert main(["replay", str(gid), "--db", sqlite_url, "--all", "--dd"]) == 0
    out = capsys.readouterr().out
    # East leads against 4♠ by North; every play step lists the legal cards with scores.
    assert out.count("double dummy, tricks") == 52
    assert "  double dummy, tricks North/South take from here (* played): " in out
    assert "*Q♦ 11" in out  # North discards Q♦ on trick 2 instead of ruffing ...
    assert "  Q♦ cost 1 trick: 11 instead of 12 (best: A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠)" in out
    assert "  3♣ was a best play (1 trick)" in out  # East's opening lead
    # ... and the board's table and par after its last card.
    assert "  Double dummy, board 1 (tricks for each declarer):" in out
    assert "    North     6  12   5   9   5" in out
    assert "  Par: NS +980 (6♠ by N/S, 12 tricks)" in out
    # Steps read as the play client draws the table: narrated events, the auction.
    assert "  * East leads 3♣" in out and "  Auction:" in out


def test_terminal_replay_with_dd_refuses_a_game_in_play(sqlite_url: str, capsys: Any) -> None:
    gid = _store_game(sqlite_url, actions=10)
    assert main(["replay", str(gid), "--db", sqlite_url, "--all", "--dd"]) == 2
    assert "only for games that have ended" in capsys.readouterr().err


async def test_a_restart_recomputes_the_newest_ended_boards_analysis(
    sqlite_url: str, monkeypatch: Any
) -> None:
    """A two-board session (seeded deals, so no fixed cheap deal) whose board 1 was
    passed out before the server stopped: the resumed table analyses it again. The
    solver is replaced by a stub here; the wiring is what is tested."""
    from engine.game import EndedBoard
    from tests.server.conftest import make_settings, start_harness

    computed: list[EndedBoard] = []

    def fake(ended: EndedBoard) -> dict[str, Any]:
        computed.append(ended)
        table = {st: dict.fromkeys("NESW", 0) for st in "SHDCN"}
        fields = {"dd_table": table, "par": {"score_ns": 0, "contracts": [], "text": "Par 0"}}
        return {"board": ended.board, "version": ended.version, **ended.facts, **fields}

    assert BridgeGame.analysis is not None
    monkeypatch.setattr(BridgeGame.analysis, "board", fake)
    store = await Store.open(sqlite_url)
    try:
        gid = await store.create_game("bridge", {"version": 1, "boards": 2}, 99, "two", 4)
        pid = await store.create_player("ann", "tok")
        for seat in range(4):  # absent humans: nothing plays while the test looks
            await store.set_seat(gid, SeatRecord(seat, "human", pid, None, f"h{seat}"))
        await store.set_status(gid, "live")
        for seq, seat in enumerate((0, 1, 2, 3), 1):  # board 1: North deals, four passes
            await store.append_action(gid, seq, seat, {"type": "call", "call": "P"}, "x")
    finally:
        await store.close()

    h = await start_harness(make_settings(sqlite_url))
    try:
        bob = await h.client("bob")
        snap = await bob.request({"type": "spectate", "table": gid})
        assert snap["type"] == "snapshot" and snap["view"]["board"] == 2
        got = await bob.expect("analysis", table=gid)
        deal = snap["view"]["results"][0]["deal"]
        assert (got["board"], got["deal"], got["version"]) == (1, deal, None)
        assert (got["dealer"], got["vulnerability"]) == (0, "None")
        assert [j.board for j in computed] == [1]
    finally:
        for c in h.clients:
            await c.ws.close()
        await h.server.stop()


def test_terminal_replay_with_dd_refuses_a_game_without_an_analysis(
    sqlite_url: str, capsys: Any
) -> None:
    # The client asks; the server's reply says the game has no analysis (whist has no
    # solver), so the client needs no list of games that have one.
    async def run() -> int:
        store = await Store.open(sqlite_url)
        try:
            gid = await store.create_game("whist", {"version": 1, "deals": 1}, 1, "w", 4)
            await store.set_status(gid, "abandoned")
            return gid
        finally:
            await store.close()

    gid = asyncio.run(run())
    assert main(["replay", str(gid), "--db", sqlite_url, "--all", "--dd"]) == 2
    assert "whist games have no analysis" in capsys.readouterr().err
