"""The server: websocket endpoint, sessions, request dispatch, resume on startup."""

from __future__ import annotations

import asyncio
import functools
import http
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from bots.base import default_bot
from engine.errors import IllegalAction
from engine.replay import LoggedAction, steps
from protocol import builders as p
from protocol import requests as rq
from protocol.frames import FrameError, parse_frame, request_id
from protocol.messages import SUPPORTED_VERSIONS, CloseCode, ErrorCode, TableError
from rules.registry import available, get_game
from server import stored_requests
from server.analysis import Analyst
from server.botpool import BotRunner
from server.bus import Bus, Topics, make_bus
from server.clock import Clock, SystemClock
from server.cluster import wire
from server.cluster.node import Cluster
from server.connection import Connection, Reply
from server.inbound import RequestConnection
from server.lobby import Lobby
from server.persistence.serving import ServingLock
from server.persistence.store import Store, StoredGame
from server.persistence.writer import StorageError
from server.records import result_summary
from server.seats import Seat
from server.settings import Settings
from server.table import HistoryEntry, Table
from server.table_absence import stand_ins
from server.table_context import TableContext
from server.turnclock import restored_clock

log = logging.getLogger("cardtable.server")
# The browser client lives in the clients package; the server only locates its
# files (by name: it imports no client code), wherever the package is installed.
STATIC = Path(str(resources.files("clients.web")))
# The requests about one table, which a cluster node forwards to the table's owner
# (and whether the client then stays attached to the table).
TABLE_REQUESTS: dict[type[Any], bool] = {
    rq.Join: True,
    rq.Spectate: True,
    rq.Resume: True,
    rq.Leave: False,
    rq.AddBot: False,
    rq.RemoveBot: False,
    rq.Start: False,
    rq.Act: False,
    rq.Autoplay: False,
    rq.EndMatch: False,
}


@functools.cache
def _option_schemas() -> dict[str, Any]:
    """Every game's table options (``Game.options_schema``), built once."""
    return {g: get_game(g).options_schema() for g in available()}


@functools.cache
def _file_formats() -> dict[str, list[str]]:
    """Every game's file formats by name (none: the game has no file format)."""
    return {g: [f.name for f in get_game(g).formats] for g in available()}


@functools.cache
def _with_statistics() -> list[str]:
    """The games that keep per-player statistics (a table even over no games)."""
    return [g for g in available() if get_game(g).statistics([]) is not None]


class Server:
    def __init__(
        self, settings: Settings, clock: Clock | None = None, bus: Bus | None = None,
        *, resume: bool = True,
    ) -> None:
        """A single node, or with ``settings.bus`` (or a ``bus``) a node of a
        cluster named ``settings.node``; without ``resume``, a server of its own new
        tables only (a tournament's), which leaves the database's others alone."""
        self.settings = settings
        self.resume = resume
        self.bus = bus
        self.clock: Clock = clock or SystemClock()
        self.lobby = Lobby(self.clock, settings.max_waiting_tables)
        self.connections: set[Connection] = set()
        self.store: Store
        self.bots: BotRunner
        self.ctx: TableContext[Table]
        self.analyst = Analyst(settings.analysis_workers)
        # Replays re-apply whole logs: threads, so no request stalls the others.
        self.readers = Analyst(2)
        self._ws: WsServer | None = None
        self._serving: ServingLock | None = None
        self.cluster: Cluster | None = None
        # Until the stored tables are back, the port is held (a second server on it
        # fails before touching them) but answers no one (503, health not ready).
        self.ready = False

    # lifecycle

    async def start(self) -> None:
        self.store = await Store.open(self.settings.db_url)
        # The port first: a second server on it stops here, before any bot or table.
        self._ws = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            max_size=self.settings.max_frame,
            # Frames are small JSON; deflate would cost more CPU than it saves bytes.
            compression=None,
            create_connection=RequestConnection,
            process_request=self._http,
            ping_interval=20,
            ping_timeout=20,
        )
        # Then the database: another server playing its tables stops this one here.
        if self.resume:
            self._serving = await ServingLock.take(
                self.store.engine, self.settings.db_url,
                cluster=self.bus is not None or bool(self.settings.bus))
        self.bots = BotRunner(self.settings.bot_workers, self.settings.bot_budget)
        await self.bots.start()  # warm before resumed tables ask their bots to move
        if self.bus is None and self.settings.bus:
            topic = Topics(self.settings.bus_prefix).presence(self.settings.node)
            will = (topic, wire.OFFLINE)
            self.bus = make_bus(self.settings.bus, self.settings.node, will)
        if self.bus is not None:
            self.cluster = Cluster(
                self.settings,
                self.clock,
                self.store,
                self.lobby,
                self.bus,
                handle=self.handle,
                adopt=self._adopt,
                replaced=self._replaced,
            )
        self.ctx = TableContext(
            settings=self.settings,
            clock=self.clock,
            store=self.store,
            bots=self.bots,
            analyst=self.analyst,
            on_change=self.cluster.changed if self.cluster else self.lobby.changed,
            on_finished=self.cluster.finished if self.cluster else self.lobby.finished,
        )
        if self.cluster is not None:
            await self.cluster.start()  # adopts the tables nobody owns
        elif self.resume:
            await self._resume_tables()
        self.ready = True
        log.info("cardtable listening on ws://%s:%d/", self.settings.host, self.port)

    @property
    def port(self) -> int:
        assert self._ws is not None
        return int(next(iter(self._ws.sockets)).getsockname()[1])

    async def stop(self) -> None:
        """Graceful shutdown: close clients (1001), finish queued work, flush the log;
        after a start that failed part way, of what did start."""
        if self.cluster is not None:
            await self.cluster.halt()
        if self._ws is not None:
            self._ws.close(close_connections=False)
            for conn in list(self.connections):
                conn.close(CloseCode.GOING_AWAY, "server shutting down")
            await asyncio.sleep(0.05)
            self._ws.close()
            await self._ws.wait_closed()
        await self.lobby.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        if hasattr(self, "bots"):
            await self.bots.close()
        if self._serving is not None:
            await self._serving.release()
        if hasattr(self, "store"):
            await self.store.close()

    async def _resume_tables(self) -> None:
        for stored in await self.store.unfinished_games():
            try:
                await self._resume(stored)
            except Exception:
                log.exception("could not resume game %d; left as it is in the database", stored.id)

    def _replaced(self, pid: int, at: float, keep: Connection | None = None) -> None:
        """Close this node's connections of player ``pid`` that said hello before
        ``at``: a session has one connection, the latest (4011)."""
        for other in list(self.connections):
            if other is not keep and other.player_id == pid and other.hello_at <= at:
                other.close(CloseCode.REPLACED, "session resumed on another connection")

    async def _adopt(self, game_id: int) -> bool:
        """Rebuild a game from the database as a live table of this node (its
        lease is already this node's); False if it is no longer open."""
        stored = await self.store.get_game(game_id)
        if stored is None or stored.status not in ("waiting", "live"):
            return False
        await self._resume(stored)
        return True

    async def _resume(self, stored: StoredGame) -> None:
        """A stored game, live again: its seats wait for their players' return."""
        table, recent = await self._restore(stored)
        self.lobby.add(table)
        table.start_actor()
        if table.status == "live":
            # The updates a player who reconnects has missed, as before the restart.
            table.history.extend(recent)
        for seat in table.seats:
            table.start_grace(seat)
        table.schedule_moves()
        # Analyses live in memory only: recompute the newest ended board's (the
        # one players were looking at); every board's is in the replay analysis.
        hook = table.game.analysis
        ended = hook.last_ended_board(table.state) if hook is not None else None
        if ended is not None:
            table.analyse(ended)
        log.info("resumed table %d (%s) at version %d", table.id, stored.game_type, table.version)

    async def _restore(self, stored: StoredGame) -> tuple[Table, deque[HistoryEntry]]:
        """The table of a stored game, and the table's newest versions (events and
        state of each, as many as a table keeps) replayed on the way."""
        game = get_game(stored.game_type)
        config = game.parse_config(stored.config)
        log_entries = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
        recent: deque[HistoryEntry] = deque(maxlen=self.settings.history)
        state = None
        for step in steps(game, config, stored.seed, log_entries):
            recent.append((step.seq, step.events, step.state))
            state = step.state
        names = await self.store.player_names(
            [s.player_id for s in stored.seats if s.player_id is not None]
        )
        events = await self.store.table_events(stored.id)
        standing_in = stand_ins(events)
        seats = [
            Seat(
                index=r.seat,
                kind=r.kind,
                player_id=r.player_id,
                player_name=names.get(r.player_id) if r.player_id is not None else None,
                bot=r.bot,
                token_hash=r.token_hash,
                # A bot that played for the seat before the restart goes on doing so.
                stand_in=(default_bot(game.name)
                          if r.kind == "human" and r.seat in standing_in else None),
            )
            for r in stored.seats
        ]
        return Table(
            ctx=self.ctx,
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
            clock=restored_clock(stored.table_options, len(seats), events),
            creator=stored.table_options.get("creator"),
            timeout_stand_in=bool(stored.table_options.get("timeout_stand_in")),
        ), recent

    # HTTP: the landing page; websocket upgrades pass through

    def _http(
        self, connection: ServerConnection, request: Request
    ) -> Response | Awaitable[Response] | None:
        path = request.path.split("?")[0]
        if path == "/health" and request.headers.get("Upgrade", "").lower() != "websocket":
            return self._health(connection)
        if not self.ready:
            return _plain(http.HTTPStatus.SERVICE_UNAVAILABLE,
                          "starting: resuming the stored tables; try again\n")
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if path.rstrip("/") == "/tournaments" or path.startswith("/tournaments/"):
            return self._tournament_page(path.rstrip("/"))  # awaited by websockets
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

    async def _tournament_page(self, path: str) -> Response:
        """``/tournaments`` and ``/tournaments/ID``, read from the database and
        rendered on a worker thread (docs/bots.md, "Results")."""
        from server.persistence.results import Results
        from server.tournament.page import list_page, render

        results = Results(self.store)
        if path == "/tournaments":
            html = list_page(await results.list_tournaments(100))
        else:
            tid = path.removeprefix("/tournaments/")
            # ASCII digits only ("²" is a digit to str.isdigit), and an id a column holds.
            known = tid.isascii() and tid.isdigit() and int(tid) < 2**63
            stored = await results.get_tournament(int(tid)) if known else None
            if stored is None:
                return _plain(http.HTTPStatus.NOT_FOUND, "no such tournament\n")
            html = await self.readers.run(render, stored)
        return _plain(http.HTTPStatus.OK, html, "text/html; charset=utf-8")

    def _health(self, connection: ServerConnection) -> Response:
        """Liveness and readiness as JSON: 200 when ready to serve, else 503
        (docs/cluster.md, "Health")."""
        if self.cluster is not None:
            state = self.cluster.health()
        else:
            state = {
                "node": self.settings.node or "single",
                "bus_connected": None,
                "tables_owned": len(self.lobby.tables),
                "lease_seconds": None,
                "lease_lag": None,
                "nodes_online": [],
                "ready": True,
            }
        state["ready"] = bool(state["ready"]) and self.ready
        body = json.dumps(state).encode()
        status = http.HTTPStatus.OK if state["ready"] else http.HTTPStatus.SERVICE_UNAVAILABLE
        headers = Headers(
            [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        )
        return Response(status.value, status.phrase, headers, body)

    async def _handler(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.settings, self.clock, self.handle)
        self.connections.add(conn)
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)
            self.lobby.unwatch(conn)
            for table in list(conn.tables):
                await table.detach(conn)

    # messages

    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """Answer one client message: what answers it echoes its id (a notice
        sent later, such as ``rate_limited``, names no request)."""
        conn.violations += 1  # reset below once the message proves well-formed
        try:
            data = parse_frame(raw)
        except FrameError as exc:
            Reply(conn, exc.request_id).error(exc.code, exc.message)
            return
        reply = Reply(conn, request_id(data))
        kind = data["type"]
        if kind not in rq.CLIENT_TYPES:
            reply.error(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
            return
        try:
            msg = rq.client_adapter.validate_python(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"][1:]) or "message"
            reply.error(ErrorCode.BAD_MESSAGE, f"{where}: {err['msg']}")
            return
        conn.violations = 0
        try:
            attach = TABLE_REQUESTS.get(type(msg))
            if (
                attach is not None
                and self.cluster is not None
                and conn.player_id is not None
                and msg.table not in self.lobby.tables
            ):
                text = raw if isinstance(raw, str) else raw.decode()
                await self.cluster.forward(conn, text, msg.table, attach, reply.id)
                return
            await self._dispatch(reply, msg)
        except TableError as exc:
            reply.error(exc.code, exc.message, exc.reason)
        except IllegalAction as exc:
            # A code of the protocol's own (bad_option, unknown_format) is the error's
            # code; a code of the rules' (must_follow_suit) is an illegal_action's reason.
            if exc.code in ErrorCode._value2member_map_:
                reply.error(ErrorCode(exc.code), exc.message, None)
            else:
                reply.error(ErrorCode.ILLEGAL_ACTION, exc.message, exc.code)
        except StorageError as exc:
            log.warning("request %s not stored: %s", kind, exc)
            reply.error(
                ErrorCode.STORAGE_UNAVAILABLE,
                "the database did not store the request, so it was not applied; try again",
            )
        except Exception:
            log.exception("internal error handling %s", kind)
            reply.error(ErrorCode.INTERNAL_ERROR, "internal error; the request was not applied")

    async def _dispatch(self, reply: Reply, msg: Any) -> None:
        if isinstance(msg, rq.Hello):
            await self._hello(reply, msg)
            return
        if isinstance(msg, rq.Ping):
            reply.send(p.pong())
            return
        reply.conn.require_session()
        match msg:
            # The commonest request first: each case is a type check.
            case rq.Act(table=tid, seat_token=seat_token, version=version, action=action):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.act(reply, seat_token, version, action))
            case rq.ListTables():
                self.lobby.watch(reply.conn)
                listing = self.lobby.listing()
                if self.cluster is not None:
                    listing += self.cluster.listing()
                reply.send(p.tables(listing))
            case rq.CreateTable():
                await self._create_table(reply, msg)
            case rq.Join(table=tid, seat=seat):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.join(reply, seat))
            case rq.Leave(table=tid):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.leave(reply))
            case rq.Spectate(table=tid):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.spectate(reply))
            case rq.AddBot(table=tid, seat=seat, bot=bot):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.add_bot(reply, seat, bot))
            case rq.RemoveBot(table=tid, seat=seat):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.remove_bot(reply, seat))
            case rq.Start(table=tid):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.start_by(reply))
            case rq.Autoplay(table=tid, seat_token=seat_token, on=on):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.autoplay(reply, seat_token, on))
            case rq.EndMatch(table=tid, seat_token=seat_token, agree=agree):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.vote_end(reply, seat_token, agree))
            case rq.Resume(table=tid, since=since, seat_token=token):
                t = self.lobby.get(tid)
                await t.submit(lambda: t.resume(reply, since, token))
            case rq.Replay():
                runner = self.analyst if msg.analysis else self.readers
                await stored_requests.replay(self.store, runner, reply, msg)
            case rq.ImportFile():
                await stored_requests.import_file(self.store, self.readers, reply, msg)
            case rq.ExportGame():
                await stored_requests.export(self.store, self.readers, reply, msg)
            case rq.Stats():
                await stored_requests.stats(self.store, self.readers, reply, msg)
            case rq.ListGames(limit=limit, status=status):
                rows = await self.store.list_games(limit, status)
                summaries = [
                    p.game_summary(
                        g.id, g.game_type, g.name, g.status, n, g.created_at.isoformat(),
                        g.result and {**g.result, "summary": result_summary(g)},
                    )
                    for g, n in rows
                ]
                reply.send(p.games(summaries))

    async def _hello(self, reply: Reply, msg: rq.Hello) -> None:
        conn = reply.conn
        if msg.protocol not in SUPPORTED_VERSIONS:
            reply.error(
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol {msg.protocol} is not supported; this server speaks "
                f"{', '.join(map(str, SUPPORTED_VERSIONS))}",
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
            conn.hello_at = time.time()
            self._replaced(pid, conn.hello_at, keep=conn)
            if self.cluster is not None:
                self.cluster.resumed(pid, conn.hello_at)
        else:
            token = secrets.token_urlsafe(24)
            name = (msg.name or "").strip() or f"guest-{secrets.token_hex(2)}"
            pid = await self.store.create_player(name, token)
        conn.player_id, conn.name, conn.token = pid, name, token
        seats = self.lobby.seats_of(pid)
        if self.cluster is not None:
            seats += await self.cluster.seats_of(pid)
        reply.send(p.welcome(token, pid, name, resumed, available(), seats, _option_schemas(),
                             _file_formats(), _with_statistics()))

    async def _create_table(self, reply: Reply, msg: rq.CreateTable) -> None:
        conn = reply.conn
        pid = conn.require_session()
        self.lobby.check_waiting_cap(pid)
        game = get_game(msg.game)
        config = game.new_table_config(msg.options)
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
            ctx=self.ctx,
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
        self.lobby.add(table)
        table.start_actor()
        reply.send(p.table_created(table.info()))
        (self.cluster.changed if self.cluster else self.lobby.changed)(table)
        then = Reply(conn)  # only table_created answers the request id
        if msg.seat is not None:
            await table.submit(lambda: table.join(then, msg.seat))
        elif msg.start:
            await table.submit(lambda: table.spectate(then))
        if msg.start and table.status == "waiting":
            await table.submit(table.start)


def _plain(
    status: http.HTTPStatus, text: str, kind: str = "text/plain; charset=utf-8"
) -> Response:
    body = text.encode()
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
    return Response(status.value, status.phrase, headers, body)


def with_port(settings: Settings, port: int) -> Settings:
    return replace(settings, port=port)
