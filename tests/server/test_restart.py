"""Durability: a server killed with SIGKILL mid-game restarts with every
acknowledged action intact, resumes the table from its log, and the game goes on."""

from __future__ import annotations

import signal

import pytest

from engine.replay import LoggedAction, replay, state_hash
from rules.registry import get_game
from server.persistence.store import Store
from tests.server.conftest import act_first_legal, make_settings, start_harness
from tests.server.serverproc import (
    connect_when_up,
    free_port,
    new_tag,
    next_turn,
    spawn,
    stop,
    survivors,
)


async def test_sigkill_mid_game_then_restart_resumes_every_acknowledged_action(
    db_url: str,
) -> None:
    port = free_port()
    tag = new_tag()
    proc = spawn(port, db_url, tag=tag)
    try:
        c = await connect_when_up(port, proc)
        await c.hello("survivor")
        token = c.token
        created = await c.request(
            {
                "type": "create_table",
                "game": "whist",
                "options": {"deals": 2},
                "seat": 2,
                "start": True,
            }
        )
        table = created["table"]["table"]
        seat_token = (await c.expect("joined", table=table))["seat_token"]
        acked = 0
        msg = await next_turn(c, table)
        for _ in range(6):
            acked = await act_first_legal(c, table, seat_token, msg)
            msg = await next_turn(c, table)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        stop(proc)
    # The bot pool (forkserver, worker, resource tracker) went with the server.
    assert survivors(tag) == {}

    # Everything acknowledged is in the log of record.
    store = await Store.open(db_url)
    stored = await store.get_game(table)
    await store.close()
    assert stored is not None and stored.status == "live"
    assert len(stored.actions) >= acked and [a.seq for a in stored.actions] == list(
        range(1, len(stored.actions) + 1)
    )

    tag = new_tag()
    proc = spawn(port, db_url, tag=tag)
    try:
        c = await connect_when_up(port, proc)
        welcome = await c.hello(token=token)
        assert welcome["resumed"] and {"table": table, "seat": 2} in welcome["seats"]
        snap = await c.request(
            {"type": "resume", "table": table, "since": acked, "seat_token": seat_token}
        )
        assert snap["type"] == "snapshot" and snap["seat"] == 2
        assert snap["version"] >= acked
        # The updates since the last one acknowledged came first, across the kill.
        missed = [m for m in c.inbox if m["type"] == "update" and m["table"] == table]
        assert [m["version"] for m in missed] == list(range(acked + 1, snap["version"] + 1))
        c.inbox = [m for m in c.inbox if m not in missed]
        msg = snap
        if not msg["legal"]:
            msg = await next_turn(c, table)
        while msg["status"] == "live":
            await act_first_legal(c, table, seat_token, msg)
            msg = await next_turn(c, table)
        assert msg["status"] == "finished" and msg["version"] == 104
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    finally:
        stop(proc)
    assert proc.returncode == 0, "SIGTERM is a graceful shutdown"
    assert survivors(tag) == {}

    # The stored game replays to the same final state the server reached.
    store = await Store.open(db_url)
    stored = await store.get_game(table)
    await store.close()
    assert stored is not None and stored.status == "finished"
    game = get_game("whist")
    config = game.parse_config(stored.config)
    final = replay(
        game, config, stored.seed, [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    )
    assert game.result(final) is not None
    assert game.result(final).to_json() == stored.result  # type: ignore[union-attr]
    assert state_hash(game, final) == state_hash(game, final)


async def test_graceful_restart_in_process_keeps_tables(db_url: str) -> None:
    h = await start_harness(make_settings(db_url))
    c = await h.client("ann")
    created = await c.request({"type": "create_table", "game": "whist", "seat": 2, "start": True})
    table = created["table"]["table"]
    seat_token = (await c.expect("joined", table=table))["seat_token"]
    msg = await next_turn(c, table)
    version = await act_first_legal(c, table, seat_token, msg)
    before = state_hash(h.server.lobby.tables[table].game, h.server.lobby.tables[table].state)
    await c.close()
    await h.server.stop()

    h2 = await start_harness(make_settings(db_url))
    try:
        t = h2.server.lobby.tables[table]
        assert t.version >= version and t.status == "live"
        if t.version == version:
            assert state_hash(t.game, t.state) == before
        c2 = await h2.client(hello=False)
        await c2.hello(token=c.token)
        snap = await c2.request(
            {"type": "resume", "table": table, "since": 0, "seat_token": seat_token}
        )
        assert snap["seat"] == 2 and len(snap["view"]["hand"]) == 12
        # The updates missed across the restart come first, as without one: the
        # restored table replayed its log into the history it keeps.
        missed = [m["version"] for m in c2.inbox if m["type"] == "update"]
        assert missed == list(range(1, snap["version"] + 1))
    finally:
        await h2.server.stop()


async def test_a_game_whose_last_action_was_stored_but_not_its_end_finishes_on_restart(
    sqlite_url: str,
) -> None:
    # The server can die after committing a game's last action and before marking the
    # game finished: the log is complete but the game is still "live".
    h = await start_harness(make_settings(sqlite_url))
    c = await h.client("ann")
    created = await c.request({"type": "create_table", "game": "whist", "start": True})
    table = created["table"]["table"]
    await c.expect("update", table=table, status="finished", timeout=10)
    await h.server.store.set_status(table, "live")
    await c.close()
    await h.server.stop()

    h2 = await start_harness(make_settings(sqlite_url))
    try:
        t = h2.server.lobby.tables[table]
        await t.submit(nothing)  # the table's actor settles its state before any job
        assert t.status == "finished"
        stored = await h2.server.store.get_game(table)
        assert stored is not None and stored.status == "finished" and len(stored.actions) == 52
        game = get_game("whist")
        log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
        final = replay(game, game.parse_config(stored.config), stored.seed, log)
        assert stored.result == game.result(final).to_json()  # type: ignore[union-attr]
    finally:
        await h2.server.stop()


async def nothing() -> None:
    return None


async def test_a_server_on_a_taken_port_resumes_no_table(sqlite_url: str) -> None:
    """The port is taken before the stored tables are resumed: a second server
    started on a running one's port fails before it plays any of their moves."""
    import socket

    from server.app import Server

    h = await start_harness(make_settings(sqlite_url))
    c = await h.client("ann")
    await c.request({"type": "create_table", "game": "whist", "seat": 2, "start": True})
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            second = Server(make_settings(sqlite_url, port=taken.getsockname()[1]))
            try:
                await second.start()
                raise AssertionError("a second server started on a taken port")
            except OSError:
                pass
            finally:
                await second.stop()
            assert second.lobby.tables == {}
    finally:
        await c.close()
        await h.server.stop()


async def test_one_single_node_server_per_database(db_url: str) -> None:
    """Two single-node servers on one database would both play its live tables: the
    second, on another port, stops before resuming any; a cluster node does too
    while a single node serves it. After the first stops, the second starts."""
    from server.app import Server
    from server.bus.local import LocalBus, LocalHub
    from server.persistence.serving import DatabaseInUse

    h = await start_harness(make_settings(db_url))
    c = await h.client("ann")
    await c.request({"type": "create_table", "game": "whist", "seat": 2, "start": True})
    second = Server(make_settings(db_url))
    try:
        with pytest.raises(DatabaseInUse, match="another cardtable server is serving"):
            await second.start()
        assert second.lobby.tables == {}
        # A tournament's server of its own tables leaves the others to their server.
        own = Server(make_settings(db_url), resume=False)
        try:
            await own.start()
            assert own.lobby.tables == {}
        finally:
            await own.stop()
        node = Server(make_settings(db_url, node="n1"), bus=LocalBus(LocalHub()))
        try:
            with pytest.raises(DatabaseInUse, match="a single-node cardtable server"):
                await node.start()
        finally:
            await node.stop()
    finally:
        await second.stop()
        await c.close()
        await h.server.stop()
    again = await start_harness(make_settings(db_url))
    try:
        assert len(again.server.lobby.tables) == 1
    finally:
        await again.server.stop()
