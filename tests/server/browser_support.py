"""Driving the browser client in a real headless Chromium over the DevTools protocol
(no playwright), for the browser tests: the page, the fixture that serves it from an
in-process server on 127.0.0.1, and the create-table form.  Nothing leaves the machine.
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
from contextlib import asynccontextmanager
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
NEEDS_CHROMIUM = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


PAGE_MODULES = (
    'const { S } = await import("/state.js");'
    ' const { openReplay, stepReplay } = await import("/replay.js");'
    ' const { TR, tractorAutoStep } = await import("/game-tractor.js");'
    ' const { formOptions } = await import("/lobby.js");'
)


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
        """The value of ``expr`` evaluated in the page with what the tests use of its
        modules in scope (the page sets no globals): the same module instances the
        page runs, as a dynamic import of a module already loaded returns it."""
        wrapped = f"(async () => {{ {PAGE_MODULES} return eval({json.dumps(expr)}); }})()"
        r = await self.call(
            "Runtime.evaluate", expression=wrapped, returnByValue=True, awaitPromise=True
        )
        assert "exceptionDetails" not in r, r["exceptionDetails"]
        return r["result"].get("value")

    async def wait(self, expr: str, timeout: float = 30, *, loading: bool = False) -> Any:
        """``expr`` once truthy; with ``loading``, an error (the page's modules not yet
        there) counts as not yet."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                value = await self.js(expr)
            except AssertionError:
                if not loading:
                    raise
                value = None
            if value:
                return value
            await asyncio.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expr}")


@asynccontextmanager
async def open_page(tmp_path: Path) -> AsyncIterator[tuple[Page, Server]]:
    """A server with the client's page open in a fresh headless Chromium."""
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
                "S.connected && document.querySelector('#create-game').options.length > 0",
                loading=True,
            )
            yield p, server
    finally:
        proc.kill()
        proc.wait()
        await server.stop()


async def create(p: Page, game: str, options: dict[str, Any]) -> None:
    await p.js(f"""document.querySelector('#create-game').value = {json.dumps(game)};
        document.querySelector('#create-options').value = {json.dumps(json.dumps(options))};
        document.querySelector('#create button[type=submit]').click(); 1""")
    await p.wait(f"S.cur && S.cur.view && S.cur.view.game === {json.dumps(game)}")


