"""Requests read without the protocol library's parser (server/inbound.py) arrive
exactly as the library delivers them: the same messages in the same order, and
every frame it must judge (control frames, fragments, masking, reserved bits,
sizes, UTF-8) still judged by it, with its close codes (RFC 6455, 5.1–5.6, 7.4)."""

from __future__ import annotations

import asyncio
import os
import random
import struct

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame
from websockets.protocol import SERVER, Protocol, State

from server.inbound import RequestConnection, take_text_frames

MAX_SIZE = 4096


def frame(opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True,
          rsv: int = 0, long_length: bool = False) -> bytes:
    """A client's frame, built by hand so that it can also be a wrong one."""
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    size, mask_bit = len(payload), 0x80 if masked else 0
    if long_length:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", size)
    elif size < 126:
        head += bytes([mask_bit | size])
    else:
        head += bytes([mask_bit | 126]) + struct.pack("!H", size)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# Every stream ends with the client's close, so that what the server does with it
# is all in, and the test waits for nothing.
CLOSE = b"\x88\x82\x00\x00\x00\x00\x03\xe8"  # masked (zero mask) close 1000


def text(payload: str, **kw: object) -> bytes:
    return frame(1, payload.encode(), **kw)  # type: ignore[arg-type]


def library_frames(data: bytes) -> list[Frame]:
    protocol = Protocol(SERVER, state=State.OPEN, max_size=MAX_SIZE)
    protocol.receive_data(data)
    return [f for f in protocol.events_received() if isinstance(f, Frame)]


def test_whole_text_frames_are_read_as_the_library_reads_them() -> None:
    rng = random.Random(3)
    for _ in range(300):
        payloads = ["".join(rng.choice("ab♠é{}\":,1") for _ in range(rng.choice(
            [0, 1, 125, 126, 300, MAX_SIZE // 4]))) for _ in range(rng.randint(1, 4))]
        data = b"".join(text(p) for p in payloads)
        taken, used = take_text_frames(data, MAX_SIZE)
        assert used == len(data)
        assert taken == [f.data for f in library_frames(data)]
        assert [t.decode() for t in taken] == payloads


@pytest.mark.parametrize(
    "rest",
    [
        frame(9, b"ping"),  # a control frame
        text("part", fin=False),  # the first of a fragmented message
        text("unmasked", masked=False),  # a client's frame must be masked
        text("rsv", rsv=4),  # a reserved bit with no extension
        frame(2, b"binary"),  # binary: the server's reply to it is its own
        text("long", long_length=True),  # a 64-bit length
        text("x" * (MAX_SIZE + 1)),  # too big
        text("cut")[:-1],  # cut by the read
        text("y" * 200)[:3],  # cut inside its 16-bit length
    ],
    ids=["ping", "fragment", "unmasked", "reserved-bit", "binary", "64-bit-length",
         "too-big", "cut", "cut-length"],
)
def test_anything_else_is_left_to_the_library_from_its_first_byte(rest: bytes) -> None:
    head = text('{"type":"ping"}') + text("second")
    taken, used = take_text_frames(head + rest, MAX_SIZE)
    assert taken == [b'{"type":"ping"}', b"second"]
    assert used == len(head)


# A server whose handler echoes every message with its kind; what a client sees
# back (the echoes, then the close code) must not depend on the connection class.
async def echo(ws: ServerConnection) -> None:
    try:
        async for msg in ws:
            await ws.send(("T:" + msg) if isinstance(msg, str) else ("B:" + msg.hex()))
    except ConnectionClosed:
        pass


async def seen_by_client(cls: type[ServerConnection], stream: bytes, cuts: list[int]) -> tuple:
    async with serve(echo, "127.0.0.1", 0, create_connection=cls, compression=None,
                     max_size=MAX_SIZE, ping_interval=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/", compression=None,
                           ping_interval=None, max_size=2**20) as ws:
            transport = ws.transport
            start = 0
            for cut in [*cuts, len(stream)]:
                if transport.is_closing():
                    break  # the server has closed: the rest is never read
                transport.write(stream[start:cut])
                start = cut
                await asyncio.sleep(0.002)  # separate reads on the server
            got: list[str | bytes] = []
            code: int | str | None
            try:
                while True:
                    got.append(await asyncio.wait_for(ws.recv(), 2))
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            except TimeoutError:
                code = "open"
            return got, code


def random_stream(rng: random.Random) -> bytes:
    parts: list[bytes] = []
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        if kind < 0.55:
            n = rng.randint(0, 10**6)
            parts.append(text(f'{{"type":"act","n":{n}}}' + " " * rng.choice([0, 130, 900])))
        elif kind < 0.65:
            parts.append(frame(9, b"p"))
        elif kind < 0.75:
            parts.append(text("fr", fin=False) + frame(0, b"ag") + frame(0, b"ment"))
        elif kind < 0.80:
            parts.append(frame(2, bytes(rng.randrange(256) for _ in range(9))))
        elif kind < 0.85:
            parts.append(frame(1, b"\xff\xfe bad utf-8"))
        elif kind < 0.90:
            parts.append(text("big" * MAX_SIZE))
        elif kind < 0.95:
            parts.append(text("not masked", masked=False))
        else:
            parts.append(frame(8, struct.pack("!H", 1001) + b"bye"))
    return b"".join(parts) + CLOSE


async def test_clients_see_the_same_server_with_either_reader() -> None:
    rng = random.Random(11)
    for _ in range(40):
        stream = random_stream(rng)
        cuts = sorted(rng.sample(range(1, len(stream)), min(len(stream) - 1,
                                                            rng.randint(0, 4))))
        ours = await seen_by_client(RequestConnection, stream, cuts)
        theirs = await seen_by_client(ServerConnection, stream, cuts)
        assert ours == theirs, (stream, cuts)


async def test_a_request_split_across_reads_arrives_whole() -> None:
    msg = '{"type":"hello","name":"' + "n" * 300 + '"}'
    data = text(msg)
    async with serve(echo, "127.0.0.1", 0, create_connection=RequestConnection,
                     compression=None, max_size=MAX_SIZE) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
            for start, end in [(0, 1), (1, 3), (3, 9), (9, 100), (100, len(data))]:
                ws.transport.write(data[start:end])
                await asyncio.sleep(0.002)
            assert await asyncio.wait_for(ws.recv(), 10) == "T:" + msg
