"""A database written by cardtable 0.1 (before the seam redesign) still opens,
upgrades and replays identically: every stored game reaches the final state its
version computed (`tests/data/games_v0_1.json`, written with the database)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from engine.replay import LoggedAction, replay, state_hash
from rules.registry import get_game
from server.persistence.store import Store
from server.replay import build_replay

DATA = Path(__file__).resolve().parents[1] / "data"


async def test_games_stored_by_the_first_version_replay_identically(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(DATA / "games_v0_1.db", db)
    expected = json.loads((DATA / "games_v0_1.json").read_text())
    store = await Store.open(f"sqlite:///{db}")
    try:
        assert {g.id for g, _ in await store.list_games()} == {int(i) for i in expected}
        for gid, want in expected.items():
            stored = await store.get_game(int(gid))
            assert stored is not None and stored.game_type == want["game"]
            assert len(stored.actions) == want["actions"]
            game = get_game(stored.game_type)
            config = game.parse_config(stored.config)
            log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
            final = replay(game, config, stored.seed, log)
            assert state_hash(game, final) == want["hash"], f"game {gid} ({want['game']})"
            assert game.result(final).to_json() == want["result"] == stored.result  # type: ignore[union-attr]
            page = build_replay(stored, "all", 0, 2000)
            assert page["steps"][-1]["seq"] == want["actions"] or page["next"] is not None
    finally:
        await store.close()
