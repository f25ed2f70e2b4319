"""``cardtable worker``: play distributed tournaments' games until stopped
(docs/cluster.md, "Distributed tournaments").  The coordinator's side is
``cardtable tournament --bus`` (server/tournament/commands.py)."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import sys

from server.cli_common import configure_logging, settings_of


def cmd_worker(args: argparse.Namespace) -> int:
    """Play jobs until stopped (SIGTERM or Ctrl-C)."""
    from server.bus import Topics, make_bus
    from server.bus.mqtt import parse_mqtt_url, shown_bus
    from server.cluster.worker import Worker, default_processes
    from server.persistence.jobs import JobResults
    from server.persistence.store import Store

    settings = settings_of(args)
    configure_logging(settings.log_level)
    try:
        parse_mqtt_url(args.bus)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    # ``module:Class`` bots named by the jobs are found from here, as a local run finds them.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    # The results keep a worker's name in 64 characters.
    name = args.name or f"{socket.gethostname()[:50]}-{os.getpid()}"
    if not 0 < len(name) <= 64:
        print("error: --name must be 1 to 64 characters", file=sys.stderr)
        return 2

    async def go() -> None:
        store = await Store.open(settings.db_url)
        worker = Worker(
            make_bus(args.bus, name),
            JobResults(store),
            Topics(settings.bus_prefix),
            name,
            args.workers or default_processes(),
        )
        await worker.start()
        print(f"cardtable worker {name} on {shown_bus(args.bus)} (Ctrl-C to stop)", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await worker.close()
        await store.close()

    asyncio.run(go())
    return 0
