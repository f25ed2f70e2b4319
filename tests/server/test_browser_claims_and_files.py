"""The bridge claim form and the file import form, clicked in a real headless browser
against a real local server (tests/server/browser_support.py): a declarer claims out
of turn while the defenders (two scripted websocket players) hold the lead; a PBN
file imported through the Replays tab is stored, listed and replayed; a PokerStars
hand run twice replays with both boards."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.app import Server
from tests.server.browser_support import NEEDS_CHROMIUM, Page, open_page

pytestmark = NEEDS_CHROMIUM

# North can make all thirteen tricks at notrump; East is on lead against 7NT.
DEAL = "N:AKQJ.AKQJ.AKQ.AK 65432.32.JT98.QJ 87.T98765.432.T9 T9.4.765.8765432"
PBN = Path(__file__).parent.parent / "rules" / "bridge" / "data" / "club_session.pbn"


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[tuple[Page, Server]]:
    async with open_page(tmp_path) as opened:
        yield opened


class Player:
    """A scripted player on one seat, over the websocket protocol."""

    def __init__(self, ws: ClientConnection, table: int, seat: int) -> None:
        self.ws, self.table, self.seat = ws, table, seat
        self.token = ""
        self.frame: dict[str, Any] = {}

    async def sit(self) -> None:
        await self.ws.send(json.dumps({"type": "hello", "protocol": 1, "name": f"p{self.seat}"}))
        await self.ws.send(json.dumps({"type": "join", "table": self.table, "seat": self.seat}))
        msg = await self.until(lambda m: m["type"] in ("joined", "error"))
        assert msg["type"] == "joined", msg
        self.token = msg["seat_token"]

    async def until(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """The next message ``pred`` accepts (frames are remembered on the way)."""
        async with asyncio.timeout(timeout):
            while True:
                msg = json.loads(await self.ws.recv())
                if msg["type"] in ("snapshot", "update") and msg.get("table") == self.table:
                    self.frame = msg
                if pred(msg):
                    return msg

    async def act_when(self, pred: Any, action: dict[str, Any]) -> None:
        """``action`` at the first frame ``pred`` accepts (the current one first: the
        frame after this player's last action, read before that action's ack)."""
        if not (self.frame and pred(self.frame)):
            await self.until(lambda m: m["type"] in ("snapshot", "update") and pred(m))
        await self.ws.send(json.dumps({"type": "act", "table": self.table, "seat_token": self.token,
                                       "version": self.frame["version"], "action": action}))
        reply = await self.until(lambda m: m["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply


def on_turn(seat: int, phase: str) -> Any:
    return lambda m: seat in (m.get("to_act") or []) and m["view"].get("phase") == phase and (
        m.get("legal"))


async def test_a_declarer_claims_out_of_turn_through_the_claim_form(
    page: tuple[Page, Server],
) -> None:
    p, server = page
    await p.js(f"""document.querySelector('#create-start').checked = false;
        document.querySelector('#create-game').value = 'bridge';
        document.querySelector('#create-options').value = {json.dumps(json.dumps(
            {"deal": DEAL, "claims": "defenders"}))};
        document.querySelector('#create button[type=submit]').click(); 1""")
    table = await p.wait("S.cur && S.cur.table")
    url = f"ws://127.0.0.1:{server.port}/"
    async with connect(url) as e, connect(url) as s, connect(url) as w:
        players = [Player(ws, table, seat) for ws, seat in ((e, 1), (s, 2), (w, 3))]
        for player in players:
            await player.sit()
        # Every seat taken, the game starts by itself.
        await p.wait("S.cur.status === 'live' && S.cur.legal && S.cur.legal.length > 0")
        await p.js("document.querySelector('#actions [data-call=\"7NT\"]').click(); 1")
        for player in players:
            await player.act_when(on_turn(player.seat, "auction"), {"type": "call", "call": "P"})
        # East holds the lead and does not play: North may still claim, out of turn.
        await p.wait("S.cur.view.phase === 'play' && !S.cur.pending"
                     " && document.querySelector('#claim-btn') !== null", 20)
        assert await p.js("S.cur.toAct") == [1]
        note = await p.js("document.querySelector('#turn-note').textContent")
        assert note.startswith("Waiting for East") and "out of turn" in note, note
        assert await p.js("document.querySelector('#claim-btn').disabled") is False
        await p.js("""const pick = document.querySelector('#claim-n'); pick.value = '13';
            document.querySelector('#claim-btn').click(); 1""")
        # The claim is on the table, North's cards faced, both defenders asked.
        shown = await p.wait("S.cur.view.phase === 'claim'"
                             " && document.querySelector('#board .claim')"
                             " && document.querySelector('#board .claim').textContent")
        assert "claims 13 of the remaining 13 tricks" in shown and "East, West" in shown, shown
        east, west = players[0], players[2]
        await east.act_when(on_turn(1, "claim"), {"type": "accept_claim"})
        await west.act_when(lambda m: m["to_act"] == [3], {"type": "accept_claim"})
        await p.wait("S.cur.status === 'finished'", 20)
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert "You claim 13 of the remaining 13" in log, log
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    stored = await server.store.get_game(int(table))
    assert stored is not None and stored.result is not None
    assert stored.result["summary"] == "board 1: 7NT by N, 13 tricks, NS +1520"


async def test_a_pbn_file_imported_through_the_form_is_listed_and_replays(
    page: tuple[Page, Server],
) -> None:
    p, server = page
    await p.js("document.querySelector('[data-tab=replays]').click(); 1")
    doc = await p.call("DOM.getDocument")
    node = await p.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector="#import-file")
    await p.call("DOM.setFileInputFiles", files=[str(PBN)], nodeId=node["nodeId"])
    await p.js("document.querySelector('#import-form button[type=submit]').click(); 1")
    status = await p.wait("/^imported|^not imported/.test("
                          "document.querySelector('#import-status').textContent)"
                          " && document.querySelector('#import-status').textContent")
    assert status == "imported 2 games (pbn)", status
    # The first game opens in the replay viewer, and both are listed.
    await p.wait(
        "S.replay && S.replay.steps.length > 0 && S.replay.steps.length === S.replay.total"
    )
    listed = await p.wait("[...document.querySelectorAll('#games li')].map((l) => l.textContent)"
                          ".filter((t) => t.includes('bridge · finished'))")
    assert len(listed) == 2, listed
    await p.js("stepReplay(S.replay.steps.length - 1); 1")
    board = await p.js("document.querySelector('#rp-board').textContent")
    assert "Board 7" in board and "3NT" in board, board
    stored = await server.store.get_game(int(await p.js("S.replay.gameId")))
    assert stored is not None and stored.status == "finished"
    assert stored.result is not None and "3NT by W, 10 tricks" in stored.result["summary"]


async def test_a_poker_hand_run_twice_imported_through_the_form_replays_both_boards(
    page: tuple[Page, Server],
) -> None:
    # The published PokerStars run-it-twice sample (tests/rules/poker/data).
    p, _ = page
    path = Path(__file__).parent.parent / "rules" / "poker" / "data" / "stars_run_twice.txt"
    await p.js("document.querySelector('[data-tab=replays]').click(); 1")
    doc = await p.call("DOM.getDocument")
    node = await p.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector="#import-file")
    await p.call("DOM.setFileInputFiles", files=[str(path)], nodeId=node["nodeId"])
    await p.js("document.querySelector('#import-form button[type=submit]').click(); 1")
    status = await p.wait("/^imported|^not imported/.test("
                          "document.querySelector('#import-status').textContent)"
                          " && document.querySelector('#import-status').textContent")
    assert status == "imported 1 game (pokerstars)", status
    await p.wait(
        "S.replay && S.replay.steps.length > 0 && S.replay.steps.length === S.replay.total"
    )
    await p.js("stepReplay(S.replay.steps.length - 1); 1")
    boards = await p.js("[...document.querySelectorAll('#rp-board .cards.board')].length")
    assert boards == 2
    second = await p.js("document.querySelector('#rp-board .board2').textContent")
    assert second and "6" in second, second
    said = await p.js("[...document.querySelectorAll('#rp-events li')].map((l) => l.textContent)")
    assert any("second run" in line for line in said), said
