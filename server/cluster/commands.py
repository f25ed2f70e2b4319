"""`cardtable tournament --bus …` and `cardtable worker`: a tournament's deals played
by workers on other machines (docs/cluster.md, "Distributed tournaments").

A distributed run plays the arena's lineup — the listed bots round the table, every
seating of each deal — and prints the mean score per game of each bot with its t
interval, the standings a local arena run prints for the same seeds; it is not stored
as a tournament and does not move ratings (docs/decisions.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import sys
from typing import Any

from bots.arena import mean_ci
from server.cli_common import settings_of
from server.tournament.commands import score_text


def distributed_tournament(args: argparse.Namespace) -> int:
    """Publish the deals on the bus, wait for every result, print the standings."""
    from bots.arena import derive_seeds
    from bots.base import bot_names, make_bot
    from engine.errors import IllegalAction
    from rules.registry import get_game

    if args.remote_seat:
        print("error: --remote-seat and --bus do not go together", file=sys.stderr)
        return 2
    try:
        game = get_game(args.game)
        options = json.loads(args.options)
        config = game.parse_config(options)
        names = args.bots.split(",") if args.bots else bot_names(args.game)
        seats = game.seat_count(config)
        lineup = [names[i % len(names)] for i in range(seats)]
        for name in set(lineup):
            make_bot(args.game, name)  # an unknown name fails here, not on the workers
    except (IllegalAction, ValueError) as exc:
        print(f"error: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    seeds = derive_seeds(args.seed, args.games)
    shared = {
        "game": game.name,
        "options": options,
        "bots": lineup,
        "duplicate": not args.no_duplicate,
        "budget": args.budget,
    }
    result = _run(args, shared, seeds)
    for line in standings_lines(game.title, lineup, args.games, not args.no_duplicate, result):
        print(line)
    return 0


def standings_lines(
    title: str, lineup: list[str], deals: int, duplicate: bool, result: Any
) -> list[str]:
    """The standings of an arena result (``lineup``: the bot at each seat): the
    mean score per game of each bot with its t interval, and the time last."""
    lines = [
        f"{title}: {result.games} games ({deals} deals"
        f"{', every seating' if duplicate else ''}), "
        f"{result.actions} actions, {result.seconds:.1f}s",
        f"{'bot':<16} {'mean score/game':>16}  95% CI",
    ]
    by_bot: dict[str, list[str]] = {}
    for seat, name in enumerate(lineup):
        by_bot.setdefault(name, []).append(f"{name}@{seat}")
    for bot, seat_names in by_bot.items():
        per_seed = [
            sum(result.per_seed[n][k] for n in seat_names) / len(seat_names)
            for k in range(deals)
        ]
        mean, half = mean_ci(per_seed)
        low, high = score_text(mean - half, "+"), score_text(mean + half, "+")
        lines.append(f"{bot:<16} {score_text(mean):>16}  [{low}, {high}]")
    if result.illegal:
        lines.append(
            f"{result.illegal} illegal bot answers were replaced by random legal actions"
        )
    return lines


def _run(args: argparse.Namespace, shared: dict[str, Any], seeds: list[int]) -> Any:
    from server.bus import Topics, make_bus
    from server.cluster.jobs import run_distributed
    from server.persistence.jobs import JobResults
    from server.persistence.store import Store

    settings = settings_of(args)

    async def go() -> Any:
        store = await Store.open(settings.db_url)
        try:
            bus = make_bus(args.bus, "coordinator")
            return await run_distributed(
                bus,
                JobResults(store),
                Topics(settings.bus_prefix),
                shared,
                seeds,
                retry_after=args.retry_after,
            )
        finally:
            await store.close()

    return asyncio.run(go())


def cmd_worker(args: argparse.Namespace) -> int:
    """Play distributed tournaments' deals until stopped (SIGTERM or Ctrl-C)."""
    from server.bus import Topics, make_bus
    from server.bus.mqtt import parse_mqtt_url
    from server.cluster.jobs import Worker, default_processes
    from server.persistence.jobs import JobResults
    from server.persistence.store import Store

    settings = settings_of(args)
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        parse_mqtt_url(args.bus)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"

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
        print(f"cardtable worker {name} on {args.bus} (Ctrl-C to stop)", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await worker.close()
        await store.close()

    asyncio.run(go())
    return 0
