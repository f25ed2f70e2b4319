"""Server load: N websocket clients play whist through the public protocol.

Prints durable actions per second and the p50/p99 latency from sending an ``act``
to receiving the ``update`` it caused, and, in the same run, the message rate of a
bare ``websockets`` echo server driven by the same number of clients (the ratio's
denominator: what the transport alone does on this machine).  Asserts nothing.

    python bench/server_load.py --clients 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
PROFILE_ENV: dict[str, str] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_up(port: int) -> None:
    for _ in range(400):
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise RuntimeError("server did not start")


class Player:
    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.latencies: list[float] = []
        self.actions = 0

    async def request(self, msg: dict[str, object]) -> dict[str, object]:
        await self.ws.send(json.dumps(msg))  # type: ignore[attr-defined]
        while True:
            reply = json.loads(await self.ws.recv())  # type: ignore[attr-defined]
            if reply.get("id") == msg.get("id"):
                return reply  # type: ignore[no-any-return]


async def play(player: Player, table: int, token: str, stop_at: float) -> None:
    ws = player.ws
    sent_at: float | None = None
    waiting_for = -1
    while time.perf_counter() < stop_at:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))  # type: ignore[attr-defined]
        except TimeoutError:
            return
        kind = msg.get("type")
        if kind not in ("update", "snapshot"):
            continue
        if sent_at is not None and msg["version"] == waiting_for:
            player.latencies.append(time.perf_counter() - sent_at)
            player.actions += 1
            sent_at = None
        if msg["status"] in ("finished", "abandoned"):
            return
        if msg.get("legal") and sent_at is None:
            waiting_for = msg["version"] + 1
            sent_at = time.perf_counter()
            await ws.send(  # type: ignore[attr-defined]
                json.dumps(
                    {
                        "type": "act",
                        "table": table,
                        "seat_token": token,
                        "version": msg["version"],
                        "action": msg["legal"][0],
                    }
                )
            )


async def run_cardtable(
    clients: int, seconds: float, db_url: str | None
) -> tuple[float, list[float]]:
    port = free_port()
    db_url = db_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--db",
         db_url, "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CARDTABLE_RATE": "1000",
             "CARDTABLE_BURST": "1000", **PROFILE_ENV},
    )
    try:
        await wait_up(port)
        players: list[Player] = []
        tables: list[tuple[int, list[tuple[Player, str]]]] = []
        for t in range(clients // 4):
            seated = []
            for seat in range(4):
                ws = await connect(f"ws://127.0.0.1:{port}/", max_size=2**20)
                p = Player(ws)
                players.append(p)
                await p.request({"type": "hello", "id": 1, "name": f"p{t}-{seat}"})
                if seat == 0:
                    created = await p.request(
                        {"type": "create_table", "id": 2, "game": "whist",
                         "options": {"deals": 16}}
                    )
                    table = created["table"]["table"]  # type: ignore[index]
                joined = await p.request({"type": "join", "id": 3, "table": table, "seat": seat})
                seated.append((p, str(joined["seat_token"])))
            tables.append((table, seated))
        start = time.perf_counter()
        stop_at = start + seconds
        await asyncio.gather(
            *(play(p, table, tok, stop_at) for table, seated in tables for p, tok in seated)
        )
        elapsed = time.perf_counter() - start
        total = sum(p.actions for p in players)
        lat = [x for p in players for x in p.latencies]
        for p in players:
            await p.ws.close()  # type: ignore[attr-defined]
        return total / elapsed, lat
    finally:
        proc.terminate()
        proc.wait(20)


ECHO = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for m in ws:
        await ws.send(m)
async def main():
    async with serve(echo, "127.0.0.1", int(sys.argv[1])):
        await asyncio.Future()
asyncio.run(main())
"""


async def run_echo(clients: int, seconds: float) -> float:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", ECHO, str(port)])
    try:
        await wait_up(port)
        conns = [await connect(f"ws://127.0.0.1:{port}/") for _ in range(clients)]
        payload = json.dumps({"type": "act", "table": 1, "version": 1, "action": {"card": "AS"}})
        counts = [0] * clients
        stop_at = time.perf_counter() + seconds

        async def loop(i: int) -> None:
            ws = conns[i]
            while time.perf_counter() < stop_at:
                await ws.send(payload)
                await ws.recv()
                counts[i] += 1

        start = time.perf_counter()
        await asyncio.gather(*(loop(i) for i in range(clients)))
        rate = sum(counts) / (time.perf_counter() - start)
        for ws in conns:
            await ws.close()
        return rate
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="database URL for the server (default: a new SQLite file)")
    args = parser.parse_args()
    rate, lat = asyncio.run(run_cardtable(args.clients, args.seconds, args.db))
    echo = asyncio.run(run_echo(args.clients, args.seconds))
    lat_ms = sorted(x * 1000 for x in lat)
    p50 = statistics.median(lat_ms) if lat_ms else float("nan")
    p99 = lat_ms[int(0.99 * (len(lat_ms) - 1))] if lat_ms else float("nan")
    print(f"clients: {args.clients} ({args.clients // 4} whist tables, all seats human)")
    backend = (args.db or "sqlite").split(":")[0]
    print(f"cardtable: {rate:,.0f} durable actions/s ({backend}), "
          f"act->update latency p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"bare websockets echo, same clients: {echo:,.0f} round trips/s")
    print(f"ratio cardtable/echo: {rate / echo:.2f}")


if __name__ == "__main__":
    main()
