"""A cluster of three real server processes on one PostgreSQL and the real
Mosquitto broker (docs/cluster.md).

Every game type is played whole by a player connected to a node that does not
own the table, watched by a spectator on the third node, and every frame both
received goes through the leak scanner.  Then the owner is killed with SIGKILL
mid-game: another node adopts the table once its lease expires, the player
reconnects to a surviving node with its session and seat tokens, and the game
finishes with every acknowledged action in the log, none twice.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from engine.events import SPECTATOR
from engine.replay import LoggedAction, steps
from protocol.messages import ErrorCode
from rules.registry import get_game
from server.persistence.store import Store, StoredGame
from tests.server.cluster_procs import LEASE, ClusterProcs, Node, fresh_database
from tests.server.conftest import PG_URL, Client
from tests.server.test_leak_scan import _scan

pytestmark = pytest.mark.postgres

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("whist", {}),
    ("poker", {"seats": 3, "hands": 2}),
    ("tractor", {"rounds": 1}),
    ("rummy", {"variant": "gin"}),
    ("bridge", {}),
    ("crazy_eights", {"seats": 3}),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterProcs]:
    procs = ClusterProcs(fresh_database(PG_URL, "cluster"))
    try:
        procs.start(3, tmp_path_factory.mktemp("cluster"))
        yield procs
    finally:
        assert procs.stop() == {}, "a process of the cluster outlived it"


@pytest.fixture
def failover_cluster(tmp_path: Any) -> Iterator[ClusterProcs]:
    procs = ClusterProcs(fresh_database(PG_URL, "failover"))
    try:
        procs.start(3, tmp_path)
        yield procs
    finally:
        assert procs.stop() == {}, "a process of the cluster outlived it"


async def client(node: Node, name: str, token: str | None = None) -> Client:
    c = Client(await connect(f"ws://127.0.0.1:{node.port}/"))
    await c.hello(name, token)
    return c


async def load(db_url: str, table: int) -> StoredGame:
    store = await Store.open(db_url, migrate=False)
    try:
        stored = await store.get_game(table)
    finally:
        await store.close()
    assert stored is not None
    return stored


async def visible_to(c: Client, table: int, timeout: float = 20) -> None:
    """Wait until ``c``'s node lists ``table`` (the lobby crosses the bus)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        listing = await c.request({"type": "list_tables"})
        if any(t["table"] == table for t in listing["tables"]):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table} never reached the lobby")


async def act(c: Client, table: int, token: str, msg: dict[str, Any]) -> dict[str, Any]:
    return await c.request(
        {
            "type": "act",
            "table": table,
            "seat_token": token,
            "version": msg["version"],
            "action": msg["legal"][0],
        },
        timeout=20,
    )


async def open_table(
    owner: Client, player: Client, watcher: Client, game: str, options: dict[str, Any]
) -> tuple[int, str, dict[str, Any]]:
    """``owner``'s node creates the table; ``player`` (another node) sits at seat
    0 and ``watcher`` (a third) spectates; bots fill the rest at the start."""
    created = await owner.request({"type": "create_table", "game": game, "options": options})
    assert created["type"] == "table_created", created
    table = int(created["table"]["table"])
    await visible_to(player, table)
    await visible_to(watcher, table)
    joined = await player.request({"type": "join", "table": table, "seat": 0}, timeout=20)
    assert joined["type"] == "joined", joined
    started = await owner.request({"type": "start", "table": table})
    assert started["type"] == "table", started
    snap = await watcher.request({"type": "spectate", "table": table}, timeout=20)
    assert snap["type"] == "snapshot", snap
    msg = await player.expect("snapshot", table=table, timeout=20)
    while msg["status"] != "live":
        msg = await player.expect("snapshot", table=table, timeout=20)
    return table, joined["seat_token"], msg


@pytest.mark.parametrize(("game_name", "options"), GAMES, ids=lambda v: str(v))
async def test_a_whole_game_from_a_node_that_does_not_own_the_table(
    cluster: ClusterProcs, game_name: str, options: dict[str, Any]
) -> None:
    n0, n1, n2 = cluster.nodes
    owner, alice, bob = (
        await client(n0, "owner"),
        await client(n1, "alice"),
        await client(n2, "bob"),
    )
    try:
        table, token, msg = await open_table(owner, alice, bob, game_name, options)
        while msg["status"] == "live":
            if msg["legal"]:
                reply = await act(alice, table, token, msg)
                # Bots may move first where several seats can act at once, or while
                # this seat acts out of turn (a bridge claim), even ending the game.
                assert reply["type"] == "ack" or reply["code"] in (
                    "stale_version", "game_over"), reply
            msg = await alice.expect("update", table=table, timeout=30)
        end = await bob.expect("update", table=table, version=msg["version"], timeout=30)
        assert end["status"] == msg["status"] == "finished"

        stored = await load(cluster.db_url, table)
        assert stored.status == "finished"
        game = get_game(game_name)
        config = game.parse_config(stored.config)
        log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
        assert [a.seq for a in log] == list(range(1, len(log) + 1))
        played = {s.seq: s for s in steps(game, config, stored.seed, log)}
        assert _scan(alice, 0, game, played, table) > len(log) // len(stored.seats)
        assert _scan(bob, SPECTATOR, game, played, table) >= len(log)
        # The spectator saw every version, relayed in order.
        versions = [
            m["version"]
            for m in map(json.loads, bob.frames)
            if m["type"] == "update" and m["table"] == table
        ]
        assert versions == list(range(versions[0], len(log) + 1))
        # The log of record answers a replay on any node.
        replay = await alice.request({"type": "replay", "game_id": table, "viewer": 0})
        assert replay["type"] == "replay" and replay["status"] == "finished", replay
        # An action sent through another node after the end is refused as the owner
        # refuses it, whether or not the lobby still lists the table.
        late = await alice.request({"type": "act", "table": table, "seat_token": token,
                                    "version": msg["version"], "action": {"type": "x"}},
                                   timeout=20)
        assert late["type"] == "error" and late["code"] == "game_over", late
        # A late viewer through another node sees the result, as at the owner while
        # it keeps the finished table.
        seen = await alice.request({"type": "spectate", "table": table}, timeout=20)
        assert seen["type"] == "snapshot" and seen["status"] == "finished", seen
        owned = [n.health()[1]["tables_owned"] for n in cluster.nodes]
        assert owned[1] == owned[2] == 0  # the table stayed with the node that made it
    finally:
        for c in (owner, alice, bob):
            await c.close()


async def test_bad_requests_through_the_bus_get_clear_errors(cluster: ClusterProcs) -> None:
    n0, n1, _ = cluster.nodes
    owner, alice = await client(n0, "owner"), await client(n1, "alice")
    try:
        created = await owner.request({"type": "create_table", "game": "whist", "options": {}})
        table = int(created["table"]["table"])
        await visible_to(alice, table)
        # The owner's own errors come back through the relay, with the request's id.
        bad = await alice.request(
            {"type": "act", "table": table, "seat_token": "x" * 20, "version": 0, "action": {}}
        )
        assert bad["type"] == "error" and bad["code"] == "bad_seat_token", bad
        unknown = await alice.request({"type": "spectate", "table": 10**9})
        assert unknown["code"] == "unknown_table", unknown
        status, state = await asyncio.to_thread(n1.health)
        assert status == 200 and state["node"] == "n1" and state["bus_connected"]
    finally:
        await owner.close()
        await alice.close()


async def resume(
    node: Node, token: str, table: int, seat_token: str, since: int
) -> tuple[Client, dict[str, Any]]:
    """Reconnect to ``node`` with the session token and take the seat back,
    retrying while no node owns the table yet (``node_unavailable``)."""
    c = await client(node, "alice", token)
    for _ in range(int(LEASE * 20) + 100):
        reply = await c.request(
            {"type": "resume", "table": table, "since": since, "seat_token": seat_token},
            timeout=20,
        )
        if reply["type"] == "snapshot":
            return c, reply
        assert reply["code"] in (ErrorCode.NODE_UNAVAILABLE, ErrorCode.UNKNOWN_TABLE), reply
        await asyncio.sleep(0.2)
    raise AssertionError("no node adopted the table")


async def test_killing_the_owner_mid_game_loses_no_acknowledged_action(
    failover_cluster: ClusterProcs,
) -> None:
    n0, n1, n2 = failover_cluster.nodes
    owner, alice, bob = (
        await client(n0, "owner"),
        await client(n1, "alice"),
        await client(n2, "bob"),
    )
    session = alice.token
    assert session is not None
    table, token, msg = await open_table(owner, alice, bob, "whist", {"deals": 2})
    acked: dict[int, dict[str, Any]] = {}  # version -> the action acknowledged for it
    killed = resumed = False
    try:
        while msg["status"] == "live":
            if len(acked) == 6 and not killed:
                n0.proc.send_signal(signal.SIGKILL)  # the owner, with no warning
                killed = True
            if msg["legal"]:
                try:
                    reply = await act(alice, table, token, msg)
                except Exception:  # the connection went with the table's node
                    reply = {"type": "gone"}
                if reply["type"] == "ack":
                    acked[reply["version"]] = msg["legal"][0]
                elif killed:
                    assert reply["type"] == "gone" or reply["code"] in (
                        "node_unavailable",
                        "stale_version",
                    ), reply
            try:
                msg = await alice.expect("update", table=table, timeout=30)
            except Exception:
                assert killed, "the player lost the table before its node was killed"
                await alice.close()
                alice, msg = await resume(n2, session, table, token, max(acked))
                resumed = True
        assert killed and resumed
        stored = await load(failover_cluster.db_url, table)
        assert stored.status == "finished"
        log = {a.seq: a for a in stored.actions}
        assert sorted(log) == list(range(1, len(log) + 1))  # no gap, none twice
        for version, action in acked.items():
            assert log[version].seat == 0 and log[version].action == action
        mine = [a for a in stored.actions if a.actor.startswith("player:")]
        # Each acknowledged action once; at most one more, committed as the node died.
        assert len(acked) <= len(mine) <= len(acked) + 1
        adopted = [n.health()[1] for n in (n1, n2)]
        assert sum(h["tables_owned"] for h in adopted) >= 1
        assert all(h["nodes_online"] == ["n1", "n2"] for h in adopted)
    finally:
        for c in (owner, alice, bob):
            await c.close()
