"""Outbound frames: those sent in one turn of the event loop leave in one transport
write, in order (an action's update and its ack among them); a backed-up client
still gets every frame, in order, through the writer task that waits for its
socket to drain."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.connection import Connection
from tests.server.conftest import Client, Harness, act_first_legal, sit_and_start


async def server_side(harness: Harness, name: str) -> tuple[Client, Connection]:
    client = await harness.client(name)
    conn = next(c for c in harness.server.connections if c.name == name)
    return client, conn


async def receive(client: Client, n: int) -> list[dict[str, Any]]:
    return [json.loads(await asyncio.wait_for(client.ws.recv(), 5)) for _ in range(n)]


class CountingTransport:
    """Wraps the server side's transport, counting the writes that reach it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.written: list[bytes] = []  # what each write carried
        self.backed_up = False

    @property
    def writes(self) -> int:
        return len(self.written)

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))
        self.inner.write(data)

    def writelines(self, chunks: Any) -> None:
        chunks = list(chunks)
        self.written.append(b"".join(chunks))
        self.inner.writelines(chunks)

    def get_write_buffer_size(self) -> int:
        return 1 if self.backed_up else int(self.inner.get_write_buffer_size())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def test_frames_of_one_turn_leave_in_one_write_in_order(harness: Harness) -> None:
    client, conn = await server_side(harness, "ann")
    counting = CountingTransport(conn.ws.transport)
    conn.ws.transport = counting  # type: ignore[assignment]
    for n in range(5):
        conn.send({"type": "pong", "n": n})
    assert [m["n"] for m in await receive(client, 5)] == [0, 1, 2, 3, 4]
    assert counting.writes == 1


async def test_frames_logged_at_debug_level_go_through_the_protocol_library(
    harness: Harness,
) -> None:
    # With websockets' debug log on, the library frames each one (and logs it).
    client, conn = await server_side(harness, "dan")
    conn.ws.protocol.debug = True
    counting = CountingTransport(conn.ws.transport)
    conn.ws.transport = counting  # type: ignore[assignment]
    for n in range(3):
        conn.send({"type": "pong", "n": n})
    assert [m["n"] for m in await receive(client, 3)] == [0, 1, 2]
    assert counting.writes == 1


async def test_a_backed_up_client_gets_every_frame_in_order(harness: Harness) -> None:
    client, conn = await server_side(harness, "bob")
    counting = CountingTransport(conn.ws.transport)
    conn.ws.transport = counting  # type: ignore[assignment]
    counting.backed_up = True  # as if the client's socket were full
    for n in range(3):
        conn.send({"type": "pong", "n": n})
    await asyncio.sleep(0)
    conn.send({"type": "pong", "n": 3})  # while the writer task serves the client
    counting.backed_up = False
    assert [m["n"] for m in await receive(client, 4)] == [0, 1, 2, 3]
    # Caught up: the next turn's frames take the one-write path again.
    before = counting.writes
    conn.send({"type": "pong", "n": 4})
    conn.send({"type": "pong", "n": 5})
    assert [m["n"] for m in await receive(client, 2)] == [4, 5]
    assert counting.writes == before + 1


async def test_an_action_s_update_and_ack_leave_in_one_write(harness: Harness) -> None:
    client, conn = await server_side(harness, "cid")
    table, token, msg = await sit_and_start(client)
    while not msg["legal"]:
        msg = await client.expect("update", table=table)
    counting = CountingTransport(conn.ws.transport)
    conn.ws.transport = counting  # type: ignore[assignment]
    version = await act_first_legal(client, table, token, msg)
    carried = next(w for w in counting.written if b'"type":"ack"' in w)
    assert b'{"type":"update","table":%d,"version":%d,' % (table, version) in carried


def test_a_text_frame_is_framed_as_the_protocol_library_frames_it() -> None:
    # The connection writes its frames' headers itself (no extension is ever
    # negotiated); they must be byte for byte what websockets would send, at each
    # of RFC 6455's three length encodings and their edges.
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    from server.connection import text_frame_header

    protocol = ServerProtocol()
    protocol.state = State.OPEN
    for size in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        text = b"x" * size
        protocol.send_text(text)
        assert b"".join(protocol.data_to_send()) == text_frame_header(size) + text, size


def test_frames_encode_as_the_standard_library_reads_them() -> None:
    # The fast encoder refuses some values; the fallbacks must give the same JSON:
    # integer keys (as the standard library writes them), an integer wider than
    # 64 bits, and non-ASCII text left unescaped.
    from server.jsontext import encode

    for msg in (
        {"type": "update", "view": {"hand": ["AS", "10♥"]}},
        {"type": "scores", "by_seat": {0: 12, 3: -4}},
        {"type": "deal", "seed": 2**70},
    ):
        text = encode(msg)
        assert json.loads(text) == json.loads(json.dumps(msg))
        assert "♥".encode() in text or "♥" not in json.dumps(msg, ensure_ascii=False)
