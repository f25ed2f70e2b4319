"""The server: websocket endpoint, sessions, lobby, table actors, resume on startup."""

from __future__ import annotations

import asyncio
import http
import json
import logging
import secrets
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from engine.errors import IllegalAction
from engine.replay import LoggedAction, replay
from rules.registry import available, get_game
from server import protocol as p
from server.analysis import Analyst, last_board_job
from server.botpool import BotRunner
from server.clock import Clock, SystemClock
from server.connection import Connection, encode
from server.frames import FrameError, parse_frame, request_id
from server.persistence.store import Store, StoredGame
from server.persistence.writer import StorageError
from server.protocol import CloseCode, ErrorCode
from server.replay import build_replay, check_replay
from server.settings import Settings
from server.table import Seat, Table, TableError
from server.turnclock import TurnClock

log = logging.getLogger("cardtable.server")
STATIC = Path(__file__).with_name("static")


class Server:
    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.tables: dict[int, Table] = {}
        self.connections: set[Connection] = set()
        self.store: Store
        self.bots: BotRunner
        self.analyst = Analyst(settings.analysis_workers)
        # Replays re-apply whole logs: threads, so no request stalls the others.
        self.readers = Analyst(2)
        self._ws: WsServer | None = None
        self._reapers: set[asyncio.Task[None]] = set()

    # lifecycle

    async def start(self) -> None:
        self.store = await Store.open(self.settings.db_url)
        self.bots = BotRunner(self.settings.bot_workers, self.settings.bot_budget)
        await self.bots.start()  # warm before resumed tables ask their bots to move
        await self._resume_tables()
        self._ws = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            max_size=self.settings.max_frame,
            # Frames are small JSON; deflate would cost more CPU than it saves bytes.
            compression=None,
            process_request=self._http,
            ping_interval=20,
            ping_timeout=20,
        )
        log.info("cardtable listening on ws://%s:%d/", self.settings.host, self.port)

    @property
    def port(self) -> int:
        assert self._ws is not None
        return int(next(iter(self._ws.sockets)).getsockname()[1])

    async def stop(self) -> None:
        """Graceful shutdown: close clients (1001), finish queued work, flush the log."""
        if self._ws is not None:
            self._ws.close(close_connections=False)
            for conn in list(self.connections):
                conn.close(CloseCode.GOING_AWAY, "server shutting down")
            await asyncio.sleep(0.05)
            self._ws.close()
            await self._ws.wait_closed()
        for table in list(self.tables.values()):
            if table.queue is not None:
                # Drain what was already accepted into the actor before stopping it.
                await table.submit(_noop)
            await table.stop()
        for t in self._reapers:
            t.cancel()
        await self.bots.close()
        await self.store.close()

    async def _resume_tables(self) -> None:
        for stored in await self.store.unfinished_games():
            try:
                table = await self._restore(stored)
            except Exception:
                log.exception("could not resume game %d; left as it is in the database", stored.id)
                continue
            self.tables[table.id] = table
            table.start_actor()
            for seat in table.seats:
                table.start_grace(seat)
            table.schedule_moves()
            # Analyses live in memory only: recompute the newest ended board's (the
            # one players were looking at); every board's is in the replay analysis.
            job = last_board_job(table.game.name, table.state)
            if job is not None:
                table.analyse(job)
            log.info(
                "resumed table %d (%s) at version %d", table.id, stored.game_type, table.version
            )

    async def _restore(self, stored: StoredGame) -> Table:
        game = get_game(stored.game_type)
        config = game.parse_config(stored.config)
        log_entries = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
        state = replay(game, config, stored.seed, log_entries)
        names = await self.store.player_names(
            [s.player_id for s in stored.seats if s.player_id is not None]
        )
        seats = [
            Seat(
                index=r.seat,
                kind=r.kind,
                player_id=r.player_id,
                player_name=names.get(r.player_id) if r.player_id is not None else None,
                bot=r.bot,
                token_hash=r.token_hash,
            )
            for r in stored.seats
        ]
        return Table(
            server=self,
            id=stored.id,
            name=stored.name,
            game=game,
            config=config,
            seed=stored.seed,
            seats=seats,
            status=stored.status,
            version=len(log_entries),
            state=state,
            turn_seconds=stored.table_options.get("turn_seconds"),
            time_bank=stored.table_options.get("time_bank"),
            clock=await self._restore_clock(stored, len(seats)),
            creator=stored.table_options.get("creator"),
        )

    async def _restore_clock(self, stored: StoredGame, seats: int) -> TurnClock | None:
        """The turn clock with the banks as last stored (a turn in progress at
        the restart starts afresh)."""
        turn = stored.table_options.get("turn_seconds")
        if turn is None:
            return None
        clock = TurnClock.new(turn, stored.table_options.get("time_bank"), seats)
        for kind, detail in await self.store.table_events(stored.id):
            if kind == "time_bank":
                for seat, left in detail.get("banks", {}).items():
                    clock.banks[int(seat)] = float(left)
        return clock

    # HTTP: the landing page; websocket upgrades pass through

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path = request.path.split("?")[0]
        page = STATIC / ("index.html" if path in ("/", "/index.html") else path.lstrip("/"))
        if page.parent != STATIC or not page.is_file():
            return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")
        kind = {
            "html": "text/html; charset=utf-8",
            "js": "text/javascript; charset=utf-8",
            "css": "text/css; charset=utf-8",
            "svg": "image/svg+xml",
            "ico": "image/x-icon",
        }.get(page.suffix.lstrip("."), "application/octet-stream")
        body = page.read_bytes()
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
        return Response(200, "OK", headers, body)

    async def _handler(self, ws: ServerConnection) -> None:
        conn = Connection(self, ws)
        self.connections.add(conn)
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)
            for table in list(conn.tables):
                if table.queue is not None and table.task is not None and not table.task.done():
                    try:
                        await table.submit(partial(table.disconnected, conn))
                    except TableError:
                        table.viewers.pop(conn, None)

    # lobby notifications

    def lobby_changed(self, table: Table, text: str | None = None) -> None:
        """Tell lobby watchers not at ``table`` that it changed (``text``: the
        ``table`` frame, if already encoded)."""
        watchers = [c for c in self.connections if c.watch_lobby and c not in table.viewers]
        if not watchers:
            return
        text = text or encode({"type": "table", "table": table.info()})
        for conn in watchers:
            conn.send_text(text)

    def table_finished(self, table: Table, keep: float = 300) -> None:
        """Keep a finished table around briefly (late viewers see the result)."""

        async def reap() -> None:
            await self.clock.sleep(keep)
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                await table.stop()

        task = asyncio.create_task(reap())
        self._reapers.add(task)
        task.add_done_callback(self._reapers.discard)

    # messages

    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """Answer one client message; replies echo its id only while it is handled
        (a notice sent later, such as ``rate_limited``, names no request)."""
        try:
            await self._handle(conn, raw)
        finally:
            conn.current_id = None

    async def _handle(self, conn: Connection, raw: str | bytes) -> None:
        conn.current_id = None
        conn.violations += 1  # reset below once the message proves well-formed
        try:
            data = parse_frame(raw)
        except FrameError as exc:
            conn.current_id = exc.request_id
            conn.error(exc.code, exc.message)
            return
        conn.current_id = request_id(data)
        kind = data["type"]
        if kind not in p.CLIENT_TYPES:
            conn.error(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
            return
        try:
            msg = p.client_adapter.validate_python(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"][1:]) or "message"
            conn.error(ErrorCode.BAD_MESSAGE, f"{where}: {err['msg']}")
            return
        conn.violations = 0
        try:
            await self._dispatch(conn, msg)
        except TableError as exc:
            conn.error(exc.code, exc.message, exc.reason)
        except IllegalAction as exc:
            code = ErrorCode(exc.code) if exc.code in ErrorCode._value2member_map_ else None
            conn.error(code or ErrorCode.ILLEGAL_ACTION, exc.message, exc.code)
        except StorageError as exc:
            log.warning("request %s not stored: %s", kind, exc)
            conn.error(
                ErrorCode.STORAGE_UNAVAILABLE,
                "the database did not store the request, so it was not applied; try again",
            )
        except Exception:
            log.exception("internal error handling %s", kind)
            conn.error(ErrorCode.INTERNAL_ERROR, "internal error; the request was not applied")

    def _table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(ErrorCode.UNKNOWN_TABLE, f"no live table {table_id}")
        return table

    async def _dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, p.Hello):
            await self._hello(conn, msg)
            return
        if isinstance(msg, p.Ping):
            conn.reply({"type": "pong"})
            return
        conn.require_session()
        match msg:
            case p.ListTables():
                conn.watch_lobby = True
                infos = [t.info() for t in self.tables.values() if t.status in ("waiting", "live")]
                conn.reply({"type": "tables", "tables": infos})
            case p.CreateTable():
                await self._create_table(conn, msg)
            case p.Join(table=tid, seat=seat):
                t = self._table(tid)
                await t.submit(lambda: t.join(conn, seat))
            case p.Leave(table=tid):
                t = self._table(tid)
                await t.submit(lambda: t.leave(conn))
            case p.Spectate(table=tid):
                t = self._table(tid)
                await t.submit(lambda: t.spectate(conn))
            case p.AddBot(table=tid, seat=seat, bot=bot):
                t = self._table(tid)
                await t.submit(lambda: t.add_bot(conn, seat, bot))
            case p.RemoveBot(table=tid, seat=seat):
                t = self._table(tid)
                await t.submit(lambda: t.remove_bot(conn, seat))
            case p.Start(table=tid):
                t = self._table(tid)
                await t.submit(lambda: t.start_by(conn))
                conn.reply({"type": "table", "table": t.info()})
            case p.Act(table=tid, seat_token=seat_token, version=version, action=action):
                t = self._table(tid)

                async def act_and_ack() -> None:
                    v = await t.act(conn, seat_token, version, action)
                    # Still in the actor: the ack leaves in the same write as the update.
                    conn.reply({"type": "ack", "table": tid, "version": v})

                await t.submit(act_and_ack)
            case p.Resume(table=tid, since=since, seat_token=token):
                t = self._table(tid)
                await t.submit(lambda: t.resume(conn, since, token))
            case p.Replay():
                await self._replay(conn, msg)
            case p.ListGames(limit=limit, status=status):
                rows = await self.store.list_games(limit, status)
                conn.reply(
                    {
                        "type": "games",
                        "games": [
                            {
                                "game_id": g.id,
                                "game": g.game_type,
                                "name": g.name,
                                "status": g.status,
                                "actions": n,
                                "created_at": g.created_at.isoformat(),
                                "result": g.result,
                            }
                            for g, n in rows
                        ],
                    }
                )

    async def _hello(self, conn: Connection, msg: p.Hello) -> None:
        if msg.protocol not in p.SUPPORTED_VERSIONS:
            conn.error(
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol {msg.protocol} is not supported; this server speaks "
                f"{', '.join(map(str, p.SUPPORTED_VERSIONS))}",
            )
            conn.close(CloseCode.UNSUPPORTED_VERSION, "unsupported protocol version")
            return
        resumed = False
        if msg.token:
            found = await self.store.player_by_token(msg.token)
            if found is None:
                raise TableError(
                    ErrorCode.BAD_TOKEN, "unknown session token; say hello without one"
                )
            pid, name = found
            token, resumed = msg.token, True
            for other in list(self.connections):
                if other is not conn and other.player_id == pid:
                    other.close(CloseCode.REPLACED, "session resumed on another connection")
        else:
            token = secrets.token_urlsafe(24)
            name = (msg.name or "").strip() or f"guest-{secrets.token_hex(2)}"
            pid = await self.store.create_player(name, token)
        conn.player_id, conn.name, conn.token = pid, name, token
        seats = [
            {"table": t.id, "seat": s.index}
            for t in self.tables.values()
            for s in t.seats
            if s.kind == "human" and s.player_id == pid and t.status in ("waiting", "live")
        ]
        conn.reply(
            {
                "type": "welcome",
                "protocol": p.PROTOCOL_VERSION,
                "token": token,
                "player": pid,
                "name": name,
                "resumed": resumed,
                "games": available(),
                "seats": seats,
            }
        )

    async def _create_table(self, conn: Connection, msg: p.CreateTable) -> None:
        pid = conn.require_session()
        waiting = sum(
            1 for t in self.tables.values() if t.creator == pid and t.status == "waiting"
        )
        if waiting >= self.settings.max_waiting_tables:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"you already have {waiting} tables waiting to start; start or leave one",
            )
        game = get_game(msg.game)
        config = game.parse_config(msg.options)
        seed = secrets.randbits(62)
        name = (msg.name or "").strip() or f"{game.title} table"
        count = game.seat_count(config)
        if msg.seat is not None and not 0 <= msg.seat < count:
            raise TableError(ErrorCode.BAD_SEAT, f"seats are 0..{count - 1}")
        table_options = {
            "turn_seconds": msg.turn_seconds,
            "time_bank": msg.time_bank,
            "creator": pid,
        }
        game_id = await self.store.create_game(
            game.name, game.config_json(config), seed, name, count, table_options
        )
        table = Table(
            server=self,
            id=game_id,
            name=name,
            game=game,
            config=config,
            seed=seed,
            seats=[Seat(i) for i in range(count)],
            state=game.new(config, seed),
            turn_seconds=msg.turn_seconds,
            time_bank=msg.time_bank,
            creator=pid,
        )
        self.tables[game_id] = table
        table.start_actor()
        conn.reply({"type": "table_created", "table": table.info()})
        self.lobby_changed(table)
        saved_id = conn.current_id
        conn.current_id = None  # only table_created answers the request id
        try:
            if msg.seat is not None:
                await table.submit(lambda: table.join(conn, msg.seat))
            elif msg.start:
                await table.submit(lambda: table.spectate(conn))
            if msg.start and table.status == "waiting":
                await table.submit(table.start)
        finally:
            conn.current_id = saved_id

    async def _replay(self, conn: Connection, msg: p.Replay) -> None:
        stored = await self.store.get_game(msg.game_id)
        if stored is None:
            raise TableError(ErrorCode.UNKNOWN_GAME_ID, f"no stored game {msg.game_id}")
        check_replay(stored, msg.viewer, analysis=msg.analysis)  # refuse at once
        limit = min(msg.limit, p.ANALYSIS_STEPS) if msg.analysis else msg.limit
        rid = conn.current_id
        # Re-applying a long log (and any double-dummy search) takes seconds: a
        # worker thread builds and encodes the page; the event loop only sends it.
        runner = self.analyst if msg.analysis else self.readers
        text = await runner.run(
            _encoded_replay, stored, msg.viewer, msg.start, limit, msg.analysis, rid
        )
        conn.send_text(text)


def _encoded_replay(
    stored: StoredGame, viewer: Any, start: int, limit: int, analysis: bool, rid: Any
) -> str:
    data = build_replay(stored, viewer, start, limit, analysis=analysis)
    if rid is not None:
        data["id"] = rid
    return json.dumps(data, separators=(",", ":"))


async def _noop() -> None:
    return None


def with_port(settings: Settings, port: int) -> Settings:
    return replace(settings, port=port)
