"""``cardtable play`` end to end: a real server in-process, scripted keyboard input."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from clients.terminal.play import run_play
from server.app import Server
from server.cli import build_parser
from tests.server.terminal_support import Keyboard, Screen, play_args, play_settings


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    srv = Server(play_settings(tmp_path))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


async def test_play_a_whole_whist_game_against_bots(server: Server, tmp_path: Path) -> None:
    # Seat 0 is ours; the three other seats are filled with bots ("start": true).
    keys, screen = Keyboard(['{"type": "play", "card": "ZZ"}', "99"]), Screen()
    url = f"ws://127.0.0.1:{server.port}/"
    args = play_args("--url", url, "--name", "ann", "--state", str(tmp_path / "s.json"))

    code = await asyncio.wait_for(run_play(args, keys, screen), 60)

    assert code == 0, screen.text
    out = screen.text
    # A whist deal is 13 tricks: we are prompted once per trick, plus the refused tries.
    assert len(keys.prompts) == 13 + 2
    assert all(re.fullmatch(r"Your move \[1-\d+ or card\]: ", p) for p in keys.prompts)
    # The server's refusal of an unparseable card is shown, and the menu rejects 99.
    assert "The server refused that move: not a card: 'ZZ' [illegal_action/bad_card]" in out
    assert "99 is not on the menu" in out
    # Events read as short lines with suit symbols.
    assert re.search(r"^(East|South|West) plays (10|[2-9JQKA])[♣♦♥♠]$", out, re.M)
    assert re.search(r"^You play (10|[2-9JQKA])[♣♦♥♠]$", out, re.M)
    assert re.search(r"^(You win|(North \(you\)|East|South|West) wins) the trick", out, re.M)
    assert "Your hand:" in out and "Your legal moves:" in out
    # The end: result, game id and the replay command.
    table_id = json.loads((tmp_path / "s.json").read_text())
    assert table_id["table"] is None  # nothing left to resume
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    assert f"Replay it with: cardtable replay {m.group(1)}" in out
    assert re.search(r"^Game finished\. Result: ((North/South|East/West) win|drawn)", out, re.M)
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"
    # Every one of our 13 plays is in the stored log as seat 0's.
    assert sum(1 for a in stored.actions if a.seat == 0) == 13


async def test_a_card_spelling_picks_that_card(server: Server, tmp_path: Path) -> None:
    picked: list[str] = []
    screen = Screen()

    async def read(prompt: str) -> str:
        # Answer with the first card of the menu ("1) Play A♠"), spelled "10h"-style,
        # not by number.
        menu = [line for line in screen.lines if line.startswith("  1) ")][-1]
        card = menu.split()[2]
        picked.append(card)
        return card.replace("♠", "s").replace("♥", "h").replace("♣", "c").replace("♦", "d")

    args = play_args("--url", f"ws://127.0.0.1:{server.port}/", "--state", str(tmp_path / "s.json"))
    assert await asyncio.wait_for(run_play(args, read, screen), 60) == 0
    assert len(picked) == 13
    for card in picked:
        assert f"You play {card}" in screen.text


async def test_unreachable_server_exits_2_with_a_hint(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    screen = Screen()
    args = play_args("--url", f"ws://127.0.0.1:{port}/", "--state", str(tmp_path / "s.json"))
    assert await run_play(args, Keyboard([]), screen) == 2
    assert "start it with: cardtable serve" in screen.text


async def test_unknown_game_and_bad_options_are_refused(server: Server, tmp_path: Path) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    screen = Screen()
    args = play_args("--url", url, "--game", "tarot", "--state", str(tmp_path / "s.json"))
    assert await run_play(args, Keyboard([]), screen) == 2
    assert "no game 'tarot'" in screen.text
    screen = Screen()
    args = play_args(
        "--url", url, "--options", '{"deals": 99}', "--state", str(tmp_path / "s.json")
    )
    assert await run_play(args, Keyboard([]), screen) == 1
    assert "[bad_option]" in screen.text
    screen = Screen()
    args = play_args("--url", url, "--options", "{nope", "--state", str(tmp_path / "s.json"))
    assert await run_play(args, Keyboard([]), screen) == 2
    assert "--options is not valid JSON" in screen.text


async def test_options_help_lists_the_games_options(server: Server, tmp_path: Path) -> None:
    """``--options help`` prints the game's options as the server's welcome
    describes them (its options schema), with defaults and choices, and exits."""
    url = f"ws://127.0.0.1:{server.port}/"
    screen = Screen()
    args = play_args("--url", url, "--game", "tractor", "--options", "help",
                 "--state", str(tmp_path / "s.json"))
    assert await run_play(args, Keyboard([]), screen) == 0
    assert "trick_draw_policy (default \"no_protections\"; one of no_protections |" in screen.text
    assert "deck_count (default 0; 0..4)" in screen.text


async def _restart(server: Server, tmp_path: Path, grace: float = 0.5) -> Server:
    port = server.port
    await server.stop()
    again = Server(play_settings(tmp_path, port, grace))
    await again.start()
    return again


async def test_resume_after_a_server_restart(tmp_path: Path) -> None:
    # Play three tricks, quit the client, restart the server, then --resume and finish.
    srv = Server(play_settings(tmp_path))
    await srv.start()
    state = str(tmp_path / "s.json")
    url = f"ws://127.0.0.1:{srv.port}/"
    screen = Screen()
    code = await asyncio.wait_for(
        run_play(
            play_args("--url", url, "--state", state), Keyboard(["1", "1", "1", "q"]), screen
        ),
        60,
    )
    assert code == 0
    assert "Come back with: cardtable play --resume --state" in screen.text
    saved = json.loads(Path(state).read_text())
    assert saved["table"] is not None and saved["seat_token"] and saved["version"] > 0
    srv = await _restart(srv, tmp_path)
    try:
        screen = Screen()
        keys = Keyboard([], screen=screen)
        code = await asyncio.wait_for(
            run_play(play_args("--resume", "--state", state), keys, screen), 60
        )
        assert code == 0, screen.text
        assert f"Resuming table {saved['table']}" in screen.text
        # The first prompt after the resume comes with the table and the move menu.
        resumed = screen.lines.index(f"Resuming table {saved['table']} from version "
                                     f"{saved['version']}.")
        before_prompt = screen.lines[resumed : keys.seen[0]]
        assert any(line.startswith("── table ") for line in before_prompt), before_prompt
        assert "Your legal moves:" in before_prompt and "  1) " in "\n".join(before_prompt)
        assert f"Replay it with: cardtable replay {saved['table']}" in screen.text
        # The remaining ten of our thirteen cards were played after the resume.
        assert len(keys.prompts) == 10
        stored = await srv.store.get_game(saved["table"])
        assert stored is not None and stored.status == "finished"
        assert sum(1 for a in stored.actions if a.seat == 0) == 13
        assert all(a.actor.startswith("player:") for a in stored.actions if a.seat == 0)
    finally:
        await srv.stop()


async def test_reconnects_by_itself_when_the_server_restarts(tmp_path: Path) -> None:
    # A long grace period: the seat must wait for us, so every one of our cards is ours.
    srv = Server(play_settings(tmp_path, grace=30))
    await srv.start()
    holder: dict[str, Server] = {"srv": srv}
    restarted = asyncio.Event()
    calls = 0
    screen = Screen()
    answered_at = 0  # screen lines when the prompt open across the restart was answered

    async def read(prompt: str) -> str:
        nonlocal calls, answered_at
        calls += 1
        if calls == 3 and not restarted.is_set():
            holder["srv"] = await _restart(holder["srv"], tmp_path, grace=30)
            restarted.set()
            # The prompt stays open across the reconnect: wait (bounded) for the
            # client to show the table and menu again before answering it.
            for _ in range(100):
                after = screen.lines[_resumed_at(screen) + 1 :] if _resumed_at(screen) else []
                if "Your legal moves:" in after:
                    break
                await asyncio.sleep(0.05)
            answered_at = len(screen.lines)
        return "1"

    args = play_args(
        "--url",
        f"ws://127.0.0.1:{srv.port}/",
        "--state",
        str(tmp_path / "s.json"),
        "--retry",
        "10",
    )
    try:
        code = await asyncio.wait_for(run_play(args, read, screen), 60)
        assert code == 0, screen.text
        assert "Connection lost (1001: server shutting down)." in screen.text
        assert "Resuming table" in screen.text
        # Redrawn after the reconnect, before the open prompt was answered.
        redrawn = screen.lines[_resumed_at(screen) : answered_at]
        assert any(line.startswith("── table ") for line in redrawn), redrawn
        assert "Your legal moves:" in redrawn
        m = re.search(r"^Replay it with: cardtable replay (\d+) ", screen.text, re.M)
        assert m is not None
        stored = await holder["srv"].store.get_game(int(m.group(1)))
        assert stored is not None and stored.status == "finished"
        assert [a.actor.startswith("player:") for a in stored.actions if a.seat == 0] == [True] * 13
    finally:
        await holder["srv"].stop()


def _resumed_at(screen: Screen) -> int:
    """The index of the screen's "Resuming table" line (0: none yet)."""
    return next((i for i, line in enumerate(screen.lines) if line.startswith("Resuming")), 0)


async def test_gives_up_reconnecting_at_the_retry_deadline(tmp_path: Path) -> None:
    # The server goes away for good: the client retries for --retry seconds, then
    # stops with the command that resumes later.
    srv = Server(play_settings(tmp_path, grace=30))
    await srv.start()

    stopped: list[bool] = []

    async def read(prompt: str) -> str:
        if not stopped:
            stopped.append(True)
            await srv.stop()
        return "1"

    screen = Screen()
    args = play_args(
        "--url", f"ws://127.0.0.1:{srv.port}/", "--state", str(tmp_path / "s.json"),
        "--retry", "1",
    )  # fmt: skip
    started = time.monotonic()
    code = await asyncio.wait_for(run_play(args, read, screen), 20)
    assert code == 1, screen.text
    assert "Reconnecting to" in screen.text
    assert "Could not reconnect. When the server is back: cardtable play --resume" in screen.text
    assert "In a cluster, any other node takes you back now: add --url" in screen.text
    assert 1 <= time.monotonic() - started < 10  # waited out the deadline, not much more


async def test_resume_catches_up_on_a_game_a_bot_finished_for_us(tmp_path: Path) -> None:
    # We leave after one card; after the grace period a bot plays our seat to the end.
    # --resume then prints what we missed (every catch-up update carries the final
    # view, so the client must not stop at the first one) and the result.
    srv = Server(play_settings(tmp_path, grace=0.05))
    await srv.start()
    try:
        state = str(tmp_path / "s.json")
        url = f"ws://127.0.0.1:{srv.port}/"
        await asyncio.wait_for(
            run_play(play_args("--url", url, "--state", state), Keyboard(["1", "q"]), Screen()), 30
        )
        saved = json.loads(Path(state).read_text())
        table = saved["table"]
        for _ in range(200):
            stored = await srv.store.get_game(table)
            if stored is not None and stored.status == "finished":
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the stand-in bot did not finish the game")
        keys, screen = Keyboard([]), Screen()
        code = await asyncio.wait_for(
            run_play(play_args("--resume", "--state", state), keys, screen), 30
        )
        assert code == 0, screen.text
        assert keys.prompts == []
        assert "Game over: " in screen.text
        assert f"Replay it with: cardtable replay {table}" in screen.text
        # Every card played after the last version we saw is reported (one per version).
        plays = re.findall(r"^(?:You play|\w+ plays) ", screen.text, re.M)
        assert len(plays) == 52 - saved["version"]
    finally:
        await srv.stop()


def test_play_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["play", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for flag in (
        "--url",
        "--game",
        "--options",
        "--name",
        "--seat",
        "--table",
        "--resume",
        "--state",
    ):
        assert flag in text


async def test_join_an_existing_table_and_start_it(server: Server, tmp_path: Path) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{server.port}/"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "name": "host"}))
        await ws.recv()
        await ws.send(json.dumps({"type": "create_table", "game": "whist", "name": "open"}))
        created = json.loads(await ws.recv())
    table = created["table"]["table"]
    keys, screen = Keyboard([]), Screen()
    args = play_args(
        "--url", url, "--table", str(table), "--seat", "1", "--start",
        "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    assert await asyncio.wait_for(run_play(args, keys, screen), 60) == 0, screen.text
    assert "You sit at seat 1 (East)." in screen.text
    assert len(keys.prompts) == 13
    assert f"Replay it with: cardtable replay {table}" in screen.text


async def test_a_prompt_keeps_its_own_line_on_the_real_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The default console (input() on a thread, print to stdout): the server restarts
    # while a prompt is open, and the client's lines must not be glued to the prompt.
    srv = Server(play_settings(tmp_path, grace=30))
    await srv.start()
    holder: dict[str, Server] = {"srv": srv}
    loop = asyncio.get_running_loop()
    calls = 0

    def fake_input(prompt: str) -> str:
        nonlocal calls
        print(prompt, end="", flush=True)  # as input() does
        calls += 1
        if calls == 2:
            restart = _restart(holder["srv"], tmp_path, grace=30)
            holder["srv"] = asyncio.run_coroutine_threadsafe(restart, loop).result(10)
            time.sleep(0.5)  # the client notices the drop and reconnects meanwhile
        return "1"

    monkeypatch.setattr("builtins.input", fake_input)
    args = play_args(
        "--url", f"ws://127.0.0.1:{srv.port}/", "--state", str(tmp_path / "s.json"),
        "--retry", "10",
    )  # fmt: skip
    try:
        code = await asyncio.wait_for(run_play(args), 60)
    finally:
        await holder["srv"].stop()
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Connection lost (1001: server shutting down)." in out
    assert not re.search(r"Your move \[1-\d+ or card\]: \S", out), out
    assert re.search(r"^Game finished\. Result: ", out, re.M)


async def test_turn_clock_flags_reach_create_table_and_the_clock_is_shown(
    tmp_path: Path,
) -> None:
    # A scripted server: it records create_table and sends synthetic frames, the first
    # without a clock (servers that have none), the second with one on our turn.
    from websockets.asyncio.server import ServerConnection, serve

    from rules.whist.game import WhistGame

    game = WhistGame()
    view = game.view(game.new(game.parse_config({}), 1), 0)
    compass = ["North", "East", "South", "West"]
    info = {
        "table": 5, "name": "clocked", "game": "whist", "options": {}, "status": "live",
        "version": 0, "turn_seconds": 30, "time_bank": 120,
        "seats": [{"seat": i, "name": n, "kind": "bot", "bot": "random"}
                  for i, n in enumerate(compass)],
    }  # fmt: skip
    frame = {"table": 5, "seat": 0, "status": "live", "view": view}
    received: list[dict[str, Any]] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.recv()  # hello
        await ws.send(json.dumps({
            "type": "welcome", "protocol": 1, "token": "tok", "player": 1, "name": "ann",
            "resumed": False, "games": ["whist"], "seats": [],
        }))  # fmt: skip
        received.append(json.loads(await ws.recv()))
        for msg in (
            {"type": "table_created", "id": "setup", "table": info},
            {"type": "joined", "table": 5, "seat": 0, "seat_token": "st"},
            {"type": "snapshot", "version": 1, "to_act": [1], "legal": None, **frame},
            {
                "type": "update", "version": 2, "events": [], "to_act": [0],
                "legal": [{"type": "play", "card": c} for c in view["hand"][:3]],
                "clock": {"seats": [0], "turn_left": 30.9, "banks": [120, 120, 120, 120]},
                **frame,
            },
        ):  # fmt: skip
            await ws.send(json.dumps(msg))
        with contextlib.suppress(Exception):
            await ws.recv()  # until the client leaves

    async with serve(handler, "127.0.0.1", 0) as fake:
        port = fake.sockets[0].getsockname()[1]
        screen = Screen()
        keys = Keyboard(["q"], screen=screen)
        args = play_args(
            "--url", f"ws://127.0.0.1:{port}/", "--state", str(tmp_path / "s.json"),
            "--turn-seconds", "30", "--time-bank", "120",
        )  # fmt: skip
        assert await asyncio.wait_for(run_play(args, keys, screen), 10) == 0, screen.text
    assert received[0]["type"] == "create_table"
    assert (received[0]["turn_seconds"], received[0]["time_bank"]) == (30, 120)
    assert "Turn clock: 30s a move, plus a bank of 2m00s each." in screen.lines
    tables = [i for i, line in enumerate(screen.lines) if line.startswith("── table 5")]
    assert len(tables) == 2
    first = screen.lines[tables[0] : tables[1]]
    assert not any(line.startswith("Clock:") for line in first)  # no clock in the frame
    assert "Clock: North (you) 31s + bank 2m00s" in screen.lines[tables[1] : keys.seen[0]]


async def test_a_resume_a_cluster_refuses_for_now_is_asked_again(tmp_path: Path) -> None:
    """While a cluster adopts a dead node's table it answers node_unavailable
    ("retry after a moment", docs/protocol.md): the client asks again on a new
    connection within its --retry window instead of giving up."""
    from websockets.asyncio.server import ServerConnection, serve

    resumes: list[dict[str, Any]] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.recv()  # hello
        await ws.send(json.dumps({
            "type": "welcome", "protocol": 1, "token": "tok", "player": 1, "name": "ann",
            "resumed": True, "games": ["whist"], "seats": [],
        }))  # fmt: skip
        resumes.append(json.loads(await ws.recv()))
        code = "node_unavailable" if len(resumes) == 1 else "not_seated"
        await ws.send(json.dumps({"type": "error", "id": "setup", "code": code,
                                  "message": f"refused ({code})"}))
        with contextlib.suppress(Exception):
            await ws.recv()

    async with serve(handler, "127.0.0.1", 0) as fake:
        url = f"ws://127.0.0.1:{fake.sockets[0].getsockname()[1]}/"
        state = tmp_path / "s.json"
        state.write_text(json.dumps({"url": url, "token": "tok", "table": 5, "seat": 0,
                                     "seat_token": "st", "version": 3, "game": "whist"}))
        screen = Screen()
        args = play_args("--resume", "--state", str(state), "--retry", "10")
        code = await asyncio.wait_for(run_play(args, Keyboard([], screen=screen), screen), 20)
    assert code == 1, screen.text
    assert [(r["type"], r["table"], r["since"]) for r in resumes] == [("resume", 5, 3)] * 2
    assert "Trying again in 1s..." in screen.lines
    assert "error: the server refused: refused (not_seated) [not_seated]" in screen.lines


async def test_clock_flags_are_checked_before_connecting(tmp_path: Path) -> None:
    screen = Screen()
    state = ["--state", str(tmp_path / "s.json")]
    assert await run_play(play_args("--time-bank", "60", *state), Keyboard([]), screen) == 2
    assert "--time-bank needs --turn-seconds" in screen.text
    args = play_args("--table", "3", "--turn-seconds", "20", *state)
    assert await run_play(args, Keyboard([]), screen) == 2
    assert "set the clock of a new table" in screen.text
    for bad in (["--turn-seconds", "0"], ["--turn-seconds", "3601"], ["--time-bank", "x"]):
        with pytest.raises(SystemExit):
            play_args(*bad)


async def test_a_turn_clock_runs_out_against_a_real_server(server: Server, tmp_path: Path) -> None:
    # A 1 s turn and a 1 s bank; nobody answers the first prompt, so the server's
    # stand-in plays for us; the next turn's table and menu follow at once.
    screen = Screen()
    ran_out = "Your time ran out: a bot played for you."

    async def read(prompt: str) -> str:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if ran_out in screen.lines:
                later = screen.lines[screen.lines.index(ran_out) :]
                if "Your legal moves:" in later:
                    return "q"
            await asyncio.sleep(0.05)
        return "q"

    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--state", str(tmp_path / "s.json"),
        "--turn-seconds", "1", "--time-bank", "1",
    )  # fmt: skip
    assert await asyncio.wait_for(run_play(args, read, screen), 30) == 0, screen.text
    lines = screen.lines
    assert "Turn clock: 1s a move, plus a bank of 1s each." in lines
    assert "Clock: North (you) 1s + bank 1s" in lines, screen.text
    said = lines.index(ran_out)
    assert re.fullmatch(r"You play (10|[2-9JQKA])[♣♦♥♠]", lines[said + 1]), screen.text
    # Back to us with the bank spent: the table, its clock and the menu again.
    after = lines[said:]
    assert "Clock: North (you) 1s + bank 0s" in after, screen.text
    assert after.index("Your legal moves:") > after.index("Clock: North (you) 1s + bank 0s")
    table = json.loads((tmp_path / "s.json").read_text())["table"]
    stored = await server.store.get_game(table)
    assert stored is not None
    assert next(a.actor for a in stored.actions if a.seat == 0).startswith("timeout:")


async def test_a_piped_keyboard_still_open_at_the_end_exits_cleanly(
    server: Server, tmp_path: Path
) -> None:
    """Scripted input through a pipe that stays open (a script, not a terminal):
    when the game ends the client exits with 0, its input thread still waiting,
    and no abort at shutdown (a buffered stdin read held a lock there)."""
    import os
    import sys

    from tests.server.serverproc import ROOT

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "play", "--url", f"ws://127.0.0.1:{server.port}/",
        "--state", str(tmp_path / "s.json"), cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"auto\n")  # a bot plays for us; the pipe is not closed
    await proc.stdin.drain()
    assert proc.stdout is not None and proc.stderr is not None
    try:  # not communicate(): it would close the pipe
        out, err, _ = await asyncio.wait_for(
            asyncio.gather(proc.stdout.read(), proc.stderr.read(), proc.wait()), 90)
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        proc.stdin.close()
    assert "Game finished." in out.decode(), out.decode()[-2000:]
    assert proc.returncode == 0 and b"Fatal Python error" not in err, err.decode()
