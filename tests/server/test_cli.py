"""The terminal commands that read the database: `cardtable games` and `replay`."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from server.cli import build_parser, main
from server.settings import Settings, sqlite_file
from tests.server.conftest import (
    load_stored,
    make_settings,
    play_out,
    sit_and_start,
    start_harness,
)
from tests.server.serverproc import free_port


def finished_game(url: str) -> int:
    async def run() -> int:
        h = await start_harness(make_settings(url))
        try:
            c = await h.client("cli")
            table, token, snap = await sit_and_start(c)
            await play_out(c, table, token, snap)
            return table
        finally:
            await h.server.stop()

    return asyncio.run(run())


def test_games_lists_and_replay_prints_every_step(sqlite_url: str, capsys: Any) -> None:
    gid = finished_game(sqlite_url)
    assert main(["games", "--db", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert f"{gid:>5}  whist    finished" in out and "52" in out

    assert main(["replay", str(gid), "--db", sqlite_url, "--all"]) == 0
    out = capsys.readouterr().out
    assert "step 0/52: the deal" in out and "step 52/52" in out
    # A finished game replays with every hand by default.  (The deal is random:
    # a hand's first suit may be any of the four.)
    assert re.search(r"\n  West: [♠♥♦♣] ", out)
    assert "result:" in out

    assert main(["replay", str(gid), "--db", sqlite_url, "--all", "--viewer", "1"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"\n  West: [♠♥♦♣] ", out)
    assert re.search(r"\n  Your hand:  [♠♥♦♣] ", out)


def test_games_keeps_its_columns_for_a_long_game_name(sqlite_url: str, capsys: Any) -> None:
    from server.persistence.store import Store

    async def store_two() -> None:
        store = await Store.open(sqlite_url)
        try:
            for game in ("whist", "crazy_eights"):
                await store.create_game(game, {}, 1, "t", 4)
        finally:
            await store.close()

    asyncio.run(store_two())
    assert main(["games", "--db", sqlite_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert {line.index("status" if i == 0 else "waiting") for i, line in enumerate(lines)} == {
        lines[0].index("status")}


def test_interactive_replay_steps_back_and_forth(sqlite_url: str) -> None:
    from clients.terminal.replay import run_replay
    from server.cli import replay_source

    gid = finished_game(sqlite_url)

    stored = load_stored(sqlite_url, gid)
    keys = iter(["n", "n", "p", "g 52", "v 2", "bogus", "q"])
    pages: list[str] = []
    source = replay_source(stored)
    assert run_replay(source, None, False, read=lambda _: next(keys), write=pages.append) == 0
    headers = [p.splitlines()[0] for p in pages if p.startswith("step")]
    assert headers[:4] == ["step 0/52: the deal", headers[1], headers[2], headers[1]]
    assert headers[1].startswith("step 1/52") and headers[2].startswith("step 2/52")
    assert any(h.startswith("step 52/52") for h in headers)
    assert any(p.startswith("keys:") for p in pages)


def test_replay_of_a_missing_game_is_a_clear_error(sqlite_url: str, capsys: Any) -> None:
    from server.persistence.store import Store

    async def create() -> None:
        await (await Store.open(sqlite_url)).close()

    asyncio.run(create())
    assert main(["games", "--db", sqlite_url]) == 0
    assert capsys.readouterr().out == "no stored games\n"
    assert main(["replay", "999", "--db", sqlite_url]) == 2
    assert "no stored game 999" in capsys.readouterr().err
    for command in (["games", "--limit", "-1"], ["tournaments", "--limit", "0"]):
        with pytest.raises(SystemExit):
            main([*command, "--db", sqlite_url])
        assert "is not a count (1 or more)" in capsys.readouterr().err
    # An id no database column holds is refused as the command line is read.
    huge = "99999999999999999999"
    for command in (["replay", huge], ["export", huge, "--format", "pbn"],
                    ["standings", huge], ["tournament", "--resume", huge]):
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--db", sqlite_url])
        assert exit_.value.code == 2
        assert f"{huge} is not an id" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        "serve", "play", "replay", "games", "schema", "showdown", "tournament", "tournaments",
        "standings", "solve", "import", "export", "stats",
    ],
)
def test_every_command_has_help(command: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([command, "--help"])
    assert done.value.code == 0
    assert "usage: cardtable " + command in capsys.readouterr().out


def test_every_option_of_every_command_has_a_help_text() -> None:
    import argparse

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.option_strings or action.dest}"
        for name, sub in commands.choices.items()
        for action in sub._actions
        if not action.help
    ]
    assert missing == []


def test_the_top_level_help_lists_every_command(capsys: Any) -> None:
    """`cardtable --help` (a help string with a bare % once broke it)."""
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in ("serve", "play", "replay", "games", "schema", "showdown", "tournament",
                    "tournaments", "standings", "solve"):
        assert command in out


def test_showdown_names_the_winner_and_equities(capsys: Any) -> None:
    assert main(["showdown", "AhKh", "QsQd", "--board", "Kc 7d 2s 3h 9c"]) == 0
    out = capsys.readouterr().out
    assert "Winner: hand 1 (AH KH) with Pair of kings" in out
    assert main(["showdown", "AhKh", "QsQd"]) == 0
    assert "53.79%" in capsys.readouterr().out  # exact over all 1,712,304 boards
    assert main(["showdown", "AhKh", "ZZ"]) == 2
    assert "error:" in capsys.readouterr().err


def test_tournament_options_help_lists_the_games_options(capsys: Any) -> None:
    assert main(["tournament", "--game", "poker", "--options", "help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Options of poker") and "  seats (default 6; 2..10)" in out
    assert main(["tournament", "--game", "tractor", "--options", "help"]) == 0
    out = capsys.readouterr().out
    # Every option says what it does, a docstring's first paragraph in one line.
    assert "Players at the table: 4, or 5–8 with finding_friends." in out
    assert ("Whether a Finding Friends landlord side that ended smaller than planned "
            "(a wasted or unanswered call) gets one more level when it holds.") in out


def test_tournament_reports_each_bot_with_an_interval(capsys: Any) -> None:
    assert main(["tournament", "--game", "whist", "--games", "20", "--no-store"]) == 0
    out = capsys.readouterr().out
    # Two bots at four seats: partners, so two seatings of each deal (one per side).
    assert "Whist: 40 games (20 matches of one deal, every seating; round-robin)" in out
    lines = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert set(lines) == {"heuristic", "random"}
    assert main(["tournament", "--game", "whist", "--bots", "grandmaster", "--no-store"]) == 2
    assert "no bot 'grandmaster'" in capsys.readouterr().err


def test_tournament_prints_integral_scores_as_integers(capsys: Any) -> None:
    # The same bot under two names, each deal played in every seating: the chips
    # one seating wins the other loses, so each mean is exactly 0.
    args = ["tournament", "--game", "poker", "--bots", "random,again=random", "--games", "2",
            "--no-store"]
    assert main(args) == 0
    rows = [line.split()[:4] for line in capsys.readouterr().out.splitlines()[2:4]]
    assert sorted(rows) == [["again", "0", "[+0,", "+0]"], ["random", "0", "[+0,", "+0]"]]
    assert main(["tournament", "--game", "poker", "--bots", "random", "--no-store"]) == 2
    assert "only one bot (random)" in capsys.readouterr().err


def test_a_failing_bot_s_author_is_told_why(capsys: Any) -> None:
    bots = "raise=tests.server.slow_bot:RaisingBot,random"
    assert main(["tournament", "--game", "whist", "--bots", bots, "--games", "1",
                 "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "raise: stand-ins for failures 52\n  its first failure:\n" in out
    assert 'raise ValueError("this bot has a bug")' in out
    assert "    ValueError: this bot has a bug" in out


def test_a_stored_tournament_game_names_its_stand_in_moves(sqlite_url: str, capsys: Any) -> None:
    """As a server's table does (docs/bots.md): the actor ``bot:NAME:stand_in``."""
    from collections import Counter

    from sqlalchemy import create_engine, text

    bots = "raise=tests.server.slow_bot:RaisingBot,random"
    assert main(["tournament", "--game", "whist", "--bots", bots, "--games", "1",
                 "--db", sqlite_url]) == 0
    capsys.readouterr()
    engine = create_engine(sqlite_url)
    with engine.connect() as c:
        actors = Counter(a for (a,) in c.execute(text("select actor from actions")))
    engine.dispose()
    assert actors == {"bot:raise:stand_in": 52, "bot:random": 52}


@pytest.mark.parametrize(
    "command", [["games"], ["replay", "1"], ["tournaments"], ["standings", "1"]]
)
def test_read_commands_never_create_a_database(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # Run elsewhere with a relative file name: a clear error naming the absolute path.
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--db", "sqlite:///games.db"]) == 2
    err = capsys.readouterr().err
    assert f"error: no database at {tmp_path.resolve() / 'games.db'}\n" in err
    assert "--db URL or CARDTABLE_DB_URL" in err
    monkeypatch.setenv("CARDTABLE_DB_URL", f"sqlite:///{tmp_path}/env.db")
    assert main(command) == 2
    assert f"no database at {tmp_path.resolve() / 'env.db'}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_default_database_is_the_servers_wherever_a_command_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ./scripts/serve runs `cardtable serve` from the checkout's root with no --db.
    root = Path(__file__).resolve().parents[2]
    assert (root / "scripts" / "serve").is_file()
    monkeypatch.chdir(root)
    served = sqlite_file(Settings.from_env({}).db_url)
    monkeypatch.chdir(tmp_path)
    assert sqlite_file(Settings.from_env({}).db_url) == served == root / "cardtable.db"


def test_serve_on_a_taken_port_is_a_clear_error_and_leaves_nothing_running(
    sqlite_url: str,
) -> None:
    """A port already in use is named in one line and exit status 2, not a
    traceback; the bot pool the server had started ends with it."""
    import socket

    from tests.server.serverproc import new_tag, spawn, stop, survivors

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        tag = new_tag()
        proc = spawn(port, sqlite_url, tag=tag)
        try:
            assert proc.wait(60) == 2
            assert proc.stderr is not None
            err = proc.stderr.read().decode()
        finally:
            stop(proc)
    assert f"error: cannot serve on 127.0.0.1:{port}: " in err, err
    assert "in use" in err and "Traceback" not in err, err
    assert survivors(tag) == {}


def test_stored_games_read_their_results_in_their_tables_words(
    sqlite_url: str, capsys: Any
) -> None:
    """A Tractor table names its partnerships by its seats (North/South): its
    stored summary (which counts seats from 0) is listed that way, by the CLI
    and over the websocket."""
    from server.persistence.store import Store
    from tests.server.conftest import make_settings, start_harness

    summary = "seats 1 and 3 win after 1 round: seats 0 and 2 at 2, seats 1 and 3 at 4"
    words = "East/West win after 1 round: North/South at 2, East/West at 4"

    async def store_one() -> None:
        store = await Store.open(sqlite_url)
        try:
            game = await store.create_game("tractor", {"rounds": 1}, 1, "t", 4)
            await store.set_status(game, "finished", {"scores": [0, 1, 0, 1], "summary": summary})
        finally:
            await store.close()

    async def listed() -> dict[str, Any]:
        h = await start_harness(make_settings(sqlite_url))
        try:
            c = await h.client("viewer")
            return await c.request({"type": "list_games"})
        finally:
            await h.server.stop()

    asyncio.run(store_one())
    assert main(["games", "--db", sqlite_url]) == 0
    assert capsys.readouterr().out.rstrip().endswith(words)
    (game,) = asyncio.run(listed())["games"]
    assert game["result"]["summary"] == words
    assert game["created_at"].endswith("+00:00")  # UTC, said so, on SQLite too


def test_a_bad_environment_value_is_a_one_line_error(
    sqlite_url: str, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_GRACE", "abc")
    assert main(["games", "--db", sqlite_url]) == 2
    err = capsys.readouterr().err
    assert err == "error: CARDTABLE_GRACE='abc': not a number (default 60.0)\n"


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("CARDTABLE_PORT", "99999", "setting port (CARDTABLE_PORT): 99999 must be at least 0 "
                                    "and at most 65535"),  # it wrapped round to 34463
        ("CARDTABLE_LOG_LEVEL", "loud", "'loud' is not one of debug, info"),
        ("CARDTABLE_DISCONNECT_POLICY", "nope", "'nope' is not one of bot, wait, forfeit"),
        ("CARDTABLE_HISTORY", "-1", "setting history (CARDTABLE_HISTORY): -1 must be at least 0"),
        ("CARDTABLE_GRACE", "nan", "setting grace (CARDTABLE_GRACE): nan must be at least 0"),
        ("CARDTABLE_RATE", "0", "setting rate (CARDTABLE_RATE): 0.0 must be more than 0"),
        ("CARDTABLE_BUS_PREFIX", "bad/#", "'bad/#' is not a topics' prefix"),
        ("CARDTABLE_BUS_PREFIX", "", "'' is not a topics' prefix"),
    ],
)
def test_a_value_out_of_its_settings_range_is_a_one_line_error(
    sqlite_url: str, capsys: Any, monkeypatch: pytest.MonkeyPatch,
    variable: str, value: str, says: str,
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["games", "--db", sqlite_url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: setting ") and says in err and err.count("\n") == 1
    monkeypatch.delenv(variable)
    # A flag is checked the same way, and named as given.
    assert main(["serve", "--port", "99999", "--db", sqlite_url]) == 2
    assert capsys.readouterr().err == ("error: --port: 99999 must be at least 0 and at "
                                       "most 65535\n")
    assert main(["serve", "--lease-seconds", "0", "--db", sqlite_url]) == 2
    assert capsys.readouterr().err == ("error: --lease-seconds: 0.0 must be more than 0 "
                                       "and at most 3600\n")


def test_a_node_name_without_a_bus_is_refused(sqlite_url: str, capsys: Any) -> None:
    assert main(["serve", "--node", "n1", "--db", sqlite_url]) == 2
    assert "error: --node names a node of a cluster: give --bus too" in capsys.readouterr().err
    bus = ["--bus", "mqtt://127.0.0.1:1883", "--db", sqlite_url]
    assert main(["serve", "--node", "w x", *bus]) == 2
    assert capsys.readouterr().err == (
        "error: --node 'w x' is not a node name: letters, digits, _ and -, at most 64\n")
    assert main(["serve", *bus]) == 2
    assert "--node NAME is required with --bus" in capsys.readouterr().err


def test_a_database_that_cannot_be_opened_is_a_one_line_error(capsys: Any) -> None:
    refused = f"postgresql://u:secret@127.0.0.1:{free_port()}/club"  # nothing listens
    for command in (["games"], ["serve", "--port", "0"]):
        assert main([*command, "--db", refused]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: cannot open the database postgresql://u:***@127.0.0.1:")
        assert err.count("\n") == 1 and "secret" not in err
    assert main(["games", "--db", "foo://bar"]) == 2
    assert "error: cannot open the database foo://bar: " in capsys.readouterr().err


def test_a_file_path_for_a_database_url_is_a_one_line_error_naming_the_url(
    tmp_path: Path, capsys: Any
) -> None:
    db = tmp_path / "club.db"
    for argv in (["games", "--db", str(db)], ["serve", "--port", "0", "--db", str(db)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == (f"error: {str(db)!r} is not a database URL: for that SQLite file, "
                       f"sqlite:///{db} (or postgresql://USER:PASSWORD@HOST/NAME)\n")
    assert not db.exists()


def test_the_banner_never_prints_a_database_password() -> None:
    from server.settings import shown_url

    assert shown_url("postgresql://club:s3cret@db.example/cards") == (
        "postgresql://club:***@db.example/cards")
    assert shown_url("sqlite:////srv/cards.db") == "sqlite:////srv/cards.db"


def test_a_damaged_database_file_is_one_line(tmp_path: Path, capsys: Any) -> None:
    """A SQLite file with damaged pages: the commands that read it, and a server
    that resumes its tables from it, say so in one line (exit 2), no traceback."""
    import random
    import sqlite3
    import subprocess
    import sys

    pbn = Path(__file__).parents[1] / "rules" / "bridge" / "data" / "pbn_standard_example.pbn"
    good = tmp_path / "good.db"
    assert main(["import", str(pbn), "--db", f"sqlite:///{good}"]) == 0
    with sqlite3.connect(good) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        roots = [page for (page,) in db.execute(
            "SELECT rootpage FROM sqlite_master WHERE tbl_name IN ('games', 'actions')")]
    db.close()
    data = bytearray(good.read_bytes())
    noise = random.Random(1)
    # The games' and actions' root pages are noise: the file opens, the games do not read.
    for page in roots:
        at = (page - 1) * size
        data[at: at + size] = bytes(noise.randrange(256) for _ in range(size))
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(bytes(data))
    url = f"sqlite:///{damaged}"
    capsys.readouterr()
    assert main(["games", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "malformed" in err and err.count("\n") == 1
    served = subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(free_port()), "--db", url,
         "--bot-workers", "0"],
        capture_output=True, text=True, timeout=60,
    )
    assert served.returncode == 2 and "malformed" in served.stderr, served.stderr
    assert served.stderr.startswith("error: ") and served.stderr.count("\n") == 1
