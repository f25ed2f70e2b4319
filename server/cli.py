"""``cardtable``: one entry point for serving, playing, replaying and tools."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.settings import Settings, default_db_path, sqlite_file

if TYPE_CHECKING:
    from clients.terminal.replay import ReplaySource
    from server.persistence.store import StoredGame

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.schema.json"


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        dest="db_url",
        help="database URL (env CARDTABLE_DB_URL; default sqlite:///"
        f"{default_db_path()}, the same wherever the command runs)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="Multiplayer card-game server with bot players.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the websocket server")
    serve.add_argument("--host", help="interface to bind (env CARDTABLE_HOST; default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (env CARDTABLE_PORT; default 8765)")
    _add_db(serve)
    serve.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        help="log level (env CARDTABLE_LOG_LEVEL; default info)",
    )
    serve.add_argument("--grace", type=float, help="reconnect grace period, seconds (default 60)")
    serve.add_argument(
        "--disconnect-policy",
        choices=["bot", "wait", "forfeit"],
        help="what happens to an absent player's seat after the grace period (default bot)",
    )
    serve.add_argument("--bot-delay", type=float, help="seconds a bot waits before moving")
    serve.add_argument("--bot-workers", type=int, help="bot processes (0: a thread)")
    serve.add_argument(
        "--bus",
        help="join a cluster over this MQTT 5 broker, mqtt://HOST:PORT (env CARDTABLE_BUS; "
        "default: a single node; docs/cluster.md tells how a cluster works)",
    )
    serve.add_argument("--node", help="this node's unique name in the cluster (env CARDTABLE_NODE)")
    serve.add_argument(
        "--lease-seconds",
        type=float,
        help="seconds a table's lease lasts unrenewed: how soon another node takes over "
        "the tables of a dead one (default 5)",
    )
    serve.set_defaults(func=cmd_serve)

    games = sub.add_parser("games", help="list stored games")
    _add_db(games)
    games.add_argument(
        "--status",
        choices=["waiting", "live", "finished", "abandoned"],
        help="only games with this status",
    )
    games.add_argument("--limit", type=int, default=30, help="newest games to list (default 30)")
    games.set_defaults(func=cmd_games)

    rp = sub.add_parser("replay", help="step through a stored game in the terminal")
    rp.add_argument("game_id", type=int, help="the game's id (see `cardtable games`)")
    _add_db(rp)
    rp.add_argument(
        "--viewer",
        default=None,
        help="seat number, 'spectator' or 'all' (default: all if finished, else spectator)",
    )
    rp.add_argument(
        "--all", dest="print_all", action="store_true", help="print every step, no prompts"
    )
    rp.add_argument(
        "--dd",
        action="store_true",
        help="bridge: show each card played against the double-dummy score of every legal "
        "card, and each board's double-dummy table (ended games only; can take minutes)",
    )
    rp.set_defaults(func=cmd_replay)

    schema = sub.add_parser("schema", help="write the protocol's JSON Schema")
    schema.add_argument(
        "--out",
        type=Path,
        default=SCHEMA_PATH,
        help="file to write (default docs/protocol.schema.json)",
    )
    schema.add_argument(
        "--check", action="store_true", help="fail if the file differs from the code"
    )
    schema.set_defaults(func=cmd_schema)

    sd = sub.add_parser("showdown", help="rank poker hands and print their equities")
    sd.add_argument("hands", nargs="+", help="hole cards like AhKh, or ranges like QQ+,AKs")
    sd.add_argument("--board", default="", help="board cards, e.g. 'Qc 7d 2s'")
    sd.add_argument("--dead", default="", help="cards known to be out of play")
    sd.add_argument("--samples", type=int, help="Monte Carlo samples (default: exact if small)")
    sd.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    sd.set_defaults(func=cmd_showdown)

    tour = sub.add_parser(
        "tournament", help="bot-vs-bot match in the local arena (duplicate deals, 95%% CIs)"
    )
    tour.add_argument("--game", default="whist", help="game to play (default whist)")
    tour.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot names, assigned to seats in turn (default: all of the game's)",
    )
    tour.add_argument("--games", type=int, default=100, help="deals (seeds) to play")
    tour.add_argument(
        "--seed", type=int, default=1, help="seed the deals are derived from (default 1)"
    )
    tour.add_argument("--options", default="{}", help="table options as JSON")
    tour.add_argument("--budget", type=float, default=1.0, help="seconds per bot decision")
    tour.add_argument(
        "--no-duplicate",
        action="store_true",
        help="one seating per deal instead of every rotation of the lineup",
    )
    tour.add_argument(
        "--bus",
        help="hand the deals to `cardtable worker`s over this MQTT 5 broker "
        "(mqtt://HOST:PORT; needs --db, the database the workers record results in)",
    )
    _add_db(tour)
    tour.add_argument(
        "--retry-after",
        type=float,
        default=60.0,
        help="with --bus: seconds after which a deal with no result is handed out again",
    )
    tour.set_defaults(func=cmd_tournament)

    worker = sub.add_parser(
        "worker", help="play the deals of distributed tournaments (cardtable tournament --bus)"
    )
    worker.add_argument("--bus", required=True, help="the MQTT 5 broker, mqtt://HOST:PORT")
    _add_db(worker)
    worker.add_argument("--workers", type=int, help="deals played at once (default: the cores)")
    worker.add_argument("--name", help="this worker's name in the results (default: host-pid)")
    worker.set_defaults(func=cmd_worker)

    from clients.terminal.play import add_play_parser
    from server.solve_cmd import add_solve_parser

    add_play_parser(sub)
    add_solve_parser(sub)
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    keys = ("host", "port", "db_url", "log_level", "grace", "disconnect_policy")
    more = ("bot_delay", "bot_workers", "bus", "node", "lease_seconds")
    return Settings.from_env(**{k: getattr(args, k, None) for k in keys + more})


def cmd_serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    problem = _cluster_problem(settings)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.log_level != "debug":
        # websockets logs every connection and HTTP response at INFO.
        logging.getLogger("websockets").setLevel(logging.WARNING)
    from server.app import Server

    async def run() -> None:
        server = Server(settings)
        await server.start()
        tune_gc()
        where = f"node {settings.node} on {settings.bus}; " if settings.bus else ""
        print(
            f"cardtable serving on ws://{settings.host}:{server.port}/  "
            f"({where}database {settings.db_url}; Ctrl-C to stop)",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        logging.getLogger("cardtable.server").info("shutting down")
        await server.stop()

    _run_fast(run())
    return 0


def _cluster_problem(settings: Settings) -> str | None:
    """What is wrong with the cluster flags, if anything."""
    if not settings.bus:
        return None
    from server.bus import valid_node_name
    from server.bus.mqtt import parse_mqtt_url

    try:
        parse_mqtt_url(settings.bus)
    except ValueError as exc:
        return str(exc)
    if not valid_node_name(settings.node):
        return "--node NAME is required with --bus (letters, digits, _ and -; unique per node)"
    if settings.lease_seconds <= 0:
        return "--lease-seconds must be positive"
    return None


def tune_gc() -> None:
    """Collect garbage less often on a serving process: every action allocates
    hundreds of short-lived containers, so the default young-generation threshold
    (700) runs a collection about once per action and promotes survivors towards
    costly full collections.  What startup built (modules, schema, rules tables)
    lives as long as the process and is moved out of the collector's view."""
    gc.freeze()
    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(max(gen0, 20_000), gen1, gen2)


def _run_fast(coro: Any) -> None:
    """Run the server on uvloop where it is installed (Linux/macOS): the same asyncio
    API with a faster event loop; plain asyncio otherwise."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


class NoDatabase(Exception):
    """A read command was pointed at a SQLite file that does not exist."""


def _with_store(args: argparse.Namespace, fn: Callable[[Any], Any]) -> Any:
    """Run ``fn(store)`` on the configured database, for commands that only read it:
    a missing SQLite file is an error (opening it would create an empty database
    and report no games), raised as :class:`NoDatabase`."""
    from server.persistence.store import Store

    url = _settings(args).db_url
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise NoDatabase(
            f"error: no database at {path}\n"
            "Name the server's database with --db URL or CARDTABLE_DB_URL "
            f"(the default is {default_db_path()})."
        )

    async def run() -> Any:
        store = await Store.open(url)
        try:
            return await fn(store)
        finally:
            await store.close()

    return asyncio.run(run())


def cmd_games(args: argparse.Namespace) -> int:
    async def fetch(store: Any) -> Any:
        return await store.list_games(args.limit, args.status)

    try:
        rows = _with_store(args, fetch)
    except NoDatabase as exc:
        print(exc, file=sys.stderr)
        return 2
    if not rows:
        print("no stored games")
        return 0
    print(f"{'id':>5}  {'game':<8} {'status':<10} {'actions':>7}  {'created':<19}  result")
    for g, n in rows:
        summary = (g.result or {}).get("summary", "")
        created = g.created_at.strftime("%Y-%m-%d %H:%M:%S")
        print(f"{g.id:>5}  {g.game_type:<8} {g.status:<10} {n:>7}  {created:<19}  {summary}")
    return 0


def replay_source(stored: StoredGame) -> ReplaySource:
    """The terminal replay UI's view of a stored game: its seat names from the
    rules, and its steps from the server's replay builder."""
    from clients.terminal.replay import ReplaySource
    from rules.registry import get_game
    from server.replay import build_replay

    game = get_game(stored.game_type)

    def fetch(viewer: int | str, start: int, limit: int, analysis: bool) -> dict[str, Any]:
        return build_replay(stored, viewer, start, limit, analysis=analysis)

    return ReplaySource(
        game_id=stored.id,
        game_type=stored.game_type,
        status=stored.status,
        result=stored.result,
        names=list(game.seat_names(game.parse_config(stored.config))),
        fetch=fetch,
    )


def cmd_replay(args: argparse.Namespace) -> int:
    from clients.terminal.replay import run_replay

    async def fetch(store: Any) -> Any:
        return await store.get_game(args.game_id)

    try:
        stored = _with_store(args, fetch)
    except NoDatabase as exc:
        print(exc, file=sys.stderr)
        return 2
    if stored is None:
        print(f"no stored game {args.game_id}", file=sys.stderr)
        return 2
    return run_replay(replay_source(stored), args.viewer, args.print_all, dd=args.dd)


def cmd_showdown(args: argparse.Namespace) -> int:
    from rules.poker import showdown_report
    from rules.poker.evaluator import HandError
    from rules.poker.ranges import RangeError

    try:
        print(
            showdown_report(
                args.hands, board=args.board, dead=args.dead, samples=args.samples, seed=args.seed
            )
        )
    except (HandError, RangeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from bots.arena import derive_seeds, mean_ci, run
    from bots.base import bot_names, make_bot
    from engine.errors import IllegalAction
    from rules.registry import get_game

    try:
        game = get_game(args.game)
        config = game.parse_config(json.loads(args.options))
        names = args.bots.split(",") if args.bots else bot_names(args.game)
        seats = game.seat_count(config)
        lineup = [
            (f"{names[i % len(names)]}@{i}", make_bot(args.game, names[i % len(names)]))
            for i in range(seats)
        ]
    except (IllegalAction, ValueError) as exc:
        print(f"error: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    seeds = derive_seeds(args.seed, args.games)
    if args.bus:
        shared = {
            "game": game.name,
            "options": json.loads(args.options),
            "bots": [names[i % len(names)] for i in range(seats)],
            "duplicate": not args.no_duplicate,
            "budget": args.budget,
        }
        result = _distributed(args, shared, seeds)
    else:
        result = run(
            game, config, lineup, seeds, duplicate=not args.no_duplicate, budget=args.budget
        )
    print(
        f"{game.title}: {result.games} games ({args.games} deals"
        f"{', every seating' if not args.no_duplicate else ''}), "
        f"{result.actions} actions, {result.seconds:.1f}s"
    )
    print(f"{'bot':<16} {'mean score/game':>16}  95% CI")
    by_bot: dict[str, list[str]] = {}
    for seat_name, _ in lineup:
        by_bot.setdefault(seat_name.split("@")[0], []).append(seat_name)
    for bot, seat_names in by_bot.items():
        per_seed = [
            sum(result.per_seed[n][k] for n in seat_names) / len(seat_names)
            for k in range(len(seeds))
        ]
        mean, half = mean_ci(per_seed)
        low, high = _score(mean - half, "+"), _score(mean + half, "+")
        print(f"{bot:<16} {_score(mean):>16}  [{low}, {high}]")
    if result.illegal:
        print(f"{result.illegal} illegal bot answers were replaced by random legal actions")
    return 0


def _distributed(args: argparse.Namespace, shared: dict[str, Any], seeds: list[int]) -> Any:
    """A tournament's deals played by workers over the bus (server/cluster/jobs.py)."""
    from server.bus import Topics, make_bus
    from server.cluster.jobs import run_distributed
    from server.persistence.jobs import JobResults
    from server.persistence.store import Store

    settings = _settings(args)

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
    import os
    import socket

    from server.bus import Topics, make_bus
    from server.bus.mqtt import parse_mqtt_url
    from server.cluster.jobs import Worker, default_processes
    from server.persistence.jobs import JobResults
    from server.persistence.store import Store

    settings = _settings(args)
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


def _score(value: float, sign: str = "") -> str:
    """A mean score: an integral one as an integer (``-653``), else three decimals."""
    if float(value).is_integer():
        return f"{int(value):{sign}d}"
    return f"{value:{sign}.3f}"


def cmd_schema(args: argparse.Namespace) -> int:
    from protocol.schema import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if args.check:
        current = args.out.read_text() if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date; run `cardtable schema`", file=sys.stderr)
            return 1
        print(f"{args.out} matches the protocol models")
        return 0
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
