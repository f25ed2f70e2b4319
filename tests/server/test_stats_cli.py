"""`cardtable stats`: per-player statistics of stored games, as the game's rules
compute them (here poker's, over two stored one-hand games)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rules.poker.game import PokerGame
from rules.poker.phh import read_phh
from server.cli import main
from server.persistence.store import SeatRecord, Store
from tests.rules.poker.test_poker_stats import HAND_A, HAND_B
from tests.server.conftest import make_settings, start_harness

GAME = PokerGame()


async def add_hands(store: Store) -> None:
    """Two one-hand poker games of Ann, Bob and Cid (tests/rules/poker/test_poker_stats.py)."""
    ids = {n: await store.create_player(n, f"token-{n}") for n in ("Ann", "Bob", "Cid")}
    for record in read_phh(HAND_A) + read_phh(HAND_B):
        gid = await store.create_game("poker", dict(record.options), record.seed, "",
                                      len(record.players))
        await store.start_game(gid, [SeatRecord(i, "human", ids[name])
                                     for i, name in enumerate(record.players)])
        state = GAME.new(GAME.parse_config(record.options), record.seed)
        for seq, (seat, action) in enumerate(record.actions, 1):
            await store.append_action(gid, seq, seat, dict(action), "human")
            state, _ = GAME.act(state, seat, action)
        result = GAME.result(state)
        assert result is not None
        await store.set_status(gid, "finished", result.to_json())


def store_hands(url: str) -> None:
    async def run() -> None:
        store = await Store.open(url)
        try:
            await add_hands(store)
        finally:
            await store.close()

    asyncio.run(run())


def test_stats_prints_each_players_columns(sqlite_url: str, capsys: Any) -> None:
    store_hands(sqlite_url)
    assert main(["stats", "--db", sqlite_url, "--game", "poker"]) == 0
    out = capsys.readouterr().out
    assert "No-limit hold'em (2 stored games)" in out
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert header.split() == ["player", "Hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD",
                              "bb/100"]
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:5]}
    assert rows["Ann"] == ["2", "100.0", "50.0", "100.0", "1.00", "50.0", "100.0", "1700.00"]
    assert rows["Bob"] == ["2", "0.0", "0.0", "-", "-", "0.0", "-", "0.00"]
    assert "VPIP: voluntarily put money in the pot before the flop (%)" in out
    assert main(["stats", "Cid", "--db", sqlite_url]) == 0
    only = capsys.readouterr().out
    assert "Cid" in only and "Ann" not in only
    assert main(["stats", "Nobody", "--db", sqlite_url]) == 0
    assert "no statistics for Nobody" in capsys.readouterr().out
    assert main(["stats", "--game", "chess", "--db", sqlite_url]) == 2


def test_imported_hands_count_under_the_names_their_file_gives(
    sqlite_url: str, tmp_path: Path, capsys: Any
) -> None:
    store_hands(sqlite_url)
    assert main(["stats", "--db", sqlite_url, "--game", "poker"]) == 0
    played = capsys.readouterr().out.splitlines()[2:5]
    imported_url = f"sqlite:///{tmp_path}/imported.db"
    for n, text in enumerate((HAND_A, HAND_B)):
        (tmp_path / f"{n}.phh").write_text(text)
        assert main(["import", str(tmp_path / f"{n}.phh"), "--db", imported_url]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", imported_url, "--game", "poker"]) == 0
    # The same hands, the same rows, whether played here or read from their files.
    assert capsys.readouterr().out.splitlines()[2:5] == played


async def test_stats_over_the_websocket(sqlite_url: str) -> None:

    await asyncio.to_thread(store_hands, sqlite_url)
    h = await start_harness(make_settings(sqlite_url))
    try:
        c = await h.client("viewer")
        reply = await c.request({"type": "stats", "game": "poker"})
        assert reply["type"] == "stats" and reply["games"] == 2
        assert [col["name"] for col in reply["columns"]][:3] == ["Hands", "VPIP", "PFR"]
        rows = {r["player"]: r["values"] for r in reply["rows"]}
        assert rows["Ann"] == [2, 100.0, 50.0, 100.0, 1.0, 50.0, 100.0, 1700.0]
        only = await c.request({"type": "stats", "game": "poker", "player": "Bob"})
        assert [r["player"] for r in only["rows"]] == ["Bob"]
        whist = await c.request({"type": "stats", "game": "whist"})
        assert whist["columns"] == [] and whist["games"] == 0  # keeps no statistics
        bad = await c.request({"type": "stats", "game": "chess"})
        assert bad["type"] == "error" and bad["code"] == "unknown_game"
        await c.close()
    finally:
        await h.server.stop()


def test_imported_hands_replay_like_any_stored_game(sqlite_url: str) -> None:
    from server.replay import build_replay
    from tests.server.conftest import load_stored

    store_hands(sqlite_url)
    for gid in (1, 2):
        page = build_replay(load_stored(sqlite_url, gid), "all", 0, 100)
        assert page["status"] == "finished" and page["steps"][-1]["view"]["hand_over"]
        lines = [line for step in page["steps"] for line in step["narration"] if line]
        assert any("posts the big blind" in line for line in lines)
