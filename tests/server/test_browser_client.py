"""The browser client in a real (headless) browser: a gin deal and a tractor round are
played to the end by clicking the page, against the server's bots.

Needs Chromium (``chromium``, ``chromium-browser`` or ``google-chrome``; the test
command installs Debian's ``chromium`` where apt is available); skipped without it.
Nothing leaves the machine: the page comes from an in-process server on 127.0.0.1 and
the browser is driven over the DevTools protocol (no playwright).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.app import Server
from server.lifeline import set_parent_death_signal
from server.settings import Settings

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


class Page:
    """One tab over the DevTools protocol: evaluate, wait, screenshot."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.n += 1
        await self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(await self.ws.recv())
            if msg.get("id") == self.n:
                assert "error" not in msg, msg
                return msg.get("result", {})

    async def js(self, expr: str) -> Any:
        r = await self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        assert "exceptionDetails" not in r, r["exceptionDetails"]
        return r["result"].get("value")

    async def wait(self, expr: str, timeout: float = 30) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = await self.js(expr)
            if value:
                return value
            await asyncio.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expr}")


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[tuple[Page, int]]:
    settings = Settings(
        host="127.0.0.1",
        port=0,
        db_url=f"sqlite:///{tmp_path}/t.db",
        bot_workers=0,
        bot_delay=0.02,
    )
    assert CHROMIUM is not None
    server = Server(settings)
    await server.start()
    proc = subprocess.Popen(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--remote-debugging-port=0",
            f"--user-data-dir={tmp_path}/profile",
            "--window-size=1400,1000",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=set_parent_death_signal,  # not left running if the test run is killed
    )
    try:
        port = None
        assert proc.stderr is not None
        for _ in range(200):
            line = proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        assert port, "Chromium gave no DevTools port"
        tabs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
        url = next(t["webSocketDebuggerUrl"] for t in tabs if t["type"] == "page")
        async with connect(url, max_size=None) as ws:
            p = Page(ws)
            await p.call("Runtime.enable")
            await p.call("Page.navigate", url=f"http://127.0.0.1:{server.port}/")
            await p.wait(
                "typeof S !== 'undefined' && S.connected"
                " && document.querySelector('#create-game').options.length > 0"
            )
            yield p, server.port
    finally:
        proc.kill()
        proc.wait()
        await server.stop()


async def create(p: Page, game: str, options: dict[str, Any]) -> None:
    await p.js(f"""document.querySelector('#create-game').value = {json.dumps(game)};
        document.querySelector('#create-options').value = {json.dumps(json.dumps(options))};
        document.querySelector('#create button[type=submit]').click(); 1""")
    await p.wait(f"S.cur && S.cur.view && S.cur.view.game === {json.dumps(game)}")


async def play_out(p: Page, step: str, limit: float = 240) -> list[str]:
    """Click ``step`` (a JS expression naming what it did) until the game ends."""
    done: list[str] = []
    end = time.monotonic() + limit
    while time.monotonic() < end:
        errors = await p.js(
            "[...document.querySelectorAll('#errors .error')].map((e) => e.textContent)"
        )
        assert not errors, errors
        if await p.js("S.cur.status") in ("finished", "abandoned"):
            return done
        what = await p.js(step)
        assert not what.startswith("???"), what
        if what != "wait":
            done.append(what)
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game did not end; last actions {done[-10:]}")


RUMMY_STEP = r"""(() => {
  const cur = S.cur, legal = cur.legal || [];
  if (cur.status !== "live" || !legal.length || cur.pending) return "wait";
  const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
  const types = legal.map((a) => a.type);
  if (types.includes("draw")) {
    const pile = q("#rm-pile.legal");
    if (pile && legal.length % 2) { pile.click(); return "take"; }
    q("#rm-stock").click(); return "stock";
  }
  const fin = qa("#actions button[data-action=declare], #actions button[data-action=knock]");
  if (fin.length) { fin[0].click(); return "finish"; }
  const lay = qa("#actions button[data-action=layoff], #actions button[data-action=done]");
  if (lay.length) { lay[0].click(); return lay[0].dataset.action; }
  if (types.includes("discard")) {
    const dead = qa("#hand .rm-group.dead button.card.legal");
    const c = dead[0] || qa("#hand button.card.legal")[0];
    c.click(); return "discard";
  }
  return "??? " + types.join(",");
})()"""


async def test_a_gin_deal_is_played_by_clicking(page: tuple[Page, int]) -> None:
    p, _ = page
    await create(p, "rummy", {"variant": "gin", "target": 0})
    await p.wait("document.querySelector('#rm-stock') !== null")
    assert await p.js("document.querySelectorAll('#hand button.card, #hand .card').length") >= 10
    done = await play_out(p, RUMMY_STEP)
    assert "discard" in done and ("stock" in done or "take" in done)
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert any("from the stock" in line or "from the discard pile" in line for line in log)
    assert any(line.startswith("Deal over:") for line in log)


TRACTOR_STEP = r"""(() => {
  const cur = S.cur, legal = cur.legal || [], v = cur.view;
  if (cur.status !== "live" || !legal.length || cur.pending) return "wait";
  const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
  const types = legal.map((a) => a.type);
  if (v.phase === "draw") {
    const pass = q("#actions button[data-action=pass]");
    if (pass) { pass.click(); return "pass"; }
    if (!TR.auto) { q("#draw-all").click(); return "draw all"; }
    // "draw all" waits while a declaration is on offer: draw on by hand
    const draw = q("#actions button[data-action=draw]");
    if (draw && tractorAutoStep(legal, v) === "stop") { draw.click(); return "draw"; }
    return "wait";
  }
  if (types.includes("confirm")) {
    const which = window.__tookBack ? "confirm" : "takeback"; // take one play back, then keep
    const b = q(`#actions button[data-action=${which}]`);
    window.__tookBack = true; b.click(); return which;
  }
  if (types.includes("bury")) {
    if (TR.picked.length < legal[0].cards.length) {
      qa("#hand button.card:not(.picked)").pop().click(); return "pick";
    }
    q("#play-picked").click(); return "bury";
  }
  if (types.includes("call")) { qa(".friend-picker button").pop().click(); return "call"; }
  if (types.includes("play")) {
    const trick = v.trick || [];
    if (TR.picked.length) { q("#play-picked").click(); return "play picked"; }
    if (trick.length && trick[0].cards.length > 1) { q(".quick-play").click(); return "quick"; }
    const card = qa("#hand button.card.legal")[0] || qa("#hand button.card")[0];
    card.click(); return "pick";
  }
  if (types.includes("next_round")) {
    q("#actions button[data-action=next_round]").click(); return "next";
  }
  return "??? " + types.join(",");
})()"""


async def test_a_tractor_round_is_played_by_clicking(page: tuple[Page, int]) -> None:
    p, _ = page
    await create(p, "tractor", {"rounds": 1, "takeback_allowed": True})
    done = await play_out(p, TRACTOR_STEP, limit=400)
    assert "draw all" in done and "play picked" in done
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert any(line.startswith("Trump: ") for line in log)
    assert any("wins the trick" in line or "win the trick" in line for line in log)
    assert any(line.startswith("Round 1 over:") for line in log)
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    # The replay of the game uses the same table layout.
    table = await p.js("S.cur.table")
    await p.js(f"openReplay({table}, 'all'); 1")
    await p.wait(
        "S.replay && S.replay.steps.length > 0 && S.replay.steps.length === S.replay.total"
    )
    await p.js("stepReplay(Math.floor(S.replay.steps.length * 0.7)); 1")
    assert await p.js("document.querySelectorAll('#rp-board .felt.tractor .tr-hand').length") == 4
