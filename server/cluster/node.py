"""One node of a cluster (docs/cluster.md): the leases of the tables it owns,
the lobby it shares, and the requests it forwards or serves over the bus.

The server hands it three things: the store, the lobby, and two callbacks
(``handle``: answer one raw client frame for a connection, as for a local
client; ``adopt``: rebuild a game from the database as a live table here).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from protocol import builders as p
from protocol.messages import CloseCode, ErrorCode, TableError
from server.bus import Bus, BusUnavailable, Topics
from server.clock import Clock
from server.cluster import wire
from server.cluster.joining import (
    check_identity,
    refuse_a_namesake,
)
from server.cluster.remote import RemoteConnection, RemoteTable
from server.connection import Connection
from server.jsontext import encode
from server.lobby import OPEN, Lobby
from server.persistence.identity import live_holders
from server.persistence.store import Store
from server.settings import Settings
from server.table import Table

log = logging.getLogger("cardtable.cluster")


# Late answers remembered per client at most; a client timing out more often than
# this is already being told the node is unavailable.
_MAX_LATE = 32
# Seconds between two publications of a node's lobby snapshot (its size grows with
# the node's tables; each change also goes out at once as an event).
LOBBY_INTERVAL = 1.0
Handle = Callable[[Connection, str], Awaitable[None]]
Adopt = Callable[[int], Awaitable[bool]]
Replaced = Callable[[int, float], None]


class Cluster:
    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        store: Store,
        lobby: Lobby,
        bus: Bus,
        *,
        handle: Handle,
        adopt: Adopt,
        replaced: Replaced,
    ) -> None:
        self.node = settings.node
        self.lease = settings.lease_seconds
        self.forward_timeout = settings.forward_timeout
        self.clock = clock
        self.store = store
        self.lobby = lobby
        self.bus = bus
        self.topics = Topics(settings.bus_prefix)
        self._handle = handle
        self._adopt = adopt
        self._replaced = replaced
        self.online: set[str] = set()
        self.database = ""  # the database's id, announced with this node's presence
        self._foreign: set[str] = set()  # nodes on this bus serving another database
        self.seen: set[str] = set()  # every node seen online on this bus since the start
        # node -> its tables: open, and finished while their owner keeps them
        self.remote: dict[str, dict[int, wire.LobbyEntry]] = {}
        # Clients of this node that forwarded requests, by key (the key names the
        # connection on the bus; the incarnation keeps a restarted node's apart).
        self._incarnation = secrets.token_hex(4)
        self._keys: weakref.WeakKeyDictionary[Connection, str] = weakref.WeakKeyDictionary()
        self._conns: weakref.WeakValueDictionary[str, Connection] = weakref.WeakValueDictionary()
        # Request ids a client was already told timed out: their late answers are
        # dropped, so every request still gets exactly one reply.
        self._late: weakref.WeakKeyDictionary[Connection, set[str | int]] = (
            weakref.WeakKeyDictionary()
        )
        self._counter = itertools.count(1)
        self._rids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[None]] = {}
        # Clients of other nodes at this node's tables: (node, key) -> proxy.
        self.proxies: dict[tuple[str, str], RemoteConnection] = {}
        self.renewed_at: float | None = None
        self._lobby_soon = False
        self._lobby_at = float("-inf")  # when the snapshot was last published
        self._wake = asyncio.Event()  # run the lease round now
        self._halted = False
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._joined = False  # on the bus under this node's name

    # lifecycle

    async def start(self) -> None:
        """Join the bus, then adopt the tables nobody owns (those of a previous
        run of this node at once, others' once their lease has expired)."""
        await refuse_a_namesake(self.store, self.node, self.lease)
        self.database = await check_identity(self.store, self.node, self.topics.prefix)
        self.store.fences = {}
        self.store.lease_for = (self.node, self.lease)
        self.bus.on_connect = self._connected
        self.bus.on_disconnect = self._disconnected
        t = self.topics
        await self.bus.subscribe(t.all_presence, self._on_presence)
        await self.bus.subscribe(t.all_lobby, self._on_lobby)
        await self.bus.subscribe(t.requests(self.node), self._on_request)
        await self.bus.subscribe(t.all_frames(self.node), self._on_frame)
        await self.bus.subscribe(t.sessions, self._on_session)
        self._joined = True
        await self.bus.start()
        await self._round(mine=True)
        self._task = asyncio.create_task(self._keep_leases(), name="cluster-leases")

    async def halt(self) -> None:
        """Stop renewing and adopting (first thing on shutdown: no table is adopted
        while the server stops the ones it has)."""
        self._halted = True
        if self._task is not None:
            self._task.cancel()
            # Bounded: Python 3.11's wait_for may swallow the cancellation; the loop
            # then sees the flag and ends by itself.
            await asyncio.wait({self._task}, timeout=5.0)

    async def stop(self) -> None:
        """Leave: the tables are stopped (by the server) before this; their leases
        are released so another node adopts them at once."""
        await self.halt()
        for task in list(self._tasks):
            task.cancel()
        for game_id in list(self.store.fences or {}):
            try:
                await self.store.release_lease(game_id)
            except Exception as exc:  # the lease then expires by itself
                log.warning("could not release the lease of table %d: %s", game_id, exc)
        if self._joined:  # (a node refused its name never spoke for that name)
            self._publish(self.topics.lobby(self.node), b"", retain=True)
            # Cleared, not "offline": a broker keeps a retained message per topic for
            # ever, and every node name ever used would leave one (the last will
            # still says "offline" after a crash, until the name comes back).
            if self._publish(self.topics.presence(self.node), b"", retain=True):
                await asyncio.sleep(0.1)  # let the outbox reach the broker
        await self.bus.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster task failed", exc_info=task.exception())

    def _connected(self) -> None:
        self.bus.publish(self.topics.presence(self.node), wire.online(self.database),
                         retain=True)
        self._publish_lobby()

    def _disconnected(self) -> None:
        """The broker is gone: the other nodes see this node's will and drop its
        clients from their tables (and their clients from this node's); this
        node does the same, so every client resumes with what it missed."""
        log.warning("bus lost: serving local tables only until it returns")
        self.online.clear()
        self.remote.clear()
        self._drop_all_proxies()
        self._close_relayed(lambda node: True)

    # leases

    async def _keep_leases(self) -> None:
        while not self._halted:
            # A node leaving wakes the round early: its released tables are adopted at once.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.1, self.lease / 3))
            self._wake.clear()
            if self._halted:
                return
            try:
                await self._round(mine=False)
            except Exception as exc:
                log.warning("lease round failed (%s); tables keep playing, retrying", exc)

    async def _round(self, *, mine: bool) -> None:
        """Renew this node's leases, drop the tables whose lease was lost, give
        back those of tables gone, adopt the tables nobody owns."""
        lost = await self.store.renew_leases(self.node, self.lease)
        self.renewed_at = self.clock.now()
        for game_id in lost:
            log.warning("table %d: lease lost to another node; dropping it here", game_id)
            await self._drop(game_id)
        for game_id in set(self.store.fences or {}) - set(self.lobby.tables):
            await self.store.release_lease(game_id)
        await self.store.forget_ended_leases()
        for game_id in await self.store.orphaned_games(self.node if mine else None):
            if game_id in self.lobby.tables:
                continue
            if await self.store.acquire_lease(game_id, self.node, self.lease) is None:
                continue  # another node was quicker
            try:
                adopted = await self._adopt(game_id)
            except Exception:
                log.exception("could not adopt table %d; giving its lease back", game_id)
                adopted = False
            if not adopted:
                await self.store.release_lease(game_id)
        self._publish_lobby()

    async def _drop(self, game_id: int) -> None:
        table = self.lobby.tables.pop(game_id, None)
        self.store.drop_fence(game_id)
        if table is None:
            return
        for conn in list(table.viewers):
            conn.close(CloseCode.GOING_AWAY, "the table moved to another node; resume there")
        await table.stop()
        self._publish_lobby()

    def lease_lag(self) -> float | None:
        """Seconds since this node last renewed its leases (None: not yet)."""
        return None if self.renewed_at is None else self.clock.now() - self.renewed_at

    # the lobby

    def changed(self, table: Table, text: bytes | None = None) -> None:
        """A local table's seats or status changed: local watchers hear it from
        the lobby, the other nodes from the bus."""
        self.lobby.changed(table, text)
        self._publish(self.topics.lobby_events(self.node), wire.encode(self._entry(table)))
        self._publish_lobby()

    def finished(self, table: Table, keep: float) -> None:
        # The other nodes forward to a finished table while it is kept (late viewers
        # get its result, as here), so they hear when it is dropped.
        self.lobby.finished(table, keep, dropped=self._publish_lobby)
        self._publish_lobby()

    def _entry(self, table: Table) -> wire.LobbyEntry:
        humans = [(s.index, s.player_id) for s in table.seats if s.player_id is not None]
        return wire.entry(table.info(), [(s, pid) for s, pid in humans if pid is not None])

    def _publish_lobby(self) -> None:
        """Publish this node's tables, open and finished but kept (retained), at most
        once a second: the other nodes follow each change by its event at once; the
        snapshot is for nodes that join later, and for tables dropped."""
        if self._lobby_soon:
            return
        self._lobby_soon = True
        loop = asyncio.get_running_loop()
        wait = self._lobby_at + LOBBY_INTERVAL - loop.time()
        loop.call_later(max(0.0, wait), self._publish_lobby_now)

    def _publish_lobby_now(self) -> None:
        self._lobby_soon = False
        self._lobby_at = asyncio.get_running_loop().time()
        tables = [self._entry(t) for t in self.lobby.tables.values()]
        snap = wire.LobbySnapshot(node=self.node, tables=tables)
        self._publish(self.topics.lobby(self.node), wire.encode(snap), retain=True)

    def _publish(self, topic: str, payload: bytes, *, retain: bool = False) -> bool:
        """Publish if the bus is up (what is lost is republished on reconnection,
        or made up for by the clients' resumption)."""
        try:
            self.bus.publish(topic, payload, retain=retain)
        except BusUnavailable:
            return False
        return True

    def _remote_entries(self, *, kept: bool = False) -> dict[int, tuple[str, wire.LobbyEntry]]:
        """Open tables of the other nodes online (``kept``: finished ones their owners
        still keep, too): table -> (owner, entry)."""
        found: dict[int, tuple[str, wire.LobbyEntry]] = {}
        for node, tables in self.remote.items():
            if node in self.online and node != self.node:
                for table_id, e in tables.items():
                    if table_id not in self.lobby.tables and (kept or e.info["status"] in OPEN):
                        found[table_id] = (node, e)
        return found

    def listing(self) -> list[dict[str, Any]]:
        """The other nodes' open tables, as the ``tables`` message lists them."""
        return [e.info for _, e in self._remote_entries().values()]

    async def seats_of(self, player: int) -> list[dict[str, Any]]:
        """The seats ``player`` holds at other nodes' tables.  The log of record
        names them too, so a seat at a table being taken over (no node lists it
        for those seconds) is not missing from the player's ``welcome``."""
        entries = self._remote_entries()
        listed = {
            (table_id, seat)
            for table_id, (_, e) in entries.items()
            for seat, pid in e.humans
            if pid == player
        }
        mine = set(self.lobby.tables)
        unlisted = {
            (table_id, seat)
            for table_id, seat in await self.store.held_seats(player)
            if table_id not in entries and table_id not in mine
        }
        return [p.seat_claim(t, s) for t, s in sorted(listed | unlisted)]

    def owner_of(self, table_id: int) -> str | None:
        found = self._remote_entries(kept=True).get(table_id)
        return found[0] if found is not None else None

    # sessions: one connection per session across the cluster

    def resumed(self, player: int, at: float) -> None:
        """Tell the other nodes that ``player`` said hello again here at ``at``."""
        self._publish(
            self.topics.sessions, wire.encode(wire.Resumed(node=self.node, player=player, at=at))
        )

    def _on_session(self, topic: str, payload: bytes) -> None:
        msg = wire.Resumed.model_validate_json(payload)
        # Another database's player ids name other people.
        if msg.node != self.node and msg.node not in self._foreign:
            self._replaced(msg.player, msg.at)

    def _on_presence(self, topic: str, payload: bytes) -> None:
        node = Topics.last_level(topic)
        if node == self.node:
            return
        database = wire.online_database(payload)
        if database is not None:
            if database and database != self.database:
                # Its table ids and player ids are another database's: merged, they
                # collided and wrote strangers' ids into seats.
                if node not in self._foreign:
                    log.error("node %s on this bus serves another database: ignored (one "
                              "broker and topics' prefix per database)", node)
                self._foreign.add(node)
                self.online.discard(node)
                self.remote.pop(node, None)
                return
            self._foreign.discard(node)
            self.online.add(node)
            self.seen.add(node)
        elif payload in (wire.OFFLINE, b""):
            if node in self.online:
                log.warning("node %s left the cluster", node)
                self._wake.set()
            self.online.discard(node)
            self.remote.pop(node, None)
            for key in [k for k in self.proxies if k[0] == node]:
                self._spawn(self._detach_proxy(key))
            self._close_relayed(lambda owner: owner == node)
        else:
            raise ValueError(f"unknown presence {payload[:20]!r}")

    def _on_lobby(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        node = parts[-2] if parts[-1] == "events" else parts[-1]
        if node == self.node:
            return
        if parts[-1] != "events":
            if not payload:
                self.remote.pop(node, None)
                return
            snap = wire.parse_snapshot(payload)
            if snap.node != node:
                raise ValueError(f"snapshot of {snap.node!r} on {topic}")
            self.remote[node] = {int(e.info["table"]): e for e in snap.tables}
            return
        e = wire.parse_entry(payload)
        table_id = int(e.info["table"])
        # A finished table stays its owner's until the owner's snapshot drops it.
        self.remote.setdefault(node, {})[table_id] = e
        if node in self.online:
            text = encode(p.table_status(e.info))
            for conn in list(self.lobby.watchers):
                if not any(getattr(a, "table_id", None) == table_id for a in conn.tables):
                    conn.send_text(text)

    # forwarding: this node's clients at other nodes' tables

    async def forward(
        self,
        conn: Connection,
        raw: str,
        table_id: int,
        attach: bool,
        request_id: str | int | None = None,
    ) -> None:
        """Send ``raw`` (a request about ``table_id``, owned elsewhere) to the
        owner and wait until it has answered; the answer reaches the client
        through :meth:`_on_frame`.  ``node_unavailable`` if the owner cannot be
        reached, ``game_over`` if no node has the table because its game has
        ended, ``unknown_table`` if there is no such game.  After a timeout the
        owner's late answer to ``request_id`` is dropped (the client has had its
        one reply); the request may still have taken effect, which the table's
        updates then show."""
        pid = conn.require_session()
        node = self.owner_of(table_id)
        if node is None and not self.bus.connected:
            raise TableError(
                ErrorCode.NODE_UNAVAILABLE, "the bus to the other nodes is down; try again"
            )
        if node is None:
            # No node lists it: the log of record says why.
            stored = await self.store.get_game(table_id, with_actions=False)
            if stored is None:
                raise TableError(ErrorCode.UNKNOWN_TABLE, f"no live table {table_id}")
            if stored.status in OPEN:
                holder = (await live_holders(self.store, table_id)).get(table_id)
                # A node seen on the bus and gone since is a failover under way (the
                # usual message below); one never seen is on another broker or prefix.
                if holder is not None and holder != self.node and holder not in self.seen:
                    raise TableError(
                        ErrorCode.NODE_UNAVAILABLE,
                        f"table {table_id} is held by node {holder!r}, which this node "
                        "does not see on its bus (another broker or topics' prefix?); "
                        "another node takes it over once that node's lease runs out",
                    )
                raise TableError(
                    ErrorCode.NODE_UNAVAILABLE,
                    f"table {table_id}'s node is unreachable; another node takes it over "
                    f"within {self.lease:g}s: try again",
                )
            # A game that has just ended leaves the lobby before its owner forgets
            # it: answer as the owner would, not as if there had been no such table.
            raise TableError(ErrorCode.GAME_OVER, "the game is over")
        rid = next(self._rids)
        msg = wire.Forward(
            kind="request",
            rid=rid,
            node=self.node,
            conn=self._key(conn),
            player=pid,
            name=conn.name,
            frame=raw,
        )
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending[rid] = done
        try:
            self.bus.publish(self.topics.requests(node), wire.encode(msg))
            await asyncio.wait_for(done, self.forward_timeout)
        except BusUnavailable:
            raise TableError(
                ErrorCode.NODE_UNAVAILABLE,
                f"the bus to table {table_id}'s node is down; try again",
            ) from None
        except TimeoutError:
            if attach:  # the owner may have attached the client: detach it when it goes
                conn.tables.add(RemoteTable(node, table_id, self._detached))
            if request_id is not None:
                late = self._late.setdefault(conn, set())
                if len(late) >= _MAX_LATE:
                    late.pop()
                late.add(request_id)
            raise TableError(
                ErrorCode.NODE_UNAVAILABLE,
                f"table {table_id}'s node did not answer in time; the request may "
                "still take effect (the table's updates will show it)",
            ) from None
        finally:
            self._pending.pop(rid, None)
        if attach:
            conn.tables.add(RemoteTable(node, table_id, self._detached))

    def _key(self, conn: Connection) -> str:
        key = self._keys.get(conn)
        if key is None:
            key = f"{self._incarnation}-{next(self._counter)}"
            self._keys[conn] = key
            self._conns[key] = conn
        return key

    def _detached(self, node: str, conn: Connection) -> None:
        key = self._keys.get(conn)
        if key is None:
            return
        # If the bus is down, the owner drops every proxy of this node on its will.
        msg = wire.Detach(kind="detach", node=self.node, conn=key)
        self._publish(self.topics.requests(node), wire.encode(msg))

    def _on_frame(self, topic: str, payload: bytes) -> None:
        conn = self._conns.get(Topics.last_level(topic))
        if payload.startswith(wire.DONE):
            done = self._pending.get(int(payload[len(wire.DONE) :]))
            if done is not None and not done.done():
                done.set_result(None)
            return
        if conn is None:
            return  # the client has gone meanwhile
        if payload == wire.CLOSE:
            conn.close(CloseCode.GOING_AWAY, "the table moved to another node; resume")
            return
        if not payload.startswith(b"{"):
            raise ValueError(f"not a frame: {payload[:20]!r}")
        late = self._late.get(conn)
        if late and self._is_late_answer(payload, late):
            return
        conn.send_text(payload)

    @staticmethod
    def _is_late_answer(payload: bytes, late: set[str | int]) -> bool:
        """Whether ``payload`` answers a request already answered by a timeout."""
        rid = orjson.loads(payload).get("id")
        if rid is None or isinstance(rid, bool) or rid not in late:
            return False
        late.discard(rid)
        return True

    def _close_relayed(self, owner: Callable[[str], bool]) -> None:
        """Close the local clients attached to tables of the nodes ``owner``
        picks: they reconnect, and resume wherever the table is by then."""
        for conn in list(self._conns.values()):
            if any(isinstance(a, RemoteTable) and owner(a.node) for a in conn.tables):
                conn.close(CloseCode.GOING_AWAY, "the table's node went away; resume")

    # serving: other nodes' clients at this node's tables

    def _on_request(self, topic: str, payload: bytes) -> None:
        msg = wire.ToOwner.validate_json(payload)
        if isinstance(msg, wire.Forward):
            self._spawn(self._serve(msg))
        else:
            self._spawn(self._detach_proxy((msg.node, msg.conn)))

    async def _serve(self, msg: wire.Forward) -> None:
        key = (msg.node, msg.conn)
        proxy = self.proxies.get(key)
        if proxy is None:
            topic = self.topics.frames(msg.node, msg.conn)
            proxy = RemoteConnection(self.bus, topic, msg.node, msg.conn, msg.player, msg.name)
            self.proxies[key] = proxy
        try:
            await self._handle(proxy, msg.frame)
        finally:
            proxy._publish(wire.DONE + str(msg.rid).encode())
            if not proxy.tables:
                self.proxies.pop(key, None)

    async def _detach_proxy(self, key: tuple[str, str]) -> None:
        proxy = self.proxies.pop(key, None)
        if proxy is None:
            return
        for table in list(proxy.tables):
            await table.detach(proxy)

    def _drop_all_proxies(self) -> None:
        for key in list(self.proxies):
            self._spawn(self._detach_proxy(key))

    # health

    def health(self) -> dict[str, Any]:
        lag = self.lease_lag()
        connected = self.bus.connected
        return {
            "node": self.node,
            "bus_connected": connected,
            "tables_owned": len(self.store.fences or {}),
            "lease_seconds": self.lease,
            "lease_lag": None if lag is None else round(lag, 3),
            "nodes_online": sorted(self.online | {self.node}),
            "ready": connected and lag is not None and lag < self.lease,
        }
