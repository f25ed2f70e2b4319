"""Cluster load: whist tables of human clients on 1 and 2 nodes, and failover time.

Runs, each for ``--seconds`` on one PostgreSQL database and the local Mosquitto:

- ``single``: one plain node (no bus): the denominator of every ratio;
- ``1 node``: one node of a cluster (leases, fencing, lobby on the bus);
- ``2 nodes``: two nodes, each table and its four clients on the same node;
- ``2 nodes, remote``: every table on node 0, every client on node 1, so every
  request and every frame crosses the bus (the forwarding cost).

For each: durable actions per second, act->update latency p50/p99 (the clients'
code is bench/server_load.py's), and CPU per action of the nodes and of the broker.
Then the failover time: kill -9 of a table's owner -> the first action accepted
on the node that adopts it (with ``--lease-seconds``).  Asserts nothing.

    python bench/cluster.py --clients 40 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server_load import Player, Run, cpu_seconds, free_port, play, wait_up  # noqa: E402

BROKER = "mqtt://127.0.0.1:1883"
LOGS: Path | None = None  # --logs DIR: each node's stderr in DIR/node-<prefix>-<n>-<port>.log
PG = "postgresql://postgres:postgres@127.0.0.1:5432"


def fresh_db(name: str) -> str:
    """An empty PostgreSQL database ``name`` (dropped first if it exists)."""
    for sql in (f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'):
        subprocess.run(
            ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", sql],
            check=True,
            env={
                **os.environ,
                "PGPASSWORD": "postgres",
                "PGOPTIONS": "-c client_min_messages=warning",
            },
            stdout=subprocess.DEVNULL,
        )
    return f"{PG}/{name}"


def broker_pid() -> int | None:
    found = subprocess.run(["pgrep", "-x", "mosquitto"], capture_output=True, text=True)
    pids = found.stdout.split()
    return int(pids[0]) if len(pids) == 1 else None


@dataclass
class Nodes:
    ports: list[int]
    procs: list[subprocess.Popen[bytes]]

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.procs)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            p.wait(30)


async def start_nodes(count: int, db: str, cluster: bool, lease: float, prefix: str) -> Nodes:
    ports, procs = [], []
    for i in range(count):
        port = free_port()
        argv = [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--db", db]
        argv += ["--log-level", "warning", "--bot-workers", "0"]
        if cluster:
            argv += ["--bus", BROKER, "--node", f"b{i}", "--lease-seconds", str(lease)]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CARDTABLE_RATE": "1000"}
        env |= {"CARDTABLE_BURST": "1000", "CARDTABLE_BUS_PREFIX": prefix}
        if LOGS is None:
            procs.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL))
        else:
            with (LOGS / f"node-{prefix}-{i}-{port}.log").open("ab") as log:
                procs.append(
                    subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
                )
        ports.append(port)
    for port in ports:
        await wait_up(port)
    await asyncio.sleep(1.0 if cluster else 0)  # presence and lobby snapshots settle
    return Nodes(ports, procs)


async def client(port: int, name: str, token: str | None = None) -> tuple[Player, str]:
    """A client that said hello (with ``token``: resuming that session); its session token."""
    p = Player(await connect(f"ws://127.0.0.1:{port}/", max_size=2**20))
    hello: dict[str, object] = {"type": "hello", "id": 1, "protocol": 1, "name": name}
    if token:
        hello["token"] = token
    welcome = await p.request(hello)
    return p, str(welcome["token"])


async def until_listed(p: Player, table: int) -> None:
    for i in range(400):
        reply = await p.request({"type": "list_tables", "id": f"l{i}"})
        if any(t["table"] == table for t in reply["tables"]):  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.05)
    raise RuntimeError(f"table {table} never reached the lobby")


async def load(nodes: Nodes, clients: int, seconds: float, remote: bool) -> tuple[Run, float]:
    """Play whist at ``clients // 4`` tables; the run and the broker's CPU seconds."""
    tables: list[tuple[int, list[tuple[Player, str]]]] = []
    players: list[Player] = []
    creators: list[Player] = []
    for t in range(clients // 4):
        owner_port = nodes.ports[0 if remote else t % len(nodes.ports)]
        play_port = nodes.ports[1] if remote else owner_port
        creator, _ = await client(owner_port, f"c{t}")
        creators.append(creator)
        created = await creator.request(
            {"type": "create_table", "id": 2, "game": "whist", "options": {"deals": 16}}
        )
        table = int(created["table"]["table"])  # type: ignore[index]
        seated = []
        for seat in range(4):
            p, _ = await client(play_port, f"p{t}-{seat}")
            if remote and seat == 0:
                await until_listed(p, table)
            players.append(p)
            joined = await p.request({"type": "join", "id": 3, "table": table, "seat": seat})
            seated.append((p, str(joined["seat_token"])))
        tables.append((table, seated))
    bpid = broker_pid()
    start, cpu0 = time.perf_counter(), nodes.cpu()
    b0 = cpu_seconds(bpid) if bpid else float("nan")
    stop_at = start + seconds
    await asyncio.gather(
        *(play(p, table, tok, stop_at) for table, seated in tables for p, tok in seated)
    )
    elapsed, cpu = time.perf_counter() - start, nodes.cpu() - cpu0
    broker = (cpu_seconds(bpid) - b0) if bpid else float("nan")
    for p in players + creators:
        await p.ws.close()  # type: ignore[attr-defined]
    lat = tuple(x for p in players for x in p.latencies)
    return Run(sum(p.actions for p in players), elapsed, cpu, lat), broker


async def failover(db: str, lease: float, prefix: str) -> float:
    """Seconds from kill -9 of a table's owner to the first action accepted after it."""
    nodes = await start_nodes(2, db, True, lease, prefix)
    try:
        creator, _ = await client(nodes.ports[0], "creator")
        created = await creator.request(
            {"type": "create_table", "id": 2, "game": "whist", "options": {"deals": 4}}
        )
        table = int(created["table"]["table"])  # type: ignore[index]
        alice, token = await client(nodes.ports[1], "alice")
        await until_listed(alice, table)
        joined = await alice.request({"type": "join", "id": 3, "table": table, "seat": 0})
        seat_token = str(joined["seat_token"])
        await creator.request({"type": "start", "id": 4, "table": table})
        await asyncio.sleep(0.5)
        nodes.procs[0].send_signal(signal.SIGKILL)
        killed = time.perf_counter()
        await alice.ws.close()  # type: ignore[attr-defined]
        for attempt in range(1000):
            p, _ = await client(nodes.ports[1], "alice", token)
            if await _resume_and_act(p, table, seat_token, attempt):
                return time.perf_counter() - killed
            await p.ws.close()  # type: ignore[attr-defined]
            await asyncio.sleep(0.1)
        raise RuntimeError("the table was never adopted")
    finally:
        nodes.stop()


async def _resume_and_act(p: Player, table: int, seat_token: str, attempt: int) -> bool:
    """Resume the seat and play one action: whether it was acknowledged."""
    resume = {"type": "resume", "id": f"r{attempt}", "table": table, "since": 0}
    msg = await p.request({**resume, "seat_token": seat_token})
    if msg["type"] != "snapshot":
        return False  # node_unavailable: nobody has adopted the table yet
    while not msg.get("legal"):  # the bots' turns first
        msg = json.loads(await asyncio.wait_for(p.ws.recv(), 30))  # type: ignore[attr-defined]
    act = {"type": "act", "id": f"a{attempt}", "table": table, "seat_token": seat_token}
    reply = await p.request(
        {**act, "version": msg["version"], "action": msg["legal"][0]}  # type: ignore[index]
    )
    return reply["type"] == "ack"


def summary(name: str, run: Run, broker: float, base: Run) -> str:
    lat = sorted(x * 1000 for x in run.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[int(0.99 * (len(lat) - 1))] if lat else float("nan")
    broker_us = 1e6 * broker / run.count if run.count else float("nan")
    return (
        f"{name:<18} {run.rate:>8,.0f} {run.rate / base.rate:>6.2f} {p50:>7.1f} {p99:>7.1f} "
        f"{run.cpu_each_us:>9,.0f} {run.cpu_each_us / base.cpu_each_us:>6.2f} {broker_us:>8,.0f}"
    )


async def main_async(args: argparse.Namespace) -> None:
    prefix = f"bench-{os.getpid()}"
    runs: list[tuple[str, Run, float]] = []
    for name, count, cluster, remote in (
        ("single (no bus)", 1, False, False),
        ("1 node", 1, True, False),
        ("2 nodes", 2, True, False),
        ("2 nodes, remote", 2, True, True),
    ):
        db = fresh_db("cardtable_bench_cluster")
        nodes = await start_nodes(count, db, cluster, args.lease_seconds, prefix)
        try:
            run, broker = await load(nodes, args.clients, args.seconds, remote)
        finally:
            nodes.stop()
        runs.append((name, run, broker))
    base = runs[0][1]
    print(
        f"{args.clients} clients at {args.clients // 4} whist tables, all seats human; "
        f"PostgreSQL; {args.seconds:g} s each; ratios against the single node"
    )
    print(
        f"{'':<18} {'act/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'us CPU/act':>9} {'ratio':>6} {'broker us/act':>8}"
    )
    for name, run, broker in runs:
        print(summary(name, run, broker, base))
    seconds = await failover(fresh_db("cardtable_bench_cluster"), args.lease_seconds, prefix)
    print(
        f"failover (lease {args.lease_seconds:g} s): kill -9 of the owner -> first action "
        f"accepted on the new owner: {seconds:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--logs", type=Path, help="keep each node's log in this directory")
    args = parser.parse_args()
    global LOGS
    LOGS = args.logs
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
