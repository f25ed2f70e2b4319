"""One websocket connection: a reader loop and a bounded outbound buffer.

Frames sent during one turn of the event loop are written together, with one
transport write, at the end of that turn: a broadcast costs each connection one
write, not one per frame nor a task switch per frame.  A client whose socket is
backed up is served by a writer task that waits for it to drain; frames wait in
the bounded buffer meanwhile, and a client that reads too slowly for it to
drain is disconnected (4009) rather than buffered without limit.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import builders as p
from protocol.messages import CloseCode, ErrorCode, TableError
from server.clock import Clock
from server.jsontext import encode
from server.ratelimit import TokenBucket
from server.settings import Settings

log = logging.getLogger("cardtable.connection")
MAX_VIOLATIONS = 20
def text_frame_header(size: int) -> bytes:
    """The header of an unfragmented, unmasked text frame of ``size`` bytes
    (RFC 6455, 5.2): what a server's frame carries when no extension is in use."""
    if size < 126:
        return bytes((0x81, size))
    if size < 0x10000:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


class Attachment(Protocol):
    """A table a connection is at, as far as the connection is concerned."""

    async def detach(self, conn: Connection) -> None:
        """The connection ended: let the table know (its seat's grace period starts)."""


Handler = Callable[["Connection", str | bytes], Awaitable[None]]


class Connection:
    def __init__(
        self, ws: ServerConnection, settings: Settings, clock: Clock, handle: Handler
    ) -> None:
        self.ws = ws
        self.idle_timeout = settings.idle_timeout
        self._handle = handle  # answers one inbound message
        self.player_id: int | None = None
        self.name = ""
        self.token: str | None = None
        self.tables: set[Attachment] = set()
        self.bucket = TokenBucket(settings.rate, settings.burst, clock, settings.flood_limit)
        self.out_limit = settings.outbound_queue
        self.pending: list[bytes] = []  # frames not yet handed to the transport
        self.closing = False
        self.violations = 0  # malformed messages in a row
        self.hello_at = 0.0  # wall clock of the last hello that resumed a session
        self.upload: list[str] = []  # the parts of a file being imported (import_file)
        self._flush_soon = False  # a flush is scheduled for the end of this turn
        self._backed_up = False  # the writer task owns the pending frames
        self._wake = asyncio.Event()
        # Kept: asking asyncio for the running loop costs a getpid() call per frame.
        self._loop = asyncio.get_running_loop()
        self._writer: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._heard = 0.0  # loop time of the last frame received (or handled)
        self._idle: asyncio.TimerHandle | None = None

    def require_session(self) -> int:
        if self.player_id is None:
            raise TableError(ErrorCode.HELLO_REQUIRED, "send hello first")
        return self.player_id

    # sending

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a frame; a client too slow to drain its queue is disconnected."""
        self.send_text(encode(msg))

    def send_text(self, text: bytes) -> None:
        """Queue a frame already encoded as UTF-8 JSON (one encoding shared by many
        viewers); it goes out as a text frame."""
        if self.closing:
            return
        if len(self.pending) >= self.out_limit:
            log.warning("slow consumer (player %s): closing", self.player_id)
            self.close(CloseCode.SLOW_CONSUMER, "slow consumer", flush=False)
            return
        self.pending.append(text)
        if not self._flush_soon and not self._backed_up:
            self._flush_soon = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Write every pending frame with one transport write, unless the socket
        is backed up: then the writer task waits for it to drain."""
        self._flush_soon = False
        if not self.pending or self._backed_up:
            return
        transport = self.ws.transport
        if transport.get_write_buffer_size() > 0:
            self._backed_up = True
            self._wake.set()
            return
        frames, self.pending = self.pending, []
        protocol = self.ws.protocol
        if protocol.state is not State.OPEN:
            return  # closing: nothing more reaches the client (as ``ws.send`` would raise)
        try:
            if protocol.extensions or protocol.expect_continuation_frame or protocol.debug:
                for text in frames:
                    protocol.send_text(text)
                transport.writelines(protocol.data_to_send())
            else:
                # Framed here, byte for byte as the library would: with no
                # extension a whole text frame changes none of the protocol's
                # state, and its framing was a sizeable part of a send's Python.
                out = protocol.data_to_send()  # anything it queued goes first
                for text in frames:
                    out.append(text_frame_header(len(text)))
                    out.append(text)
                transport.writelines(out)
        except Exception:
            log.exception("writing to player %s failed: dropping the connection", self.player_id)
            transport.abort()

    async def _write(self) -> None:
        """Serve a backed-up client: send with flow control until it catches up."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.pending:
                    # One at a time: a frame stays counted against the bound until
                    # the socket has taken it.
                    await self.ws.send(self.pending[0], text=True)
                    if self.pending:  # not cleared by a close meanwhile
                        del self.pending[0]
                self._backed_up = False
        except ConnectionClosed:
            pass

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """Close soon (from any task), after the queued frames if ``flush``;
        gives up on a peer that will not close."""
        if self.closing:
            return
        self.closing = True
        if not flush:
            self.pending.clear()
        self._closer = asyncio.create_task(self._close(code, reason, flush))

    async def _close(self, code: int, reason: str, flush: bool) -> None:
        try:
            if flush:
                for _ in range(100):
                    if not self.pending and not self._backed_up:
                        break
                    await asyncio.sleep(0.01)
            if self._writer is not None:
                self._writer.cancel()
            await asyncio.wait_for(self.ws.close(code, reason), 2.0)
        except (TimeoutError, ConnectionClosed):
            pass
        finally:
            if self.ws.transport is not None and not self.ws.transport.is_closing():
                self.ws.transport.abort()

    # the reader

    def _check_idle(self) -> None:
        # One timer a connection, moved on only when it fires: a timeout scope
        # around every receive cost 3% of the server's CPU under load.
        left = self._heard + self.idle_timeout - self._loop.time()
        if left > 0:
            self._idle = self._loop.call_later(left, self._check_idle)
        else:
            self.close(CloseCode.IDLE_TIMEOUT, "idle timeout")

    async def run(self) -> None:
        self._writer = asyncio.create_task(self._write())
        self._heard = self._loop.time()
        self._idle = self._loop.call_later(self.idle_timeout, self._check_idle)
        try:
            while not self.closing:
                raw = await self.ws.recv()
                self._heard = self._loop.time()
                if not self.bucket.take():
                    if self.bucket.flooding:
                        self.close(CloseCode.FLOOD, "message flood")
                        break
                    if self.bucket.debt == 1:  # one notice per burst of refusals
                        # A push, not a reply: it answers no request in particular.
                        self.send(p.error(ErrorCode.RATE_LIMITED, "too many messages; slow down"))
                    continue
                await self._handle(self, raw)
                self._heard = self._loop.time()  # the server's own time is not silence
                if self.violations >= MAX_VIOLATIONS:
                    self.close(CloseCode.PROTOCOL_ERROR, "too many malformed messages")
        except ConnectionClosed:
            pass
        finally:
            if self._idle is not None:
                self._idle.cancel()
            self.closing = True
            if self._closer is not None:
                await self._closer
            elif self._writer is not None:
                self._writer.cancel()


@dataclass(frozen=True, slots=True)
class Reply:
    """Where the answer to one request goes: its connection, echoing its ``id``.

    Each request handled gets its own, so frames sent later (pushes, or the
    frames of other requests) never carry an id that is not theirs."""

    conn: Connection
    id: str | int | None = None

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.send(msg if self.id is None else {**msg, "id": self.id})

    def error(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        self.send(p.error(code, message, reason))
