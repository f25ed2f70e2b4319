"""The persistence suite, run against SQLite and the real PostgreSQL alike."""

from __future__ import annotations

import asyncio

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from server.persistence.database import MIGRATIONS
from server.persistence.store import SeatRecord, Store, token_hash


@pytest.fixture
async def store(db_url: str):
    s = await Store.open(db_url)
    yield s
    await s.close()


async def test_migrations_create_the_schema(store: Store, db_url: str) -> None:
    async with store.engine.connect() as conn:
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    # The newest migration, whatever it is named.
    assert version == ScriptDirectory(str(MIGRATIONS)).get_current_head()
    # Opening again is a no-op upgrade, not an error.
    again = await Store.open(db_url)
    await again.close()


async def test_players_are_found_by_token_and_tokens_are_stored_hashed(store: Store) -> None:
    pid = await store.create_player("ann", "secret-token")
    assert await store.player_by_token("secret-token") == (pid, "ann")
    assert await store.player_by_token("other") is None
    async with store.engine.connect() as conn:
        stored = (await conn.execute(text("SELECT token_hash FROM players"))).scalar()
    assert stored == token_hash("secret-token") and "secret" not in stored


async def test_a_game_round_trips_with_seats_log_and_result(store: Store) -> None:
    pid = await store.create_player("ann", "t")
    gid = await store.create_game("whist", {"version": 1, "deals": 2}, 2**61 + 5, "t1", 4)
    await store.set_seat(gid, SeatRecord(0, "human", pid, None, "h0"))
    await store.set_seat(gid, SeatRecord(1, "bot", None, "heuristic", None))
    await store.set_status(gid, "live")
    actions = [{"type": "play", "card": c} for c in ("AS", "KS", "QS", "JS")]
    for i, a in enumerate(actions, 1):
        await store.append_action(gid, i, (i - 1) % 4, a, "player:1")
    await store.set_status(gid, "finished", {"scores": [1, 0, 1, 0], "summary": "x"})
    game = await store.get_game(gid)
    assert game is not None
    assert (game.game_type, game.config, game.seed) == (
        "whist",
        {"version": 1, "deals": 2},
        2**61 + 5,
    )
    assert game.seats[0] == SeatRecord(0, "human", pid, None, "h0")
    assert game.seats[1].bot == "heuristic" and game.seats[2].kind == "empty"
    assert [a.action for a in game.actions] == actions
    assert [a.seat for a in game.actions] == [0, 1, 2, 3]
    assert game.status == "finished" and game.result == {"scores": [1, 0, 1, 0], "summary": "x"}
    assert game.finished_at is not None


async def test_concurrent_appends_are_all_committed_in_order(store: Store) -> None:
    gids = [await store.create_game("whist", {}, i, f"t{i}", 4) for i in range(5)]
    await asyncio.gather(
        *(store.append_action(g, s, 0, {"n": s}, "bot:x") for g in gids for s in range(1, 41))
    )
    for g in gids:
        game = await store.get_game(g)
        assert game is not None and [a.seq for a in game.actions] == list(range(1, 41))


async def test_a_stream_of_writes_shares_commits_and_an_idle_writer_commits_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = store.writer
    writer.commit_window = 0.3  # generous: the spacing below is a tenth of it
    gid = await store.create_game("whist", {}, 1, "t", 4)
    before = writer.commits
    # Arriving one by one while the window is open, they wait and go in one commit.
    pending = []
    for seq in range(1, 5):
        pending.append(asyncio.create_task(store.append_action(gid, seq, 0, {"n": seq}, "x")))
        await asyncio.sleep(0.01)
    await asyncio.gather(*pending)
    assert writer.commits - before == 1
    # After a quiet spell longer than the window, a write is committed without waiting.
    await asyncio.sleep(0.35)
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay: float) -> None:
        waits.append(delay)
        await real_sleep(delay)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    await store.append_action(gid, 5, 0, {"n": 5}, "x")
    monkeypatch.undo()
    assert waits == [] and writer.commits - before == 2
    game = await store.get_game(gid)
    assert game is not None and [a.seq for a in game.actions] == [1, 2, 3, 4, 5]


async def test_a_write_whose_caller_gave_up_waiting_is_still_committed(store: Store) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    gave_up = asyncio.create_task(store.append_action(gid, 1, 0, {"n": 1}, "x"))
    await asyncio.sleep(0)  # queued
    gave_up.cancel()
    await store.append_action(gid, 2, 0, {"n": 2}, "x")  # commits after the first
    game = await store.get_game(gid)
    assert game is not None and [a.seq for a in game.actions] == [1, 2]


async def test_duplicate_sequence_numbers_are_refused_not_lost(store: Store) -> None:
    gid = await store.create_game("whist", {}, 1, "t", 4)
    await store.append_action(gid, 1, 0, {"a": 1}, "x")
    with pytest.raises(Exception):  # noqa: B017 - the driver's IntegrityError differs
        await store.append_action(gid, 1, 0, {"a": 2}, "x")
    game = await store.get_game(gid)
    assert game is not None and [a.action for a in game.actions] == [{"a": 1}]
    await store.append_action(gid, 2, 0, {"a": 3}, "x")  # the store still works


async def test_unfinished_games_and_listing(store: Store) -> None:
    a = await store.create_game("whist", {}, 1, "a", 4)
    b = await store.create_game("whist", {}, 2, "b", 4)
    c = await store.create_game("whist", {}, 3, "c", 4)
    await store.set_status(b, "live")
    await store.set_status(c, "finished", {"summary": "done"})
    await store.append_action(b, 1, 0, {}, "x")
    assert [g.id for g in await store.unfinished_games()] == [a, b]
    listed = await store.list_games()
    assert [(g.id, n) for g, n in listed] == [(c, 0), (b, 1), (a, 0)]
    assert [g.id for g, _ in await store.list_games(status="finished")] == [c]


async def test_migrations_go_down_and_up_again_keeping_data(store: Store, db_url: str) -> None:
    from server.persistence.database import downgrade, upgrade

    gid = await store.create_game("whist", {}, 1, "kept", 4, {"turn_seconds": 5})
    await store.close()
    await downgrade(db_url, "0001")  # the column goes away, the game stays
    await upgrade(db_url)
    again = await Store.open(db_url)
    try:
        game = await again.get_game(gid)
        assert game is not None and game.name == "kept" and game.table_options == {}
    finally:
        await again.close()
