"""A websocket bot in a tournament: `cardtable tournament --remote-seat` serves the
tables, a separate program (tests/server/remote_bot_script.py) joins with the
printed token and plays over the public protocol; one that disconnects gets
stand-ins and the tournament still ends."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import LoggedAction, replay
from rules.registry import get_game
from server.lifeline import set_parent_death_signal
from server.persistence.results import Results
from server.persistence.store import Store

ROOT = Path(__file__).resolve().parents[2]
BOT = Path(__file__).with_name("remote_bot_script.py")
POKER = ["--game", "poker", "--options", '{"seats": 2, "hands": 2}', "--bots", "rule"]


def _tournament(db_url: str, *flags: str, game: list[str] = POKER) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "server.cli", "tournament", *game, "--db", db_url, *flags]
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=set_parent_death_signal,
    )


def _address(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The URL and token the tournament prints for its remote seat."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("remote seat rb: connect to ws://"), line
    words = line.split()
    return words[5], words[8]


def _bot(url: str, token: str, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(BOT), *flags, "--", url, token],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        preexec_fn=set_parent_death_signal,
    )


def _stored(url: str) -> Any:
    async def run() -> Any:
        store = await Store.open(url)
        try:
            t = await Results(store).get_tournament(1)
            games = [await store.get_game(g.game_id) for m in t.matches for g in m.games]
            return t, games
        finally:
            await store.close()

    return asyncio.run(run())


def _finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    return out, err


def test_a_websocket_bot_plays_a_tournament_to_the_end(sqlite_url: str) -> None:
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "2", "--budget", "5")
    url, token = _address(proc)
    bot = _bot(url, token)
    out, err = _finish(proc)
    assert proc.returncode == 0, err
    bot_out, _ = bot.communicate(timeout=30)
    assert bot.returncode == 0 and int(bot_out.split()[-1]) > 0  # it acted, then the end
    assert "4 games (2 matches of one deal, every seating" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("rb", "rule"))}
    assert set(rows) == {"rb", "rule"}
    t, games = _stored(sqlite_url)
    assert t.status == "finished" and len(t.matches) == 2
    assert {e["name"]: e["remote"] for e in t.setup["entrants"]} == {"rule": False, "rb": True}
    game = get_game("poker")
    for m in t.matches:
        assert [g.bots for g in m.games] == [["rule", "rb"], ["rb", "rule"]]
    for stored in games:
        # Played at a server table, stored as any table's game: it replays.
        assert stored.status == "finished"
        kinds = sorted(s.kind for s in stored.seats)
        assert kinds == ["bot", "human"]
        end = replay(
            game,
            game.parse_config(stored.config),
            stored.seed,
            [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions],
        )
        assert list(game.result(end).scores) == stored.result["scores"]  # type: ignore[union-attr]
        remote = next(s.seat for s in stored.seats if s.kind == "human")
        assert any(a.seat == remote and a.actor.startswith("player:") for a in stored.actions)


def test_a_remote_bot_that_disconnects_gets_stand_ins_and_the_tournament_ends(
    sqlite_url: str,
) -> None:
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "2", "--budget", "0.3")
    url, token = _address(proc)
    bot = _bot(url, token, "--quit-after", "1")
    _, err = _finish(proc)
    assert proc.returncode == 0, err
    assert bot.communicate(timeout=30)[0].strip() == "acted 1"
    t, games = _stored(sqlite_url)
    assert t.status == "finished" and len(t.matches) == 2
    remote_moves = [
        a
        for g in games
        for a in g.actions
        if a.seat == next(s.seat for s in g.seats if s.kind == "human")
    ]
    stand_ins = [a for a in remote_moves if a.actor == "timeout:stand_in"]
    assert len(stand_ins) == len(remote_moves) - 1  # all but its one move
    rb = next(b for b in t.standings["bots"] if b["name"] == "rb")
    assert rb["stand_ins"] == len(stand_ins) > 0
    assert rb["stand_ins"] == sum(
        g.stand_ins[g.bots.index("rb")] for m in t.matches for g in m.games
    )


def test_a_remote_bot_that_runs_out_of_time_gets_stand_ins(sqlite_url: str) -> None:
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "1", "--budget", "0.2")
    url, token = _address(proc)
    bot = _bot(url, token, "--slow", "2.0")
    _, err = _finish(proc)
    assert proc.returncode == 0, err
    bot.communicate(timeout=30)
    t, games = _stored(sqlite_url)
    assert t.status == "finished"
    for g in games:
        remote = next(s.seat for s in g.seats if s.kind == "human")
        moves = [a for a in g.actions if a.seat == remote]
        # Every answer came after the clock had moved the table on: all stand-ins.
        assert moves and all(a.actor == "timeout:stand_in" for a in moves)
    rb = next(b for b in t.standings["bots"] if b["name"] == "rb")
    assert rb["stand_ins"] == sum(
        1
        for g in games
        for a in g.actions
        if a.seat == next(s.seat for s in g.seats if s.kind == "human")
    )


def test_the_report_tells_a_remote_bots_author_what_it_did_wrong(sqlite_url: str) -> None:
    """Refused actions cost no move (the bot acts again) but are counted, with the
    first one's reason; turns that ran out are stand-ins for late."""
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "1", "--budget", "1")
    url, token = _address(proc)
    bot = _bot(url, token, "--illegal-first")
    out, err = _finish(proc)
    assert proc.returncode == 0, err
    acted = int(bot.communicate(timeout=30)[0].split()[-1])
    line = next(x for x in out.splitlines() if x.startswith("rb: ") and "refused" in x)
    assert line.startswith(f"rb: {acted} actions refused by the rules")
    assert "the first: bad_action" in line
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "1", "--budget", "0.2")
    url, token = _address(proc)
    slow = _bot(url, token, "--slow", "2.0")
    out, err = _finish(proc)
    slow.communicate(timeout=30)
    assert any(x.startswith("rb: stand-ins for late ") for x in out.splitlines()), out


def test_a_local_bots_illegal_answers_at_a_remote_table_count_as_stand_ins(
    sqlite_url: str,
) -> None:
    """docs/bots.md, "Python bots": an answer the rules refuse gets the stand-in
    and counts against the bot, also at a server table of a --remote-seat run."""
    broken = [*POKER[:-1], "broken=tests.server.slow_bot:BrokenBot"]
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "1", game=broken)
    url, token = _address(proc)
    bot = _bot(url, token)
    _, err = _finish(proc)
    assert proc.returncode == 0, err
    bot.communicate(timeout=30)
    t, games = _stored(sqlite_url)
    assert t.status == "finished"
    moves = 0
    for g in games:
        seat = next(s.seat for s in g.seats if s.kind == "bot")
        mine = [a for a in g.actions if a.seat == seat]
        # Every answer was refused: each move is the stand-in's, logged as such.
        assert mine and all(a.actor.endswith(":stand_in") for a in mine)
        moves += len(mine)
    standing = {b["name"]: b["stand_ins"] for b in t.standings["bots"]}
    assert standing["broken"] == moves
    assert standing["rb"] == sum(
        1 for g in games for a in g.actions if a.actor == "timeout:stand_in"
    )


def test_no_remote_bot_is_a_clear_error(sqlite_url: str) -> None:
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--connect-timeout", "0.5")
    _address(proc)
    _, err = _finish(proc)
    assert proc.returncode == 2
    assert "no connection from rb within 0.5s" in err


def test_a_port_already_taken_is_a_clear_error(sqlite_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        proc = _tournament(sqlite_url, "--remote-seat", "rb", "--port", port)
        _, err = _finish(proc)
    assert proc.returncode == 2
    assert f"error: cannot serve the remote seats on 127.0.0.1:{port}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("game", ["whist"])
def test_a_partnership_game_asks_for_one_session_per_seat(sqlite_url: str, game: str) -> None:
    argv = [
        sys.executable,
        "-m",
        "server.cli",
        "tournament",
        "--game",
        game,
        "--bots",
        "heuristic",
        "--remote-seat",
        "rb",
        "--connect-timeout",
        "0.2",
        "--db",
        sqlite_url,
    ]
    done = subprocess.run(
        argv,
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = [x for x in done.stdout.splitlines() if x.startswith("remote seat")]
    assert [x.split()[2] for x in lines] == ["rb:", "rb#2:"]
    assert done.returncode == 2


@pytest.mark.parametrize("presses", [1, 2])
def test_an_interrupted_run_leaves_no_table_open(sqlite_url: str, presses: int) -> None:
    """Interrupted (Ctrl-C, once or twice in a row), a run with a websocket entrant
    cannot be resumed: its tables are stored abandoned, so a server on the same
    database neither plays them on nor offers their seats.  A second Ctrl-C used to
    land in that cleanup and hang the run."""
    import signal
    import time

    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "3", "--budget", "1",
                       game=["--game", "poker", "--options", '{"seats": 2, "hands": 50}',
                             "--bots", "rule"])
    url, token = _address(proc)
    bot = _bot(url, token, "--slow", "0.2")

    async def statuses() -> list[str]:
        store = await Store.open(sqlite_url)
        try:
            return [g.status for g, _ in await store.list_games(100, None)]
        finally:
            await store.close()

    try:
        deadline = time.monotonic() + 60
        while "live" not in asyncio.run(statuses()):
            assert time.monotonic() < deadline, "no table went live"
            time.sleep(0.2)
        for _ in range(presses):
            proc.send_signal(signal.SIGINT)
            time.sleep(0.001)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            # Once, on a heavily loaded machine, a lone Ctrl-C went unanswered and
            # the run played on (the cause is not known); each Ctrl-C stops the
            # playing anew, so a user's second one must then stop it as cleanly.
            proc.send_signal(signal.SIGINT)
            _, err = _finish(proc)
    finally:
        bot.kill()
        bot.communicate(timeout=30)
    assert "interrupted" in err
    found = asyncio.run(statuses())
    assert found and set(found) <= {"finished", "abandoned"}, found


def test_the_example_remote_bot_plays_a_tournament_without_a_fault(sqlite_url: str) -> None:
    """examples/remote_bot.py, as docs/bots.md offers it, against the real server."""
    proc = _tournament(sqlite_url, "--remote-seat", "rb", "--games", "2", "--budget", "2")
    url, token = _address(proc)
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "remote_bot.py"), url, token],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, preexec_fn=set_parent_death_signal,
    )
    out, err = _finish(proc)
    assert proc.returncode == 0, err
    said = bot.communicate(timeout=30)[0]
    assert "error:" not in said, said
    t, _ = _stored(sqlite_url)
    rb = next(b for b in t.standings["bots"] if b["name"] == "rb")
    assert t.status == "finished" and rb["stand_ins"] == 0
    assert "refused" not in out
