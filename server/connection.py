"""One websocket connection: a reader loop, a bounded outbound queue and its writer.

Outbound frames go through a bounded queue drained by one writer task; when a
client reads too slowly for the queue to drain it is disconnected (4009) rather
than buffered without limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.protocol import CloseCode, ErrorCode
from server.ratelimit import TokenBucket

if TYPE_CHECKING:
    from server.app import Server
    from server.table import Table

log = logging.getLogger("cardtable.connection")
MAX_VIOLATIONS = 20
# One encoder for every frame: ``json.dumps`` with options builds a new one per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def encode(msg: dict[str, Any]) -> str:
    """The text of an outbound frame (compact JSON)."""
    return _ENCODER.encode(msg)


class Connection:
    def __init__(self, server: Server, ws: ServerConnection) -> None:
        s = server.settings
        self.server = server
        self.ws = ws
        self.player_id: int | None = None
        self.name = ""
        self.token: str | None = None
        self.tables: set[Table] = set()
        self.watch_lobby = False
        self.current_id: Any = None
        self.bucket = TokenBucket(s.rate, s.burst, server.clock, s.flood_limit)
        self.out: asyncio.Queue[str] = asyncio.Queue(s.outbound_queue)
        self.closing = False
        self.violations = 0  # malformed messages in a row
        self._writer: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None

    def require_session(self) -> int:
        from server.table import TableError

        if self.player_id is None:
            raise TableError(ErrorCode.HELLO_REQUIRED, "send hello first")
        return self.player_id

    # sending

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a frame; a client too slow to drain its queue is disconnected."""
        self.send_text(encode(msg))

    def send_text(self, text: str) -> None:
        """Queue a frame already encoded (one encoding shared by many viewers)."""
        if self.closing:
            return
        try:
            self.out.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("slow consumer (player %s): closing", self.player_id)
            self.close(CloseCode.SLOW_CONSUMER, "slow consumer", flush=False)

    def reply(self, msg: dict[str, Any]) -> None:
        """Send the answer to the request being handled (echoing its ``id``)."""
        if self.current_id is not None:
            msg = {**msg, "id": self.current_id}
        self.send(msg)

    def error(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code.value, "message": message}
        if reason is not None:
            msg["reason"] = reason
        self.reply(msg)

    async def _write(self) -> None:
        try:
            while True:
                text = await self.out.get()
                await self.ws.send(text)
        except ConnectionClosed:
            pass

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """Close soon (from any task), after the queued frames if ``flush``;
        gives up on a peer that will not close."""
        if self.closing:
            return
        self.closing = True
        self._closer = asyncio.create_task(self._close(code, reason, flush))

    async def _close(self, code: int, reason: str, flush: bool) -> None:
        try:
            if flush:
                for _ in range(100):
                    if self.out.empty():
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

    async def run(self) -> None:
        self._writer = asyncio.create_task(self._write())
        s = self.server.settings
        try:
            while not self.closing:
                try:
                    raw = await asyncio.wait_for(self.ws.recv(), s.idle_timeout)
                except TimeoutError:
                    self.close(CloseCode.IDLE_TIMEOUT, "idle timeout")
                    break
                if not self.bucket.take():
                    if self.bucket.flooding:
                        self.close(CloseCode.FLOOD, "message flood")
                        break
                    if self.bucket.debt == 1:  # one notice per burst of refusals
                        self.error(ErrorCode.RATE_LIMITED, "too many messages; slow down")
                    continue
                await self.server.handle(self, raw)
                if self.violations >= MAX_VIOLATIONS:
                    self.close(CloseCode.PROTOCOL_ERROR, "too many malformed messages")
        except ConnectionClosed:
            pass
        finally:
            self.closing = True
            if self._closer is not None:
                await self._closer
            elif self._writer is not None:
                self._writer.cancel()
