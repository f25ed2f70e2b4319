"""Faults a cluster node survives (docs/cluster.md, "Failure modes"), with the
nodes as servers inside the test's process on one SQLite file: malformed
messages on the bus, and a node cut off from the real broker and reconnected."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import urllib.request
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.app import Server
from server.bus import LocalBus, LocalHub, Topics
from server.cluster import wire
from tests.server.conftest import Client, make_settings, play_out
from tests.server.test_bus import BROKER, Cuttable

PREFIX = "cardtable"


async def start(db_url: str, node: str, on: Any = None, **settings: Any) -> Server:
    """A node named ``node`` on the bus ``on`` (or the one ``settings`` name)."""
    settings.setdefault("lease_seconds", 3.0)
    server = Server(make_settings(db_url, node=node, **settings), bus=on)
    await server.start()
    return server


async def long_leased_pair(db_url: str) -> tuple[tuple[Server, LocalBus], tuple[Server, LocalBus]]:
    """Nodes a and b on one local bus, each with its last will, leasing for 600 s."""
    hub = LocalHub()
    topics = Topics(PREFIX)
    nodes = []
    for name in ("a", "b"):
        bus = LocalBus(hub, will=(topics.presence(name), wire.OFFLINE))
        nodes.append((await start(db_url, name, bus, lease_seconds=600.0), bus))
    return nodes[0], nodes[1]


async def client(server: Server, name: str, token: str | None = None) -> Client:
    c = Client(await connect(f"ws://127.0.0.1:{server.port}/"))
    await c.hello(name, token)
    return c


async def listed(c: Client, table: int) -> None:
    for _ in range(100):
        reply = await c.request({"type": "list_tables"})
        if any(t["table"] == table for t in reply["tables"]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"table {table} not listed")


async def join_and_start(owner: Client, player: Client, table: int) -> tuple[str, dict[str, Any]]:
    await listed(player, table)
    joined = await player.request({"type": "join", "table": table, "seat": 0})
    assert joined["type"] == "joined", joined
    await owner.request({"type": "start", "table": table})
    snap = await player.expect("snapshot", table=table)
    while snap["status"] != "live":
        snap = await player.expect("snapshot", table=table)
    return joined["seat_token"], snap


def health(server: Server) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/health", timeout=5) as r:
            return int(r.status), json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), json.loads(exc.read())


@pytest.fixture
async def local_pair(sqlite_url: str) -> AsyncIterator[tuple[Server, Server, LocalHub]]:
    hub = LocalHub()
    topics = Topics(PREFIX)
    a = await start(sqlite_url, "a", LocalBus(hub, will=(topics.presence("a"), wire.OFFLINE)))
    b = await start(sqlite_url, "b", LocalBus(hub, will=(topics.presence("b"), wire.OFFLINE)))
    yield a, b, hub
    await a.stop()
    await b.stop()


async def test_malformed_bus_messages_are_logged_and_dropped(
    local_pair: tuple[Server, Server, LocalHub], caplog: pytest.LogCaptureFixture
) -> None:
    a, b, hub = local_pair
    stranger = LocalBus(hub)
    await stranger.start()
    t = Topics(PREFIX)
    junk = [
        (t.requests("a"), b"not json"),
        (t.requests("a"), b'{"kind": "request", "rid": "x"}'),
        (t.requests("a"), b'{"kind": "launch"}'),
        (t.lobby("x"), b"\xff\xfe"),
        (t.lobby("x"), b'{"node": "y", "tables": []}'),
        (t.lobby_events("x"), b'{"info": {"table": "one"}}'),
        (t.presence("x"), b"maybe"),
        (t.frames("b", "nobody"), b"!done many"),
        (t.frames("b", "nobody"), b"plain text"),
    ]
    caplog.set_level(logging.WARNING, "cardtable.bus")
    for topic, payload in junk:
        stranger.publish(topic, payload)
    await asyncio.sleep(0.2)
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) >= len(junk) - 1
    # Both nodes carry on: a whole game across them still plays.
    owner, alice = await client(a, "owner"), await client(b, "alice")
    created = await owner.request({"type": "create_table", "game": "whist", "options": {}})
    table = created["table"]["table"]
    token, snap = await join_and_start(owner, alice, table)
    end = await play_out(alice, table, token, snap)
    assert end["status"] == "finished"
    for c in (owner, alice):
        await c.close()
    await stranger.close()


async def test_a_node_cut_off_from_the_broker_keeps_its_tables_and_recovers(
    sqlite_url: str,
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    relay = Cuttable()
    await relay.open()
    a = await start(sqlite_url, "a", bus=f"mqtt://{BROKER[0]}:{BROKER[1]}", bus_prefix=prefix)
    # b reaches the broker only through the relay the test cuts.
    b = await start(sqlite_url, "b", bus=f"mqtt://127.0.0.1:{relay.port}", bus_prefix=prefix)
    clients: list[Client] = []
    try:
        owner, alice = await client(a, "owner"), await client(b, "alice")
        clients += [owner, alice]
        created = await owner.request({"type": "create_table", "game": "whist", "options": {}})
        remote = created["table"]["table"]
        seat_token, _ = await join_and_start(owner, alice, remote)
        session = alice.token
        assert session is not None
        await relay.cut()
        # b's client at a's table is closed (it resumes once the bus is back) ...
        with pytest.raises(Exception):  # noqa: B017 - ConnectionClosed or a timeout
            while True:
                await alice.expect("update", table=remote, timeout=10)
        status, state = await asyncio.to_thread(health, b)
        assert status == 503 and state["bus_connected"] is False and not state["ready"]
        # ... a request for a's table answers node_unavailable ...
        alice = await client(b, "alice", session)
        clients.append(alice)
        refused = await alice.request(
            {"type": "resume", "table": remote, "since": 0, "seat_token": seat_token}
        )
        assert refused["type"] == "error" and refused["code"] == "node_unavailable", refused
        # ... while b's own tables keep playing, bots included.
        mine = await alice.request(
            {"type": "create_table", "game": "whist", "options": {}, "seat": 0, "start": True}
        )
        local = mine["table"]["table"]
        local_token = (await alice.expect("joined", table=local))["seat_token"]
        first = await alice.expect("snapshot", table=local)
        while first["status"] != "live":
            first = await alice.expect("snapshot", table=local)
        assert (await play_out(alice, local, local_token, first))["status"] == "finished"
        # The broker comes back: b reconnects and forwards again.
        await relay.open()
        for _ in range(200):
            if b.cluster is not None and b.cluster.owner_of(remote) == "a":
                break
            await asyncio.sleep(0.05)
        back = await alice.request(
            {"type": "resume", "table": remote, "since": 0, "seat_token": seat_token}
        )
        assert back["type"] == "snapshot" and back["seat"] == 0, back
        alice.inbox.clear()  # the missed versions, replayed before the snapshot
        assert (await play_out(alice, remote, seat_token, back))["status"] == "finished"
        status, state = await asyncio.to_thread(health, b)
        assert status == 200 and state["bus_connected"] and state["nodes_online"] == ["a", "b"]
    finally:
        for c in clients:
            await c.close()
        await a.stop()
        await b.stop()
        await relay.cut()


async def test_the_lobby_and_seats_cross_the_bus(
    local_pair: tuple[Server, Server, LocalHub],
) -> None:
    a, b, _ = local_pair
    owner, watcher = await client(a, "owner"), await client(b, "watcher")
    created = await owner.request({"type": "create_table", "game": "whist", "options": {}})
    table = created["table"]["table"]
    await listed(watcher, table)
    # A change at a's table is pushed to b's lobby watchers ...
    seated = await owner.request({"type": "join", "table": table, "seat": 2})
    assert seated["type"] == "joined"
    pushed = await watcher.expect("table", timeout=5)
    while pushed["table"]["seats"][2]["kind"] != "human":
        pushed = await watcher.expect("table", timeout=5)
    assert pushed["table"]["seats"][2]["player"] == "owner"
    # ... and a player's seat at a's table is named by b's welcome.
    again = await client(b, "owner", owner.token)
    welcome = again.frames[-1]
    assert json.loads(welcome)["seats"] == [{"table": table, "seat": 2}]
    for c in (owner, watcher, again):
        await c.close()


async def test_a_seat_at_a_table_being_taken_over_is_in_the_welcome(sqlite_url: str) -> None:
    """For the seconds between its node's death and another's adopting it, no node
    lists the table; a player who says hello again is still told of the seat."""
    # Leases far longer than the test: b does not adopt the table while it runs.
    (a, a_bus), (b, _) = await long_leased_pair(sqlite_url)
    assert b.cluster is not None
    try:
        owner = await client(a, "owner")
        created = await owner.request(
            {"type": "create_table", "game": "whist", "options": {}, "seat": 1, "start": True}
        )
        table = created["table"]["table"]
        await owner.expect("joined", table=table)
        for _ in range(100):
            if b.cluster.owner_of(table) == "a":
                break
            await asyncio.sleep(0.05)
        a_bus.crash()  # a's last will: b forgets a's tables, and nobody owns this one
        for _ in range(100):
            if b.cluster.owner_of(table) is None:
                break
            await asyncio.sleep(0.05)
        assert b.cluster.owner_of(table) is None
        again = await client(b, "owner", owner.token)
        assert json.loads(again.frames[-1])["seats"] == [{"table": table, "seat": 1}]
        # A failover under way, said as such (a was seen: not another broker).
        reply = await again.request({"type": "spectate", "table": table})
        assert reply["code"] == "node_unavailable", reply
        assert "another node takes it over within" in reply["message"], reply
        await again.close()
    finally:
        await a.stop()
        await b.stop()


async def test_a_session_resumed_on_another_node_closes_its_older_connection(
    local_pair: tuple[Server, Server, LocalHub],
) -> None:
    """A session has one connection in the whole cluster, as on one node: the
    older one is closed with 4011 wherever it is."""
    a, b, _ = local_pair
    first = await client(a, "alice")
    second = await client(b, "alice", first.token)
    with pytest.raises(ConnectionClosed) as closed:
        await first._read(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4011
    # The newer connection stays, and a stranger's session is left alone.
    other = await client(a, "bob")
    third = await client(b, "bob-again")
    assert (await second.request({"type": "list_tables"}))["type"] == "tables"
    assert (await other.request({"type": "list_tables"}))["type"] == "tables"
    for c in (second, other, third):
        await c.close()


async def test_a_forwarded_request_that_timed_out_gets_no_second_reply(
    local_pair: tuple[Server, Server, LocalHub],
) -> None:
    """Every request gets exactly one reply: once a client has been told that the
    owner did not answer in time, the owner's late answer is not relayed."""
    a, b, _ = local_pair
    assert b.cluster is not None
    owner, watcher = await client(a, "owner"), await client(b, "watcher")
    created = await owner.request({"type": "create_table", "game": "whist", "options": {}})
    table = created["table"]["table"]
    await listed(watcher, table)
    b.cluster.forward_timeout = 0  # every forwarded request times out at once
    refused = await watcher.request({"type": "spectate", "table": table})
    assert refused["type"] == "error" and refused["code"] == "node_unavailable", refused
    assert "may still take effect" in refused["message"]
    # The owner did handle it (the watcher sees the start), but its reply never came.
    await owner.request({"type": "start", "table": table})
    pushed = await watcher.expect("snapshot", table=table)
    assert "id" not in pushed
    with contextlib.suppress(TimeoutError):
        while True:
            watcher.inbox.append(await watcher._read(0.5))
    assert [m for m in watcher.inbox if m.get("id") == refused["id"]] == []
    b.cluster.forward_timeout = 5.0
    again = await watcher.request({"type": "list_tables"})
    assert again["type"] == "tables"
    for c in (owner, watcher):
        await c.close()


async def test_a_stopping_node_gives_its_tables_to_another_at_once(sqlite_url: str) -> None:
    # Leases far longer than the test: only the release lets b adopt the table, and
    # only a's leaving, not b's next round, makes b look for tables to adopt.
    (a, _), (b, _) = await long_leased_pair(sqlite_url)
    try:
        owner = await client(a, "owner")
        created = await owner.request(
            {"type": "create_table", "game": "whist", "options": {}, "seat": 0, "start": True}
        )
        table = created["table"]["table"]
        token = (await owner.expect("joined", table=table))["seat_token"]
        session = owner.token
        await owner.close()
        assert [lease[1] for lease in await b.store.leases()] == ["a"]
        await a.stop()
        for _ in range(100):
            leases = [(g, n, t) for g, n, t, _ in await b.store.leases()]
            if [n for _, n, _ in leases] == ["b"]:
                break
            await asyncio.sleep(0.05)
        # Within 5 s of a 600 s lease: a gave it back. The token still rises (a
        # write a had in flight with token 1 is refused).
        assert leases == [(table, "b", 2)]
        back = await client(b, "owner", session)
        for _ in range(100):
            reply = await back.request(
                {"type": "resume", "table": table, "since": 0, "seat_token": token}
            )
            if reply["type"] == "snapshot":
                break
            assert reply["code"] in ("node_unavailable", "unknown_table"), reply
            await asyncio.sleep(0.1)
        assert reply["type"] == "snapshot" and reply["seat"] == 0, reply
        status, state = await asyncio.to_thread(health, b)
        assert status == 200 and state["tables_owned"] == 1 and state["nodes_online"] == ["b"]
        await back.close()
    finally:
        await b.stop()


async def test_a_single_node_answers_health(sqlite_url: str) -> None:
    server = await start(sqlite_url, "")
    try:
        status, state = await asyncio.to_thread(health, server)
        assert status == 200 and state["ready"] and state["bus_connected"] is None
    finally:
        await server.stop()


async def test_a_node_that_lost_its_lease_cannot_acknowledge_an_action(sqlite_url: str) -> None:
    """A node stalled past its lease (its renewals stopped) while another adopted
    its table: its next action is refused by the database, never acknowledged; its
    next lease round drops the table and the client resumes on the new owner."""
    hub = LocalHub()
    topics = Topics(PREFIX)
    a_bus = LocalBus(hub, will=(topics.presence("a"), wire.OFFLINE))
    b_bus = LocalBus(hub, will=(topics.presence("b"), wire.OFFLINE))
    a = await start(sqlite_url, "a", a_bus, lease_seconds=600.0)
    b = await start(sqlite_url, "b", b_bus, lease_seconds=600.0)
    clients: list[Client] = []
    try:
        alice = await client(a, "alice")
        clients.append(alice)
        created = await alice.request(
            {"type": "create_table", "game": "whist", "options": {}, "seat": 0, "start": True}
        )
        table = created["table"]["table"]
        token = (await alice.expect("joined", table=table))["seat_token"]
        msg = await alice.expect("snapshot", table=table)
        while msg["status"] != "live":
            msg = await alice.expect("snapshot", table=table)
        while not msg["legal"]:  # the bots before alice
            msg = await alice.expect("update", table=table, timeout=10)
        assert a.cluster is not None and b.cluster is not None
        a.cluster._task.cancel()  # type: ignore[union-attr]  # a stalls: no more renewals
        async with a.store.engine.begin() as conn:  # ... until its lease has run out
            await conn.execute(text("UPDATE table_leases SET expires_at = 0"))
        await b.cluster._round(mine=False)  # b adopts the table (fencing token 2)
        assert [(g, n, t) for g, n, t, _ in await b.store.leases()] == [(table, "b", 2)]
        refused = await alice.request(
            {
                "type": "act",
                "table": table,
                "seat_token": token,
                "version": msg["version"],
                "action": msg["legal"][0],
            }
        )
        assert refused["type"] == "error" and refused["code"] == "storage_unavailable", refused
        stored = await b.store.get_game(table)
        assert stored is not None and len(stored.actions) == msg["version"]
        await a.cluster._round(mine=False)  # a learns it lost the lease and drops the table
        assert table not in a.lobby.tables
        with pytest.raises(Exception):  # noqa: B017 - closed with 1001
            while True:
                await alice.expect("update", table=table, timeout=5)
        back = await client(b, "alice", alice.token)
        clients.append(back)
        snap = await back.request(
            {"type": "resume", "table": table, "since": 0, "seat_token": token}
        )
        assert snap["type"] == "snapshot" and snap["version"] == msg["version"], snap
    finally:
        for c in clients:
            await c.close()
        await a.stop()
        await b.stop()


async def test_a_second_node_of_the_same_name_is_refused(sqlite_url: str) -> None:
    """Every node needs a name of its own (docs/cluster.md): a second process under
    a running node's name would take its tables and, gone, mark it offline by its
    last will.  It is refused before it joins the bus; the running node plays on."""
    from server.cluster.joining import NodeNameTaken

    hub = LocalHub()
    topics = Topics(PREFIX)
    a = await start(sqlite_url, "a", LocalBus(hub, will=(topics.presence("a"), wire.OFFLINE)),
                    lease_seconds=1.0)
    try:
        owner = await client(a, "owner")
        created = await owner.request(
            {"type": "create_table", "game": "whist", "options": {}, "seat": 0, "start": True}
        )
        table = created["table"]["table"]
        await owner.expect("joined", table=table)
        before = {g: n for g, n, _, _ in await a.store.leases()}
        assert before == {table: "a"}
        twin_bus = LocalBus(hub, will=(topics.presence("a"), wire.OFFLINE))
        twin = Server(make_settings(sqlite_url, node="a", lease_seconds=1.0), bus=twin_bus)
        with pytest.raises(NodeNameTaken, match="a node named 'a' is running"):
            await twin.start()
        await twin.stop()
        assert table in a.lobby.tables and a.cluster is not None
        assert {g: n for g, n, _, _ in await a.store.leases()} == before
        # No last will of the twin: still online, serving this database.
        presence = hub.retained.get(topics.presence("a")) or b""
        assert wire.online_database(presence) == a.cluster.database != ""
        await owner.close()
    finally:
        await a.stop()


async def test_a_node_under_another_prefix_is_refused_while_the_cluster_holds_tables(
    sqlite_url: str,
) -> None:
    """Nodes of one database under two prefixes never see each other: each adopted
    the other's tables as orphans. A node given another prefix than the one the
    database's cluster uses is refused while that cluster holds tables, and a
    request for a table held by a node out of sight says so."""
    from server.cluster.joining import OtherPrefix

    a = await start(sqlite_url, "a", LocalBus(LocalHub()), lease_seconds=600.0)
    try:
        owner = await client(a, "owner")
        created = await owner.request(
            {"type": "create_table", "game": "whist", "seat": 0, "start": True})
        table = created["table"]["table"]
        stray = Server(make_settings(sqlite_url, node="q", bus_prefix="elsewhere"),
                       bus=LocalBus(LocalHub()))
        with pytest.raises(OtherPrefix, match="uses the topics' prefix 'cardtable', where "
                                              "node 'a' holds tables"):
            await stray.start()
        await stray.stop()
        # A node on another bus under the same prefix cannot see a either.
        blind = await start(sqlite_url, "b", LocalBus(LocalHub()))
        try:
            lost = await client(blind, "lost")
            reply = await lost.request({"type": "spectate", "table": table})
            assert reply["code"] == "node_unavailable", reply
            assert "held by node 'a', which this node does not see on its bus" in reply[
                "message"]
            await lost.close()
        finally:
            await blind.stop()
        await owner.close()
    finally:
        await a.stop()
    # With no table held, the prefix moves with the first node to start.
    moved = await start(sqlite_url, "q", LocalBus(LocalHub()), bus_prefix="elsewhere")
    await moved.stop()


async def test_a_node_of_another_database_on_the_bus_is_ignored(tmp_path: Any) -> None:
    """Two databases' nodes on one broker and prefix: their table and player ids
    would collide. Each announces its database with its presence and ignores the
    other's, whose tables it neither lists nor forwards to."""
    hub = LocalHub()
    a = await start(f"sqlite:///{tmp_path}/one.db", "a", LocalBus(hub))
    c = await start(f"sqlite:///{tmp_path}/two.db", "c", LocalBus(hub))
    try:
        mine, theirs = await client(a, "mine"), await client(c, "theirs")
        await theirs.request({"type": "create_table", "game": "whist"})
        await asyncio.sleep(0.3)
        assert (await mine.request({"type": "list_tables"}))["tables"] == []
        assert a.cluster is not None and "c" not in a.cluster.online
        assert "c" in a.cluster._foreign
        await mine.close()
        await theirs.close()
    finally:
        await c.stop()
        await a.stop()


async def test_a_node_that_stops_leaves_no_retained_presence(sqlite_url: str) -> None:
    """A retained message stays on the broker for ever: a node stopping cleanly
    clears its presence (the others take that as offline) rather than leaving one
    "offline" per node name ever used."""
    hub = LocalHub()
    topics = Topics(PREFIX)
    a = await start(sqlite_url, "a", LocalBus(hub, will=(topics.presence("a"), wire.OFFLINE)))
    b = await start(sqlite_url, "b", LocalBus(hub, will=(topics.presence("b"), wire.OFFLINE)))
    try:
        for _ in range(100):
            if a.cluster is not None and "b" in a.cluster.online:
                break
            await asyncio.sleep(0.02)
        assert a.cluster is not None and "b" in a.cluster.online
        await b.stop()
        assert topics.presence("b") not in hub.retained
        for _ in range(100):
            if "b" not in a.cluster.online:
                break
            await asyncio.sleep(0.02)
        assert "b" not in a.cluster.online
    finally:
        await a.stop()
