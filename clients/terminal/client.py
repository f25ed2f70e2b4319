"""The terminal player's client: a plain protocol client (it could run against a
remote server).  Hello, create or join a table, then print what happens and prompt
for a move whenever the server sends ``legal`` actions (the seat's side of that is
seat.py; this module is the connection around it).  Input is read on a daemon
thread (see console.py) so server pushes keep arriving while the prompt waits.  The
session (token, table, seat token, last version) is kept in a state file, so
``--resume`` can re-attach after a server restart, and a dropped connection is retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Generator
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from clients.terminal.seat import Quit, Reader, SeatClient, SetupFailed, SetupRetry, Writer
from clients.terminal.session import DEFAULT_STATE, options_text
from protocol.messages import PROTOCOL_VERSION, CloseCode

__all__ = ["PlayClient", "Reader", "Writer"]

KEEPALIVE = 240.0  # seconds between pings while waiting (the server closes idle sockets)
FINAL_WAIT = 2.0  # seconds to wait for the table's final status after the last update
# Close codes after which reconnecting would only repeat the failure.
NO_RETRY = {
    CloseCode.PROTOCOL_ERROR,
    CloseCode.UNSUPPORTED_VERSION,
    CloseCode.FLOOD,
    CloseCode.REPLACED,
}


RETRY_PAUSE = 1.0  # seconds between requests a cluster refused for now (node_unavailable)


class PlayClient(SeatClient):
    """One terminal player's client: the connection around its seat."""

    # the connection

    async def run(self) -> int:
        # websockets' own reconnect loop: each pass of the ``async for`` is one
        # connection; a drop continues the loop, which connects again at once and
        # then backs off (``_delays``) while ``_retryable`` allows.
        self.retry_until: float | None = None  # None: the first connection is not retried
        first = True
        try:
            async for ws in connect(
                self.opts.url,
                open_timeout=5,
                max_size=2**22,
                process_exception=self._retryable,
                reconnect_delays=self._delays,
            ):
                try:
                    return await self._session(ws, first)
                except SetupRetry:
                    if not await self._pause_before_retry():
                        return 1
                    continue  # the same request again (``first`` unchanged), on a new connection
                except SetupFailed:
                    return 1
                except Quit:
                    self.write(f"Left the client. Come back with: {self._resume_hint()}")
                    return 0
                except EOFError:
                    self.write(f"End of input. Come back with: {self._resume_hint()}")
                    return 1
                except ConnectionClosed as exc:
                    code = exc.rcvd.code if exc.rcvd is not None else None
                    reason = exc.rcvd.reason if exc.rcvd is not None else "no close frame"
                    self.write(f"Connection lost ({code or 'abnormal'}: {reason or 'no reason'}).")
                    if code in NO_RETRY or self.session.table is None:
                        return 1
                finally:
                    # the loop would close it only when it resumes; a return does not
                    await ws.close()
                first = False
                # An act sent before the drop may never be acknowledged: the resume's
                # snapshot says whether it landed (a repeat is refused as stale).
                self.awaiting_ack = False
                self.reshow = True
                self._redraw()
                self.write(f"Reconnecting to {self.opts.url} (up to {self.opts.retry:g}s)...")
                self.retry_until = time.monotonic() + self.opts.retry
        except InvalidURI as exc:
            self.write(f"error: {exc}")
            return 2
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            if first:
                self.write(f"error: cannot reach a cardtable server at {self.opts.url} ({exc})")
                self.write("hint: start it with: cardtable serve")
                return 2
        self.write(f"Could not reconnect. When the server is back: {self._resume_hint()}")
        # In a cluster the game goes on at another node, which the client cannot know.
        self.write("In a cluster, any other node takes you back now: add --url ws://HOST:PORT/")
        return 1

    async def _pause_before_retry(self) -> bool:
        """After a refusal that passes: wait a moment and say so, or False once the
        ``--retry`` window (which the refusal opens if none is open) has passed."""
        if self.retry_until is None:
            self.retry_until = time.monotonic() + self.opts.retry
        if time.monotonic() + RETRY_PAUSE >= self.retry_until:
            self.write(f"Gave up. Come back with: {self._resume_hint()}")
            return False
        self.write(f"Trying again in {RETRY_PAUSE:g}s...")
        await asyncio.sleep(RETRY_PAUSE)
        return True

    def _retryable(self, exc: Exception) -> Exception | None:
        """For websockets' loop: None to try again, else the exception to raise.
        Only after a drop, only until the ``--retry`` deadline, and only for a
        server that is down or not yet answering."""
        if self.retry_until is None or time.monotonic() >= self.retry_until:
            return exc
        return None if isinstance(exc, OSError | TimeoutError | InvalidHandshake) else exc

    def _delays(self) -> Generator[float]:
        """Pauses between failed attempts: short at first (a restart takes a second
        or two), doubling up to 2 s, never past the deadline."""
        pause = 0.2
        while True:
            left = (self.retry_until or 0.0) - time.monotonic()
            yield min(pause, max(0.0, left))
            pause = min(pause * 2, 2.0)

    def _resume_hint(self) -> str:
        extra = "" if self.opts.state_path == DEFAULT_STATE else f" --state {self.opts.state_path}"
        return f"cardtable play --resume{extra}"

    async def _session(self, ws: ClientConnection, first: bool) -> int:
        """Hello, then create/join/resume, then play until the game ends."""
        reattach = self.opts.resume or not first
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if reattach and self.session.token:
            hello["token"] = self.session.token
        elif self.opts.name:
            hello["name"] = self.opts.name
        await self._send(ws, hello)
        while True:
            msg = await self._recv(ws)
            if msg.get("type") == "error":
                self._setup_error(msg)
            if msg.get("type") == "welcome":
                break
        self.session.token, self.session.name = msg["token"], msg.get("name")
        if first:
            self.write(f"Connected to {self.opts.url} as {msg.get('name')}.")
            if not reattach and self.opts.game not in msg.get("games", [self.opts.game]):
                self.write(
                    f"error: this server has no game {self.opts.game!r}; "
                    f"it offers: {', '.join(msg.get('games', []))}"
                )
                return 2
            if self.opts.list_options:
                schema = (msg.get("options") or {}).get(self.opts.game, {})
                for line in options_text(self.opts.game, schema):
                    self.write(line)
                return 0
        self.save()
        if reattach:
            self.write(f"Resuming table {self.session.table} from version {self.session.version}.")
            await self._send(
                ws,
                {
                    "type": "resume",
                    "id": "setup",
                    "table": self.session.table,
                    "since": self.session.version,
                    "seat_token": self.session.seat_token,
                },
            )
        elif self.opts.table is not None:
            self.session.table = self.opts.table
            # The table list tells us the seat names before we sit down.
            await self._send(ws, {"type": "list_tables", "id": "info"})
            await self._send(
                ws,
                {"type": "join", "id": "setup", "table": self.opts.table, "seat": self.opts.seat},
            )
            if self.opts.start:
                await self._send(ws, {"type": "start", "id": "start", "table": self.opts.table})
        else:
            create: dict[str, Any] = {
                "type": "create_table",
                "id": "setup",
                "game": self.opts.game,
                "options": self.opts.options,
                "seat": self.opts.seat if self.opts.seat is not None else 0,
                "start": True,
            }
            # Only when asked: a server without time banks refuses unknown fields.
            if self.opts.turn_seconds is not None:
                create["turn_seconds"] = self.opts.turn_seconds
            if self.opts.time_bank is not None:
                create["time_bank"] = self.opts.time_bank
            await self._send(ws, create)
        return await self._pump(ws)

    async def _pump(self, ws: ClientConnection) -> int:
        """Receive pushes and read the player's moves at the same time."""
        recv: asyncio.Future[Any] = asyncio.ensure_future(ws.recv())
        try:
            while True:
                await self._auto_draw(ws)
                self._maybe_prompt()
                waiting: set[asyncio.Future[Any]] = {recv}
                if self.input_task is not None:
                    waiting.add(self.input_task)
                done, _ = await asyncio.wait(
                    waiting,
                    timeout=FINAL_WAIT if self.finishing else KEEPALIVE,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if not done:
                    if self.finishing:
                        code = await self._finish(ws)
                        if code is not None:
                            return code
                        continue
                    await self._send(ws, {"type": "ping"})
                    continue
                if recv in done:
                    raw = recv.result()  # raises ConnectionClosed when the socket drops
                    data = json.loads(raw)
                    code = await self._on_message(ws, data if isinstance(data, dict) else {})
                    if code is not None:
                        return code
                    recv = asyncio.ensure_future(ws.recv())
                task = self.input_task
                if task is not None and task in done:
                    self.input_task = None
                    await self._on_input(ws, task.result())
        finally:
            recv.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await recv

