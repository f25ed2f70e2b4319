"""Server load: N websocket clients play whist through the public protocol.

Prints durable actions per second, the p50/p99 latency from sending an ``act``
to receiving the ``update`` it caused, and the server process's CPU time per
durable action; in the same run, the round-trip rate and CPU per round trip of a
bare ``websockets`` echo server (on the same event loop) driven by the same number
of clients: the denominator, what the transport alone costs on this machine.
Servers run in their own processes, so their CPU is measured apart from the
clients'.  Asserts nothing.

    python bench/server_load.py --clients 200 --seconds 20
    python bench/server_load.py --profile server.prof   # cProfile the server
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
from dataclasses import dataclass
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc; NaN elsewhere)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("nan")
    # Fields after the parenthesised command name; utime and stime are 14th and 15th.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


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


@dataclass(frozen=True)
class Run:
    """What one server did in the measured window."""

    count: int  # durable actions, or echo round trips
    seconds: float
    cpu: float  # the server process's CPU seconds in the window
    latencies: tuple[float, ...] = ()

    @property
    def rate(self) -> float:
        return self.count / self.seconds

    @property
    def cpu_each_us(self) -> float:
        return 1e6 * self.cpu / self.count if self.count else float("nan")


async def run_cardtable(
    clients: int, seconds: float, db_url: str | None, profile: str | None
) -> Run:
    port = free_port()
    db_url = db_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
    prof = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen(
        [sys.executable, *prof, "-m", "server.cli", "serve", "--port", str(port), "--db",
         db_url, "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CARDTABLE_RATE": "1000",
             "CARDTABLE_BURST": "1000"},
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
        start, cpu0 = time.perf_counter(), cpu_seconds(proc.pid)
        stop_at = start + seconds
        await asyncio.gather(
            *(play(p, table, tok, stop_at) for table, seated in tables for p, tok in seated)
        )
        elapsed, cpu = time.perf_counter() - start, cpu_seconds(proc.pid) - cpu0
        total = sum(p.actions for p in players)
        lat = tuple(x for p in players for x in p.latencies)
        for p in players:
            await p.ws.close()  # type: ignore[attr-defined]
        return Run(total, elapsed, cpu, lat)
    finally:
        proc.terminate()  # the server stops cleanly on SIGTERM (and cProfile writes)
        proc.wait(60)


# The same event loop as the server (uvloop where installed), so the ratio
# compares the server's own work, not two event loops; without compression, as
# cardtable's server (websockets' default would deflate every echo, a third more CPU).
ECHO = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for m in ws:
        await ws.send(m)
async def main():
    async with serve(echo, "127.0.0.1", int(sys.argv[1]), compression=None):
        await asyncio.Future()
try:
    import uvloop
except ImportError:
    asyncio.run(main())
else:
    uvloop.run(main())
"""


async def run_echo(clients: int, seconds: float) -> Run:
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

        start, cpu0 = time.perf_counter(), cpu_seconds(proc.pid)
        await asyncio.gather(*(loop(i) for i in range(clients)))
        elapsed, cpu = time.perf_counter() - start, cpu_seconds(proc.pid) - cpu0
        for ws in conns:
            await ws.close()
        return Run(sum(counts), elapsed, cpu)
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="database URL for the server (default: a new SQLite file)")
    parser.add_argument("--profile", metavar="FILE",
                        help="run the server under cProfile and write its stats to FILE")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo denominator")
    args = parser.parse_args()
    game = asyncio.run(run_cardtable(args.clients, args.seconds, args.db, args.profile))
    lat_ms = sorted(x * 1000 for x in game.latencies)
    p50 = statistics.median(lat_ms) if lat_ms else float("nan")
    p99 = lat_ms[int(0.99 * (len(lat_ms) - 1))] if lat_ms else float("nan")
    print(f"clients: {args.clients} ({args.clients // 4} whist tables, all seats human)")
    backend = (args.db or "sqlite").split(":")[0]
    print(f"cardtable: {game.rate:,.0f} durable actions/s ({backend}), "
          f"act->update latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"server CPU {game.cpu_each_us:,.0f} us/action "
          f"({100 * game.cpu / game.seconds:.0f}% of a core)")
    if args.no_echo:
        return
    echo = asyncio.run(run_echo(args.clients, args.seconds))
    print(f"bare websockets echo, same clients: {echo.rate:,.0f} round trips/s, "
          f"server CPU {echo.cpu_each_us:,.0f} us/round trip "
          f"({100 * echo.cpu / echo.seconds:.0f}% of a core)")
    print(f"ratio cardtable/echo: rate {game.rate / echo.rate:.2f}, "
          f"CPU per message {game.cpu_each_us / echo.cpu_each_us:.1f}x")


if __name__ == "__main__":
    main()
