"""``cardtable play`` end to end, one game each: poker, bridge, Tractor, both
rummies and Crazy Eights against bots (a real server in-process, scripted keyboard
input; tests/server/test_terminal_play.py has the client's own behaviour)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from clients.terminal.play import run_play
from server.app import Server
from tests.server.terminal_support import Keyboard, Screen, play_args, play_settings


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    srv = Server(play_settings(tmp_path))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


async def test_play_poker_against_bots_with_typed_amounts(server: Server, tmp_path: Path) -> None:
    # Three seats, two hands: we open with a typed raise, then fold or check to the end.
    keys, screen = Keyboard(["raise 37"], default="1"), Screen()
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "poker",
        "--options", '{"seats": 3, "hands": 2}', "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, keys, screen), 30)
    assert code == 0, screen.text
    out = screen.text
    assert re.search(r"^Hand 1/2 · blinds 1/2 · preflop$", out, re.M)
    assert re.search(r"^Board: ", out, re.M) and "Your cards: " in out
    assert re.search(r"^  Seat 1 \(you\) +stack +\d+", out, re.M)
    assert re.search(r"^  1\) (Fold|Check) ", out, re.M)
    # The typed amount went to the server as a raise to 37 (unless a bot raised more first).
    assert "You raise to 37" in out or "[illegal_action/raise_too_small]" in out
    assert re.search(r"^Seat [23] (folds|checks|calls \d+|raises to \d+|bets \d+)", out, re.M)
    assert re.search(r"^(You win|Seat [123] wins) \d+", out, re.M)
    assert re.search(r"^Game finished\. Result: ", out, re.M)
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"


async def test_play_a_bridge_board_against_bots(server: Server, tmp_path: Path) -> None:
    # Board 1: North (us) deals and opens 1NT by typing it; then the first menu entry
    # (Pass in the auction, the first legal card, accepting a claim) to the end.
    # A fixed deal of long solid suits: its double-dummy table takes milliseconds.
    keys, screen = Keyboard(["1nt"], default="1"), Screen()
    deal = "N:AKQJ.AKQ.765.432 65432.32.AKQJ.AK 87.JT987654.432. T9..T98.QJT98765"
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "bridge",
        "--options", json.dumps({"deal": deal}), "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    # The bridge bots sample deals and solve them double dummy: allow for a busy machine.
    code = await asyncio.wait_for(run_play(args, keys, screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert "Board 1 · dealer North (you) · vulnerable: none · auction" in out
    assert "  North     East      South     West" in out
    assert re.search(r"^  1\) Pass +2\) Bid 1♣ ", out, re.M)
    # Each call reads with its meaning in the bidders' system ("— 1NT opening: ...").
    assert re.search(r"^You bid 1NT — 1NT opening", out, re.M)
    assert re.search(
        r"^(East|South|West) (passes|bids \d(♣|♦|♥|♠|NT)|doubles)( \(alert\))?( — .+)?$",
        out,
        re.M,
    )
    assert re.search(r"^Contract: \d(♣|♦|♥|♠|NT)X{0,2} by (North|East|South|West)$", out, re.M)
    assert re.search(r"^(You|East|South|West) leads? (10|[2-9JQKA])[♣♦♥♠]$", out, re.M)
    assert re.search(r"^Dummy \((North|East|South|West)( \(you\))?\) goes down: ", out, re.M)
    assert re.search(
        r"^Board 1: \d(♣|♦|♥|♠|NT)X{0,2} by [NESW] (made|down) \d+, NS [+-]\d+", out, re.M
    )
    assert re.search(r"^Game finished\. Result: board 1: ", out, re.M)
    # The board's double-dummy table and par come after its result, before the game's.
    table = out.index("Double dummy, board 1 (tricks for each declarer):")
    assert out.index("\nBoard 1: ") < table < out.index("Game finished.")
    assert "\n           NT   ♠   ♥   ♦   ♣\n  North     7   5  10   5   1\n" in out
    # 2NTX would not outbid 5♣ by East-West: not a sacrifice (DDS lists 5♥X alone).
    assert "\nPar: NS -100 (5♥X by N/S, 10 tricks)\n" in out


async def test_a_bridge_claim_is_typed_out_of_turn(server: Server, tmp_path: Path) -> None:
    # Law 68A: the declarer may claim at any time in the play, also while a defender
    # is to lead: the out-of-turn prompt takes it, and the claim ends the board.
    keys = Keyboard(["7nt"], default="1", out_of_turn=["claim 13"])
    screen = Screen()
    deal = "N:AKQJ.AKQJ.AKQ.AK 65432.32.JT98.QJ 87.T98765.432.T9 T9.4.765.8765432"
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "bridge",
        "--options", json.dumps({"deal": deal}), "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, keys, screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert "Contract: 7NT by North" in out, out
    assert "Out of turn you may:" in out and "Out of turn [" in "".join(keys.prompts)
    assert re.search(r"^You claim 13 of the remaining 13$", out, re.M), out
    assert "Board 1: 7NT by N made 13, NS +1520" in out, out
    assert not re.search(r"^East leads", out, re.M)  # play stopped before the lead


async def test_play_a_tractor_round_against_bots(server: Server, tmp_path: Path) -> None:
    # One round: "draw all" draws until a declaration is possible; then the first menu
    # entry (draw, declare, bury, the first legal play) to the end of the round.
    keys, screen = Keyboard(["draw all"], default="1"), Screen()
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "tractor",
        "--options", '{"rounds": 1}', "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, keys, screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert "You sit at seat 0 (North)." in out
    assert re.search(
        r"^Round 1 · playing 2s · 100 cards to draw · next to draw: North \(you\)$", out, re.M
    )
    assert re.search(r"^  1\) Draw \(100 left\)$", out, re.M)
    assert "(type 'draw all' to draw on until you can declare something new)" in out
    assert "(drawing on until you can declare something new)" in out
    assert re.search(r"^You draw (10|[2-9JQKA])[♣♦♥♠]|^You draw [SB]J", out, re.M)
    assert re.search(
        r"^(You|East|South|West) declares? (no trump|[♣♦♥♠]) with |^Nobody declared", out, re.M
    )
    assert re.search(r"^Trump: (no trump|[♣♦♥♠]) \(playing 2s\) · landlord ", out, re.M)
    assert re.search(r"^Landlord: (North|East|South|West)", out, re.M)
    assert re.search(r"^Your hand \(\d+\): ", out, re.M)
    assert re.search(r"^(You|East|South|West) (buries|bury) 8 cards$", out, re.M)
    assert re.search(r"^(You|East|South|West) leads? ", out, re.M)
    assert re.search(r"^(You win|(East|South|West) wins) the trick", out, re.M)
    assert re.search(r"^Round 1 over: attackers \d+ points", out, re.M)
    assert re.search(r"^Game over: ((North/South|East/West) win|drawn) after 1 round", out, re.M)
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"
    # Each of our plays is in the log as seat 0's, and was narrated.
    ours = sum(1 for a in stored.actions if a.seat == 0 and a.action["type"] == "play")
    assert ours == len(re.findall(r"^You (lead|play|throw) ", out, re.M)) > 0


def _finisher(screen: Screen, typed: list[str]) -> Any:
    """A player that discards its first card once by typing it (on its first discard,
    even where it could already go out: the table's seed is random, and a first draw
    can complete the hand), then knocks or declares as soon as its menu offers it, and
    otherwise takes the first menu entry."""

    async def read(prompt: str) -> str:
        await asyncio.sleep(0)
        menu_at = max(i for i, line in enumerate(screen.lines) if line == "Your legal moves:")
        entries = re.findall(r"(\d+)\) (.+?)(?=\s{2,}\d+\)|$)", " ".join(screen.lines[menu_at:]))
        discards = [label for _, label in entries if label.startswith("Discard ")]
        if discards and not typed:
            card = discards[0].split()[1]
            typed.append(card)
            return card.replace("♠", "s").replace("♥", "h").replace("♣", "c").replace("♦", "d")
        for number, label in entries:
            if label.startswith(("Knock with", "Gin!", "Declare,")):
                return number
        return "1"

    return read


async def _play_rummy(server: Server, tmp_path: Path, options: dict[str, Any]) -> tuple[str, Any]:
    screen, typed = Screen(), list[str]()
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "rummy",
        "--options", json.dumps(options), "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, _finisher(screen, typed), screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert "You sit at seat 0 (Seat 1)." in out
    assert typed and re.search(rf"^You discard {re.escape(typed[0])}$", out, re.M), out
    assert re.search(r"^Stock: \d+ cards · discard pile: ", out, re.M)
    assert re.search(r"^  Seat 2: \d+ cards", out, re.M)
    assert re.search(r"^Your hand \(\d+\): ", out, re.M)
    assert re.search(r"^Your hand \(\d+\): .*deadwood · \d+", out, re.M)
    assert re.search(r"^  1\) Draw from the stock\n  2\) Take (10|[2-9JQKA])[♣♦♥♠] from", out, re.M)
    assert re.search(r"^(You draw .+|Seat 2 draws) from the stock$", out, re.M)
    assert re.search(r"^Deal over: ", out, re.M)
    assert re.search(r"^Game finished\. Result: ", out, re.M)
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"
    return out, stored


async def test_play_a_gin_rummy_deal_against_a_bot(server: Server, tmp_path: Path) -> None:
    out, _ = await _play_rummy(server, tmp_path, {"variant": "gin", "target": 0})
    assert re.search(r"^Gin rummy · deal 1 · (draw|discard)$", out, re.M)
    assert re.search(r"^Score: Seat 1 \(you\) 0  Seat 2 0 \(one deal\)$", out, re.M)
    assert re.search(
        r"^Deal over: (void deal|Seat [12] wins \d+ \((gin|knock|undercut)\))", out, re.M
    )


async def test_play_an_indian_rummy_deal_against_a_bot(server: Server, tmp_path: Path) -> None:
    out, _ = await _play_rummy(server, tmp_path, {"variant": "indian", "pool": 0})
    assert re.search(r"^Indian rummy · deal 1 · (draw|discard)$", out, re.M)
    assert re.search(r"^Wild card: .+ are wild$", out, re.M)
    assert re.search(r"^Points: Seat 1 \(you\) 0  Seat 2 0 \(one deal; fewest wins\)$", out, re.M)
    # The deal ends on a declaration (ours or the bot's) or on the bot dropping.
    assert re.search(r"^(You declare|Seat 2 declares), discarding |^Seat 2 drops ", out, re.M)


def _shedder(screen: Screen, typed: list[str]) -> Any:
    """A Crazy Eights player that types its plays: an eight as ``8h s`` (naming
    spades), another card by its spelling; a draw or a pass by the menu's first entry."""

    def plain(card: str) -> str:
        return card.replace("♠", "s").replace("♥", "h").replace("♣", "c").replace("♦", "d")

    async def read(prompt: str) -> str:
        await asyncio.sleep(0)
        menu_at = max(i for i, line in enumerate(screen.lines) if line == "Your legal moves:")
        entries = re.findall(r"(\d+)\) (.+?)(?=\s{2,}\d+\)|$)", " ".join(screen.lines[menu_at:]))
        for _, label in entries:
            if label.startswith("Play 8") and label.endswith("name spades"):
                typed.append(label)
                return f"{plain(label.split()[1].rstrip(','))} spades"
        for _, label in entries:
            if re.fullmatch(r"Play \S+", label):
                typed.append(label)
                return plain(label.split()[1])
        return "1"

    return read


async def test_play_a_crazy_eights_game_against_bots(server: Server, tmp_path: Path) -> None:
    screen, typed = Screen(), list[str]()
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "crazy_eights",
        "--options", '{"seats": 3, "hands": 2}', "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, _shedder(screen, typed), screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert re.search(r"^Crazy Eights · hand 1 of 2 · dealer ", out, re.M)
    assert re.search(r"^Pile: (10|[2-9JQKA])[♣♦♥♠] \(\d+\)  ·  stock: \d+ cards?$", out, re.M)
    assert re.search(r"^Match \w+ .*or play an eight$", out, re.M)
    assert re.search(r"^  Seat 2: \d+ cards?, \d+ penalty points?$", out, re.M)
    assert re.search(r"^Your hand: ", out, re.M)
    assert re.search(r"^Hand 2 · Seat 2 deals · starter ", out, re.M)
    # What we typed was played, as we typed it.
    assert typed
    for label in typed:
        said = "You play " + label.removeprefix("Play ").replace(", name", " and name")
        assert said in out, label
    assert re.search(r"^Seat [23] (plays|draws a card|passes)", out, re.M)
    assert re.search(r"^(You go|Seat [23] goes) out; penalty points |^Hand blocked", out, re.M)
    assert re.search(r"^Game finished\. Result: .* penalty points", out, re.M)
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"
    ours = [a.action for a in stored.actions if a.seat == 0 and a.action["type"] == "play"]
    assert len(ours) == len(typed)


async def test_end_a_tractor_match_by_typing_end(server: Server, tmp_path: Path) -> None:
    # docs/protocol.md, "Ending the match": the only human agrees (the bots agree by
    # policy), so typing 'end' at the first prompt ends the match at once.
    keys, screen = Keyboard(["end"], default="1"), Screen()
    args = play_args(
        "--url", f"ws://127.0.0.1:{server.port}/", "--game", "tractor",
        "--options", '{"rounds": 3}', "--state", str(tmp_path / "s.json"),
    )  # fmt: skip
    code = await asyncio.wait_for(run_play(args, keys, screen), 60)
    assert code == 0, screen.text
    out = screen.text
    assert re.search(r"^The players agree to end the match before the first round ended: "
                     r"the levels stand", out, re.M), out
    assert re.search(r"^Game over: drawn before the first round ended", out, re.M), out
    m = re.search(r"^Game id: (\d+)$", out, re.M)
    assert m is not None
    stored = await server.store.get_game(int(m.group(1)))
    assert stored is not None and stored.status == "finished"
    assert stored.actions[-1].action == {"type": "end_match"}
