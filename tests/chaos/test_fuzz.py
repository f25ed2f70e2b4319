"""Protocol fuzzing: hostile frames on many connections while an honest player plays.

The server runs on its own thread and event loop; hypothesis drives four
connections with frames built from the protocol's own message types, filled with
hostile values (huge numbers, lone surrogates, deep nesting, wrong types, binary
frames).  Every frame must be answered by a reply that matches the documented
models (an ``error`` with a documented code, or the message's answer) or end its
connection with a documented close code; the server must log no traceback; and
the honest player, playing a whole game meanwhile, must finish it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from protocol.messages import CloseCode, ErrorCode, server_adapter
from protocol.requests import CLIENT_TYPES
from server.app import Server
from tests.server.conftest import make_settings

# A longer run: CARDTABLE_FUZZ_EXAMPLES=5000.
EXAMPLES = int(os.environ.get("CARDTABLE_FUZZ_EXAMPLES", "300"))
CONNECTIONS = 4


class Failures(logging.Handler):
    """Collects every record that carries a traceback or is an error."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class ServerThread:
    """A real server on 127.0.0.1 in a thread of its own."""

    def __init__(self, db_url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = Server(
            make_settings(db_url, rate=1e6, burst=10**6, bot_delay=0.0, bot_workers=0)
        )
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(30)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Failures]]:
    failures = Failures()
    root = logging.getLogger()
    root.addHandler(failures)
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    try:
        with ServerThread(f"sqlite:///{db}") as srv:
            yield srv, failures
    finally:
        root.removeHandler(failures)


# hostile values

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["\ud800", "x\udfffy", "", "A♠", "whist", "poker", "all", "spectator"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(
    [
        "table",
        "seat",
        "game",
        "options",
        "game_id",
        "viewer",
        "start",
        "limit",
        "version",
        "action",
        "seat_token",
        "token",
        "protocol",
        "name",
        "since",
        "turn_seconds",
        "time_bank",
        "bot",
        "status",
        "analysis",
    ]
)
MESSAGES = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.one_of(st.sampled_from(sorted(CLIENT_TYPES)), VALUES),
    st.dictionaries(FIELDS, VALUES, max_size=4),
)
RAW = st.one_of(
    st.text(max_size=50),
    st.binary(max_size=50),
    st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n),
    st.just('{"type": "ping", "a": ' + "{" * 100 + "}" * 100 + "}"),
)


def _open(url: str) -> ClientConnection:
    return connect(url, open_timeout=10, max_size=2**22).__enter__()


def _answer(ws: ClientConnection, rid: int | None) -> dict[str, Any] | None:
    """The reply to the frame just sent (pushes skipped); None if the server closed
    the connection, which must then carry a documented code."""
    while True:
        try:
            raw = ws.recv(timeout=10)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            assert code in set(CloseCode), f"undocumented close {code}"
            return None
        assert isinstance(raw, str), "the server sends text frames"
        msg = json.loads(raw)
        server_adapter.validate_python(msg)
        if msg["type"] == "error":
            assert msg["code"] in set(ErrorCode)
        if rid is None and msg["type"] == "error" and "id" not in msg:
            return msg  # the refusal of a frame that could not carry an id
        if rid is not None and msg.get("id") == rid:
            return msg


class Fuzzer:
    def __init__(self, url: str) -> None:
        self.url = url
        self.conns: list[ClientConnection | None] = [None] * CONNECTIONS
        self.next_id = 0
        self.done: dict[str, Any] = {}
        self.honest = threading.Thread(target=_play_honestly, args=(url, self.done), daemon=True)

    def conn(self, i: int, hello: bool) -> ClientConnection:
        ws = self.conns[i]
        if ws is None:
            ws = self.conns[i] = _open(self.url)
            if hello:
                self.next_id += 1
                ws.send(json.dumps({"type": "hello", "protocol": 1, "id": self.next_id}))
                _answer(ws, self.next_id)
        return ws

    def send(self, i: int, hello: bool, frame: Any) -> None:
        ws = self.conn(i, hello)
        rid: int | None = None
        if isinstance(frame, dict):
            self.next_id += 1
            rid = frame["id"] = self.next_id
            payload: str | bytes = json.dumps(frame)
        else:
            payload = frame
        try:
            ws.send(payload)
            reply = _answer(ws, rid if isinstance(frame, dict) else None)
        except ConnectionClosed:
            reply = None
        if reply is None:
            self.conns[i] = None  # closed with a documented code: open a new one


def _play_honestly(url: str, done: dict[str, Any]) -> None:
    """A player who sits at seat 0 of a whist table and plays the first legal card."""
    with _open(url) as ws:

        def ask(msg: dict[str, Any]) -> None:
            ws.send(json.dumps(msg))

        ask({"type": "hello", "protocol": 1, "name": "honest"})
        # Several deals, played at a human's pace, so the game runs through the fuzzing.
        ask(
            {
                "type": "create_table",
                "game": "whist",
                "options": {"deals": 4},
                "seat": 0,
                "start": True,
            }
        )
        token = None
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "joined":
                token = msg["seat_token"]
            if msg["type"] in ("snapshot", "update"):
                if msg["status"] == "finished":
                    done["result"] = msg["view"].get("result")
                    return
                if msg["legal"] and token:
                    time.sleep(0.1)
                    ask(
                        {
                            "type": "act",
                            "table": msg["table"],
                            "seat_token": token,
                            "version": msg["version"],
                            "action": msg["legal"][0],
                        }
                    )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    which=st.integers(0, CONNECTIONS - 1),
    hello=st.booleans(),
    frame=st.one_of(MESSAGES, RAW),
)
def test_hostile_frames_are_answered(
    live: tuple[ServerThread, Failures], fuzzer: Fuzzer, which: int, hello: bool, frame: Any
) -> None:
    fuzzer.send(which, hello, frame)


@pytest.fixture(scope="module")
def fuzzer(live: tuple[ServerThread, Failures]) -> Iterator[Fuzzer]:
    srv, _ = live
    f = Fuzzer(srv.url)
    f.honest.start()
    yield f
    for ws in f.conns:
        if ws is not None:
            ws.close()


def test_the_honest_game_finished_and_nothing_was_logged_as_a_failure(
    live: tuple[ServerThread, Failures], fuzzer: Fuzzer
) -> None:
    _, failures = live
    fuzzer.honest.join(120)
    assert "result" in fuzzer.done, "the honest player's game did not finish"
    tracebacks = [r for r in failures.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks][:5]
