"""Fixtures: databases (SQLite file and the real PostgreSQL), an in-process server on
an ephemeral port with a fake clock, and scripted websocket clients."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import ClientConnection, connect

from protocol.messages import server_adapter
from server.app import Server
from server.clock import FakeClock
from server.persistence.database import normalize_url
from server.settings import Settings


def worker_database(url: str) -> str:
    """``url`` itself, or under pytest-xdist a database of this worker's own beside
    it: tests reset the schema they use, so two workers must never share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    u = make_url(url)
    return u.set(database=f"{u.database}_{worker}").render_as_string(hide_password=False)


PG_URL = worker_database(os.environ.get(
    "CARDTABLE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/cardtable_test"
))
_created: set[str] = set()


async def create_database(url: str, *, fresh: bool = False) -> None:
    """Create ``url``'s database unless it exists (checked once per test process),
    or with ``fresh`` drop it first, so it starts empty."""
    u = make_url(normalize_url(url))
    if u.database in _created and not fresh:
        return
    admin = create_async_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        if fresh:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))
        found = await conn.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": u.database}
        )
        if found.first() is None:
            await conn.execute(text(f'CREATE DATABASE "{u.database}"'))
    await admin.dispose()
    _created.add(str(u.database))


async def reset_postgres(url: str) -> None:
    await create_database(url)
    engine = create_async_engine(normalize_url(url))
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """Every persistence test runs against both backends; PostgreSQL really connects."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/cardtable.db"
    await reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/cardtable.db"


def load_stored(url: str, game_id: int) -> Any:
    """A stored game read back from the database (for tests outside an event loop)."""
    from server.persistence.store import Store

    async def load() -> Any:
        store = await Store.open(url)
        try:
            return await store.get_game(game_id)
        finally:
            await store.close()

    return asyncio.run(load())


def make_settings(db_url: str, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "db_url": db_url,
        "bot_delay": 0.0,
        "bot_workers": 0,
        "grace": 30.0,
    }
    base.update(overrides)
    return Settings(**base)


class Client:
    """A scripted websocket client that checks every frame against the protocol."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.inbox: list[dict[str, Any]] = []
        self.frames: list[str] = []
        self._next_id = 0
        self.token: str | None = None
        self.seat_tokens: dict[int, str] = {}

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def _read(self, timeout: float) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(raw, str)
        self.frames.append(raw)
        msg = json.loads(raw)
        server_adapter.validate_python(msg)  # every frame matches the documented models
        if msg["type"] == "joined":
            self.seat_tokens[msg["table"]] = msg["seat_token"]
        return msg  # type: ignore[no-any-return]

    async def expect(self, kind: str, timeout: float = 5.0, **match: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (matching ``match``), keeping others."""
        for i, msg in enumerate(self.inbox):
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return self.inbox.pop(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self._read(max(0.01, deadline - loop.time()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg
            self.inbox.append(msg)

    async def request(self, msg: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        """Send with a fresh id; return the reply (or error) carrying that id."""
        self._next_id += 1
        rid = f"r{self._next_id}"
        await self.send({**msg, "id": rid})
        for i, m in enumerate(self.inbox):
            if m.get("id") == rid:
                return self.inbox.pop(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            m = await self._read(max(0.01, deadline - loop.time()))
            if m.get("id") == rid:
                return m
            self.inbox.append(m)

    async def hello(self, name: str = "tester", token: str | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name}
        if token:
            msg["token"] = token
        reply = await self.request(msg)
        assert reply["type"] == "welcome", reply
        self.token = reply["token"]
        return reply

    async def close(self) -> None:
        await self.ws.close()


class Harness:
    """An in-process server plus helpers to open clients against it."""

    def __init__(self, server: Server, clock: FakeClock) -> None:
        self.server = server
        self.clock = clock
        self.clients: list[Client] = []

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/"

    async def client(self, name: str = "tester", hello: bool = True, **kw: Any) -> Client:
        ws = await connect(self.url, **kw)
        c = Client(ws)
        self.clients.append(c)
        if hello:
            await c.hello(name)
        return c


async def start_harness(settings: Settings) -> Harness:
    clock = FakeClock()
    server = Server(settings, clock=clock)
    await server.start()
    return Harness(server, clock)


@pytest.fixture
async def harness(sqlite_url: str) -> AsyncIterator[Harness]:
    h = await start_harness(make_settings(sqlite_url))
    yield h
    for c in h.clients:
        await c.ws.close()
    await h.server.stop()


async def act_first_legal(c: Client, table: int, token: str, msg: dict[str, Any]) -> int:
    """Play the first legal action offered in ``msg``; the version it became."""
    reply = await c.request(
        {
            "type": "act",
            "table": table,
            "seat_token": token,
            "version": msg["version"],
            "action": msg["legal"][0],
        }
    )
    assert reply["type"] == "ack", reply
    assert reply["version"] == msg["version"] + 1
    return int(reply["version"])


async def sit_and_start(client: Client, **options: Any) -> tuple[int, str, dict[str, Any]]:
    """Create a whist table, sit at seat 0, let bots fill the rest, start."""
    created = await client.request(
        {"type": "create_table", "game": "whist", "options": options, "seat": 0, "start": True}
    )
    assert created["type"] == "table_created", created
    table = created["table"]["table"]
    joined = await client.expect("joined", table=table)
    snap = await client.expect("snapshot", table=table)
    while snap["status"] != "live":
        snap = await client.expect("snapshot", table=table)
    return table, joined["seat_token"], snap


async def play_out(client: Client, table: int, token: str, first: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal action on every turn until the game is over."""
    msg = first
    while msg["status"] == "live":
        if msg["legal"]:
            await act_first_legal(client, table, token, msg)
        msg = await client.expect("update", table=table, timeout=10)
    return msg
