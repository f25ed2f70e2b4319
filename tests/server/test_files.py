"""Files in and out of the store (server/files.py, server/files_cmd.py): `cardtable
import` / `export` and the websocket's import_file / export_game.  Any game's formats,
reached through the registry; a bad file stores nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.persistence.store import Store
from tests.server.conftest import Harness, load_stored

BRIDGE_DATA = Path(__file__).parents[1] / "rules" / "bridge" / "data"
PBN_FILE = BRIDGE_DATA / "pbn_standard_example.pbn"
LIN_FILE = BRIDGE_DATA / "bbo_forum_vugraph.lin"


def count_games(url: str) -> int:
    async def run() -> int:
        store = await Store.open(url)
        try:
            return len(await store.list_games(500, None))
        finally:
            await store.close()

    return asyncio.run(run())


def test_import_stores_every_game_and_they_replay(sqlite_url: str, capsys: Any) -> None:
    assert main(["import", str(PBN_FILE), "--db", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "imported 4 games" in out and "board 1: 5HX by S, 9 tricks, NS -300" in out
    stored = load_stored(sqlite_url, 1)
    assert stored.status == "finished" and stored.game_type == "bridge"
    assert stored.table_options["imported"]["tags"]["Scoring"] == "IMP"
    assert all(a.actor == "import" for a in stored.actions)
    assert load_stored(sqlite_url, 3).status == "abandoned"  # the record stops early
    assert main(["replay", "1", "--all", "--db", sqlite_url]) == 0
    assert "5HX by S" in capsys.readouterr().out


def test_a_file_imported_twice_is_stored_once(sqlite_url: str, capsys: Any) -> None:
    assert main(["import", str(PBN_FILE), "--db", sqlite_url]) == 0
    capsys.readouterr()
    assert main(["import", str(PBN_FILE), "--db", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"imported 0 games from {PBN_FILE} (Portable Bridge Notation "
                          "2.1); 4 games of it stored before, kept once\n")
    assert "     1  " in out and out.count("(stored before)") == 4
    assert count_games(sqlite_url) == 4


def test_a_bad_file_stores_nothing_and_says_where(sqlite_url: str, tmp_path: Path,
                                                  capsys: Any) -> None:
    good = PBN_FILE.read_text()
    bad = good.replace("HK H2 HT H3", "HK H2 HT S3")  # board 4: a card North does not hold
    path = tmp_path / "session.pbn"
    path.write_text(bad)
    assert main(["import", str(path), "--db", sqlite_url]) == 2
    err = capsys.readouterr().err
    assert "board 4, Play" in err and "line" in err
    assert count_games(sqlite_url) == 0  # the three good boards were not stored either
    assert main(["import", str(tmp_path / "missing.pbn"), "--db", sqlite_url]) == 2
    (tmp_path / "notes.dat").write_text(good)  # a suffix no format claims
    assert main(["import", str(tmp_path / "notes.dat"), "--db", sqlite_url]) == 2
    assert "--format" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "notes.dat"), "--format", "pbn",
                 "--db", sqlite_url]) == 0
    # A suffix is a guess: BBO's hands saved as .txt read as PokerStars and fail.
    (tmp_path / "hands.txt").write_text(LIN_FILE.read_text())
    assert main(["import", str(tmp_path / "hands.txt"), "--db", sqlite_url]) == 2
    err = capsys.readouterr().err
    assert "(it reads as Bridge Base Online LIN: --format lin)" in err
    assert main(["import", str(tmp_path / "hands.txt"), "--format", "lin",
                 "--db", sqlite_url]) == 0


def test_export_in_each_format_and_back(sqlite_url: str, tmp_path: Path, capsys: Any) -> None:
    assert main(["import", str(LIN_FILE), "--db", sqlite_url]) == 0
    # A title the summary already starts with is said once.
    assert "     1  board 1: 4H by N" in capsys.readouterr().out
    out = tmp_path / "board.pbn"
    assert main(["export", "1", "--format", "pbn", "-o", str(out), "--db", sqlite_url]) == 0
    assert "[ParContract " in out.read_text() and '[North "kontiki_"]' in out.read_text()
    capsys.readouterr()
    assert main(["export", "1", "--format", "lin", "--db", sqlite_url]) == 0
    lin_text = capsys.readouterr().out
    assert lin_text.startswith("pn|wlodawa,Marion89,kontiki_,scoob|") and "mc|11|" in lin_text
    assert main(["import", str(out), "--db", sqlite_url]) == 0
    first, again = load_stored(sqlite_url, 1), load_stored(sqlite_url, 3)
    assert [a.action for a in again.actions] == [a.action for a in first.actions]
    assert main(["export", "1", "--format", "phh", "--db", sqlite_url]) == 2
    assert "written as: pbn, lin" in capsys.readouterr().err
    assert main(["export", "99", "--format", "pbn", "--db", sqlite_url]) == 2


def test_export_refuses_a_game_that_has_not_started(sqlite_url: str, capsys: Any) -> None:
    async def waiting_table() -> int:
        store = await Store.open(sqlite_url)
        try:
            return await store.create_game("bridge", {"version": 1}, 7, "Friday", 4)
        finally:
            await store.close()

    game_id = asyncio.run(waiting_table())
    assert main(["export", str(game_id), "--format", "pbn", "--db", sqlite_url]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"game {game_id} has not started" in captured.err


async def test_import_and_export_over_the_websocket(harness: Harness) -> None:
    alice = await harness.client("alice")
    text = LIN_FILE.read_text()
    half = len(text) // 2
    part = await alice.request({"type": "import_file", "text": text[:half], "more": True})
    assert part == {"type": "import_part", "id": part["id"], "received": half}
    done = await alice.request({"type": "import_file", "text": text[half:],
                                "filename": "vugraph.lin"})
    assert done["type"] == "imported" and done["format"] == "lin"
    ids = [g["game_id"] for g in done["games"]]
    assert [g["status"] for g in done["games"]] == ["finished", "finished"]
    replay = await alice.request({"type": "replay", "game_id": ids[0], "viewer": "all"})
    assert replay["type"] == "replay" and replay["result"]["summary"].startswith("board 1")
    exported = await alice.request({"type": "export_game", "game_id": ids[1], "format": "pbn"})
    assert exported["type"] == "exported" and '[Contract "4H"]' in exported["text"]

    bad = await alice.request({"type": "import_file", "text": "md|3S2|", "format": "lin"})
    assert bad["type"] == "error" and bad["code"] == "bad_file" and "board 1, md" in bad[
        "message"]
    assert not any(g["stored_before"] for g in done["games"])
    # The same file again stores nothing more: the stored games are named.
    again = await alice.request({"type": "import_file", "text": text, "filename": "vugraph.lin"})
    assert [(g["game_id"], g["stored_before"]) for g in again["games"]] == [
        (i, True) for i in ids]

    unknown = await alice.request({"type": "import_file", "text": "x", "format": "xyz"})
    assert unknown["code"] == "unknown_format"
    unknown = await alice.request({"type": "export_game", "game_id": ids[0], "format": "xyz"})
    assert unknown["code"] == "unknown_format"
    missing = await alice.request({"type": "export_game", "game_id": 999, "format": "pbn"})
    assert missing["code"] == "unknown_game_id"


async def test_an_import_over_the_size_limit_is_refused(harness: Harness) -> None:
    alice = await harness.client("alice")
    chunk = "%" * (48 * 1024)
    reply: dict[str, Any] = {}
    for _ in range(22):
        reply = await alice.request({"type": "import_file", "text": chunk, "more": True})
        if reply["type"] == "error":
            break
    assert reply["type"] == "error" and reply["code"] == "bad_file" and "1024 KiB" in reply[
        "message"]
    # The parts are dropped: a new file starts afresh.
    ok = await alice.request({"type": "import_file", "text": LIN_FILE.read_text(),
                              "format": "lin"})
    assert ok["type"] == "imported"


async def test_a_live_game_is_not_exported(harness: Harness) -> None:
    alice = await harness.client("alice")
    created = await alice.request({"type": "create_table", "game": "bridge", "seat": 0})
    game_id = created["table"]["table"]
    reply = await alice.request({"type": "export_game", "game_id": game_id, "format": "pbn"})
    assert reply["code"] == "replay_hidden"


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_every_format_is_reached_through_the_registry(fmt: str) -> None:
    from rules.registry import file_formats, find_format

    assert (find_format(fmt)[1].name, find_format(filename=f"x.{fmt.upper()}")[1].name) == (
        fmt, fmt)
    assert fmt in {f.name for _, f in file_formats()}


async def test_an_import_is_one_transaction_on_each_backend(db_url: str) -> None:
    """Every game of a file is stored, or none: a game that fails to store takes the
    ones before it in the same file with it."""
    from sqlalchemy.exc import StatementError

    from engine.formats import FormatError
    from rules.registry import find_format
    from server.files import check_records, to_store
    from server.persistence.store import ImportedGame, ImportedId
    from server.persistence.writer import StorageError

    _, fmt = find_format("lin")
    good = [to_store(c) for c in check_records(fmt.read(LIN_FILE.read_text()))]
    store = await Store.open(db_url)
    try:
        ids = await store.import_games(good)
        assert [i.new for i in ids] == [True, True]
        stored = await store.get_game(ids[1].game_id)
        assert stored is not None and stored.status == "finished"
        assert [a.seq for a in stored.actions] == list(range(1, len(good[1].actions) + 1))
        assert stored.table_options["imported"]["players"][0] == "kontiki_"
        # The same records again: found, not stored twice.
        assert await store.import_games(good) == [ImportedId(i.game_id, new=False) for i in ids]
        other = ImportedGame(**{**good[0].__dict__, "fingerprint": "a" * 64})
        broken = ImportedGame(**{**good[0].__dict__, "fingerprint": "b" * 64,
                                 "actions": [(0, {"bad": {1, 2}})]})
        with pytest.raises((StorageError, StatementError)):
            await store.import_games([other, broken])
        assert len(await store.list_games(50, None)) == 2  # neither of the two
    finally:
        await store.close()
    with pytest.raises(FormatError):
        fmt.read("md|3S2|")


def test_a_played_session_exports_every_board_with_its_seats_names() -> None:
    """A game played at a table (not imported): two boards, a human and three bots;
    the export writes both boards with those names, and reads back to the same."""
    from datetime import UTC, datetime

    from rules.registry import find_format, get_game
    from server.files import export_text
    from server.persistence.store import SeatRecord, StoredAction, StoredGame
    from tests.conformance import play_random

    game = get_game("bridge")
    config = game.parse_config({"boards": 2, "claims": "defenders"})
    played = play_random(game, config, 5, scan=False)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    stored = StoredGame(
        id=7, game_type="bridge", config=game.config_json(config), seed=5, name="t",
        status="finished", created_at=at, finished_at=at, result=None,
        seats=[SeatRecord(0, "human", player_id=3), *(SeatRecord(i, "bot", bot="gib")
                                                      for i in (1, 2, 3))],
        actions=[StoredAction(a.seq, a.seat, dict(a.action), at, "x") for a in played.log],
    )
    text = export_text(stored, "pbn", {0: "ann"})
    assert text.count('[Board "') == 2 and '[North "ann"]' in text and '[East "gib"]' in text
    again = find_format("pbn")[1].read(text)
    assert [r.players for r in again] == [("ann", "gib", "gib", "gib")] * 2
    scores = []
    for r in again:
        state = game.new(game.parse_config(r.options), r.seed)
        for seat, action in r.actions:
            state, _ = game.act(state, seat, action)
        scores.append(state.results[0].score_ns)
    assert scores == [b.score_ns for b in played.state.results]


def test_a_partial_poker_history_is_stored_unfinished_and_exports_as_it_came(
        sqlite_url: str, tmp_path: Path, capsys: Any) -> None:
    # As a bridge record that stops early: status abandoned, so nothing resumes it.
    real = Path(__file__).parents[1] / "data" / "poker_real"
    assert main(["import", str(real / "phh_ipoker_partial_history.phhs"), "--db",
                 sqlite_url]) == 0
    stored = load_stored(sqlite_url, 1)
    assert stored.status == "abandoned" and stored.game_type == "poker"
    capsys.readouterr()
    assert main(["export", "1", "--format", "phh", "--db", sqlite_url]) == 0
    text = capsys.readouterr().out
    assert "starting_stacks = [inf, inf, inf, inf, inf, inf]" in text and "d db 4d" in text
    assert main(["export", "1", "--format", "pokerstars", "--db", sqlite_url]) == 2
    assert "export it as PHH" in capsys.readouterr().err


def test_an_imported_poker_hand_names_its_winner_as_the_file_does(
    sqlite_url: str, capsys: Any
) -> None:
    # The first hand of stars_cash.txt: a.b.c (the file's Seat 5, the small blind,
    # so the rules' first chair) collects $6.13 of a pot it put $3.02 in.
    cash = Path(__file__).parents[1] / "rules" / "poker" / "data" / "stars_cash.txt"
    assert main(["import", str(cash), "--db", sqlite_url]) == 0
    assert "Hand #219876543210: a.b.c wins 3.11 over 1 hand" in capsys.readouterr().out
    assert main(["games", "--db", sqlite_url]) == 0
    assert "finished         7  " in (listed := capsys.readouterr().out)
    assert listed.rstrip().endswith("a.b.c wins 3.11 over 1 hand")
    # The deal's posts in the file's money too, not in cents.
    assert main(["replay", "1", "--all", "--db", sqlite_url]) == 0
    assert "posts the small blind (0.05)" in capsys.readouterr().out


async def test_an_import_over_the_websocket_names_the_winner_as_the_file_does(
    harness: Harness,
) -> None:
    cash = Path(__file__).parents[1] / "rules" / "poker" / "data" / "stars_cash.txt"
    alice = await harness.client("alice")
    done = await alice.request({"type": "import_file", "text": cash.read_text(),
                                "filename": "cash.txt"})
    assert done["games"][0]["result"]["summary"] == "a.b.c wins 3.11 over 1 hand"


def test_a_game_without_file_formats_says_so() -> None:
    from datetime import UTC, datetime

    from engine.errors import IllegalAction
    from server.files import export_text
    from server.persistence.store import StoredGame

    stored = StoredGame(1, "tractor", {"version": 4}, 1, "Friday", "finished",
                        datetime.now(UTC), None, None)
    with pytest.raises(IllegalAction) as refused:
        export_text(stored, "pbn")
    assert refused.value.code == "unknown_format"
    assert refused.value.message == "Tractor (Sheng Ji) has no file format"


async def test_games_imported_before_fingerprints_are_found_after_the_upgrade(
    db_url: str,
) -> None:
    """Games imported before the fingerprint column get theirs from the migration
    that backfills it, computed as an import computes it: the same file imported
    again is found, not stored twice (a record stored twice keeps two copies, the
    first one found)."""
    from sqlalchemy import text

    from rules.registry import find_format
    from server.files import check_records, to_store
    from server.persistence.database import downgrade, upgrade

    _, fmt = find_format("lin")
    games = [to_store(c) for c in check_records(fmt.read(LIN_FILE.read_text()))]
    store = await Store.open(db_url)
    try:
        first = await store.import_games(games)
        async with store.engine.begin() as conn:
            await conn.execute(text("UPDATE games SET fingerprint = NULL"))
        again = await store.import_games(games)  # as if no fingerprint had been taken
        assert [i.new for i in again] == [True, True]
        async with store.engine.begin() as conn:
            await conn.execute(text("UPDATE games SET fingerprint = NULL"))
    finally:
        await store.close()
    await downgrade(db_url, "0006_import_fingerprint")
    await upgrade(db_url)
    store = await Store.open(db_url)
    try:
        found = await store.import_games(games)
        assert [(i.game_id, i.new) for i in found] == [(i.game_id, False) for i in first]
        assert len(await store.list_games(50, None)) == 4
    finally:
        await store.close()
