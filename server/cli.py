"""``cardtable``: one entry point for serving, playing, replaying and tools."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rules.registry import DEFAULT_GAME
from server.cli_common import (
    NoDatabase,
    add_db,
    configure_logging,
    positive,
    record_id,
    settings_of,
    with_store,
)
from server.settings import (
    BadSetting,
    DatabaseUnavailable,
    Settings,
    corrupt_database,
    shown_url,
)

if TYPE_CHECKING:
    from clients.terminal.replay import ReplaySource
    from server.persistence.store import StoredGame

T = TypeVar("T")

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.schema.json"


def build_parser(with_tools: bool = True) -> argparse.ArgumentParser:
    """Every command; ``with_tools``: with the games' own tools (``Game.tools``),
    which means loading every game's rules."""
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="Multiplayer card-game server with bot players.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the websocket server")
    serve.add_argument("--host", help="interface to bind (env CARDTABLE_HOST; default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (env CARDTABLE_PORT; default 8765)")
    add_db(serve)
    serve.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error", "critical"],
        help="log level (env CARDTABLE_LOG_LEVEL; default info)",
    )
    serve.add_argument("--grace", type=float,
                       help="reconnect grace period, seconds (env CARDTABLE_GRACE; default 60)")
    serve.add_argument(
        "--disconnect-policy",
        choices=["bot", "wait", "forfeit"],
        help="what happens to an absent player's seat after the grace period "
        "(env CARDTABLE_DISCONNECT_POLICY; default bot)",
    )
    serve.add_argument("--bot-delay", type=float, help="seconds a bot waits before moving "
                       "(env CARDTABLE_BOT_DELAY; default 0.4)")
    serve.add_argument("--bot-workers", type=int, help="bot processes, 0: a thread "
                       "(env CARDTABLE_BOT_WORKERS; default 2)")
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
        "the tables of a dead one (env CARDTABLE_LEASE_SECONDS; default 5)",
    )
    serve.set_defaults(func=cmd_serve)

    games = sub.add_parser("games", help="list stored games")
    add_db(games)
    games.add_argument(
        "--status",
        choices=["waiting", "live", "finished", "abandoned"],
        help="only games with this status",
    )
    games.add_argument("--limit", type=positive, default=30,
                       help="newest games to list (default 30)")
    games.set_defaults(func=cmd_games)

    rp = sub.add_parser("replay", help="step through a stored game in the terminal")
    rp.add_argument("game_id", type=record_id, help="the game's id (see `cardtable games`)")
    add_db(rp)
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
        help="for a game with an analysis (double dummy, say): show each action against the "
        "analysis of every legal one, and each board's analysis (ended games only; can take "
        "minutes)",
    )
    rp.set_defaults(func=cmd_replay)

    schema = sub.add_parser("schema", help="write the protocol's JSON Schema")
    schema.add_argument(
        "--out",
        type=Path,
        default=SCHEMA_PATH,
        help="file to write (default: this checkout's docs/protocol.schema.json)",
    )
    schema.add_argument(
        "--check", action="store_true", help="fail if the file differs from the code"
    )
    schema.set_defaults(func=cmd_schema)

    _add_tournament_parsers(sub)

    from clients.terminal.play import add_play_parser
    from server.files_cmd import add_files_parsers
    from server.stats_cmd import add_stats_parser
    from server.tools_cmd import add_tool_parsers

    add_play_parser(sub, DEFAULT_GAME)
    if with_tools:
        add_tool_parsers(sub)
    add_files_parsers(sub)
    add_stats_parser(sub)
    return parser


def _add_tournament_parsers(sub: Any) -> None:
    tour = sub.add_parser(
        "tournament",
        help="bot-vs-bot tournament: duplicate deals, ratings, t intervals, stored results",
    )
    tour.add_argument("--game", default=DEFAULT_GAME, help=f"game to play (default {DEFAULT_GAME})")
    tour.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots: registry names, installed cardtable.bots entry points "
        "or module:Class (default: all of the game's)",
    )
    tour.add_argument(
        "--remote-seat",
        action="append",
        metavar="NAME",
        help="a websocket bot entrant: the tournament's tables run in a server and wait for "
        "a program to connect as NAME with the printed tournament token (repeatable)",
    )
    tour.add_argument(
        "--games", type=int, default=100, help="deals per pairing (Swiss: per round; default 100)"
    )
    tour.add_argument(
        "--schedule",
        choices=["round-robin", "swiss"],
        default="round-robin",
        help="who meets whom when there are more than two bots (default round-robin)",
    )
    tour.add_argument("--rounds", type=int, help="Swiss rounds (default ceil(log2 bots))")
    tour.add_argument(
        "--seed", type=int, default=1, help="seed the deals are derived from (default 1)"
    )
    tour.add_argument("--options", default="{}",
                      help="table options as JSON ('help' lists the game's options)")
    tour.add_argument("--budget", type=float, default=1.0,
                      help="seconds per bot decision (default 1)")
    tour.add_argument(
        "--no-duplicate",
        action="store_true",
        help="one seating per deal instead of every seating of the pair",
    )
    tour.add_argument(
        "--workers", type=int, default=0, help="bot processes (default 0: one thread)"
    )
    tour.add_argument("--plot", type=Path, help="write the charts to FILE (.png or .svg)")
    tour.add_argument(
        "--no-store", action="store_true", help="do not keep the results in the database"
    )
    tour.add_argument(
        "--fresh-ratings",
        action="store_true",
        help="start every bot at the default rating instead of its last stored one",
    )
    tour.add_argument("--host", default="127.0.0.1", help="--remote-seat: interface to serve on")
    tour.add_argument(
        "--port", type=int, default=0, help="--remote-seat: port (default 0: any free one)"
    )
    tour.add_argument(
        "--connect-timeout",
        type=float,
        default=60.0,
        help="--remote-seat: seconds to wait for the remote bot to connect (default 60)",
    )
    tour.add_argument(
        "--bus",
        help="hand the games to `cardtable worker`s over this MQTT 5 broker "
        "(mqtt://HOST:PORT); they record results in the same --db",
    )
    tour.add_argument(
        "--retry-after",
        type=float,
        default=60.0,
        help="with --bus: seconds after which a game with no result is handed out again",
    )
    tour.add_argument(
        "--resume",
        type=record_id,
        metavar="ID",
        help="finish stored tournament ID that stopped (its own game, bots and schedule; "
        "the matches stored are kept, the rest played)",
    )
    add_db(tour)
    tour.set_defaults(
        func=cmd_tournament,
        # What a resumed tournament reads from the database; given with --resume, refused.
        setup_defaults={
            flag: (dest, tour.get_default(dest))
            for dest, flag in (
                ("game", "--game"),
                ("bots", "--bots"),
                ("games", "--games"),
                ("schedule", "--schedule"),
                ("rounds", "--rounds"),
                ("seed", "--seed"),
                ("options", "--options"),
                ("budget", "--budget"),
                ("no_duplicate", "--no-duplicate"),
                ("fresh_ratings", "--fresh-ratings"),
            )
        },
    )

    ts = sub.add_parser("tournaments", help="list stored tournaments")
    add_db(ts)
    ts.add_argument("--limit", type=positive, default=30, help="newest to list (default 30)")
    ts.set_defaults(func=cmd_tournaments)

    st = sub.add_parser("standings", help="a stored tournament's standings and matches")
    st.add_argument("tournament_id", type=record_id, help="the tournament's id")
    add_db(st)
    st.add_argument("--plot", type=Path, help="write the charts to FILE (.png or .svg)")
    st.set_defaults(func=cmd_standings)

    worker = sub.add_parser(
        "worker", help="play the games of distributed tournaments (cardtable tournament --bus)"
    )
    worker.add_argument("--bus", required=True, help="the MQTT 5 broker, mqtt://HOST:PORT")
    add_db(worker)
    worker.add_argument("--workers", type=int, help="games played at once (default: the cores)")
    worker.add_argument("--name", help="this worker's name in the results (default: host-pid)")
    worker.set_defaults(func=cmd_worker)


def cmd_serve(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    problem = _cluster_problem(settings)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from server.app import Server
    from server.bus.mqtt import shown_bus
    from server.cluster.joining import CannotJoin
    from server.persistence.serving import DatabaseInUse

    async def run() -> int:
        server = Server(settings)
        try:
            await server.start()
        except OSError as exc:  # the port taken, the address not this machine's...
            await server.stop()  # what did start (the bot pool, the store) ends here
            print(f"error: cannot serve on {settings.host}:{settings.port}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
        except (CannotJoin, DatabaseInUse) as exc:
            await server.stop()
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:
            if corrupt_database(exc) is not None:  # main() says it in one line
                await server.stop()  # the bot pool and the store end here too
            raise
        tune_gc()
        where = f"node {settings.node} on {shown_bus(settings.bus)}; " if settings.bus else ""
        print(
            f"cardtable serving on ws://{settings.host}:{server.port}/  "
            f"({where}database {shown_url(settings.db_url)}; Ctrl-C to stop)",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        logging.getLogger("cardtable.server").info("shutting down")
        await server.stop()
        return 0

    return _run_fast(run())


def _cluster_problem(settings: Settings) -> str | None:
    """What is wrong with the cluster flags, if anything."""
    if not settings.bus:
        # A name without a bus names nothing (and /health would report it).
        return "--node names a node of a cluster: give --bus too" if settings.node else None
    from server.bus import valid_node_name
    from server.bus.mqtt import parse_mqtt_url

    try:
        parse_mqtt_url(settings.bus)
    except ValueError as exc:
        return str(exc)
    if not settings.node:
        return "--node NAME is required with --bus (letters, digits, _ and -; unique per node)"
    if not valid_node_name(settings.node):
        return (f"--node {settings.node!r} is not a node name: letters, digits, _ and -, "
                "at most 64")
    return None  # (the lease's range is the settings' own check)


def tune_gc() -> None:
    """Collect garbage less often on a serving process: every action allocates
    hundreds of short-lived containers, so the default young-generation threshold
    (700) runs a collection about once per action and promotes survivors towards
    costly full collections.  What startup built (modules, schema, rules tables)
    lives as long as the process and is moved out of the collector's view."""
    gc.freeze()
    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(max(gen0, 20_000), gen1, gen2)


def _run_fast(coro: Coroutine[Any, Any, T]) -> T:
    """Run the server on uvloop where it is installed (Linux/macOS): the same asyncio
    API with a faster event loop; plain asyncio otherwise."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def cmd_games(args: argparse.Namespace) -> int:
    from server.records import result_summary

    async def fetch(store: Any) -> Any:
        return await store.list_games(args.limit, args.status)

    rows = with_store(args, fetch)
    if not rows:
        print("no stored games")
        return 0
    wide = max(8, *(len(g.game_type) for g, _ in rows))  # crazy_eights is 12
    print(f"{'id':>5}  {'game':<{wide}} {'status':<10} {'actions':>7}  {'created':<19}  result")
    for g, n in rows:
        summary = result_summary(g)
        created = g.created_at.strftime("%Y-%m-%d %H:%M:%S")
        print(f"{g.id:>5}  {g.game_type:<{wide}} {g.status:<10} {n:>7}  {created:<19}  {summary}")
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

    stored = with_store(args, fetch)
    if stored is None:
        print(f"no stored game {args.game_id}", file=sys.stderr)
        return 2
    return run_replay(replay_source(stored), args.viewer, args.print_all, dd=args.dd)


def cmd_tournament(args: argparse.Namespace) -> int:
    from server.tournament.commands import run_command

    if args.options.strip().lower() == "help":
        from clients.terminal.session import options_text
        from rules.registry import get_game

        game = get_game(args.game)
        print("\n".join(options_text(args.game, game.options_schema())))
        return 0
    db_url = None if args.no_store else Settings.from_env(db_url=args.db_url).db_url
    return run_command(args, db_url)


def cmd_worker(args: argparse.Namespace) -> int:
    from server.cluster.commands import cmd_worker as run_worker

    return run_worker(args)


def cmd_tournaments(args: argparse.Namespace) -> int:
    from server.persistence.results import Results
    from server.tournament.commands import print_tournaments

    async def fetch(store: Any) -> Any:
        return await Results(store).list_tournaments(args.limit)

    rows = with_store(args, fetch)
    print_tournaments(rows, sys.stdout)
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    from server.persistence.results import Results
    from server.tournament.commands import print_standings
    from server.tournament.page import stored_chart
    from server.tournament.plot import PlotError, save

    async def fetch(store: Any) -> Any:
        return await Results(store).get_tournament(args.tournament_id)

    stored = with_store(args, fetch)
    if stored is None:
        print(f"no stored tournament {args.tournament_id}", file=sys.stderr)
        return 2
    print_standings(stored, sys.stdout)
    if args.plot is not None:
        try:
            save(stored_chart(stored), args.plot)
        except (PlotError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"plot written to {args.plot}")
    return 0


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


# The exit status when whoever reads the output stops early: 128 + SIGPIPE, what a
# command killed by SIGPIPE (``seq 1000000 | head``) gives, so ``set -o pipefail``
# sees the same as with any other command, and an output cut short is not success.
BROKEN_PIPE_STATUS = 141


def main(argv: list[str] | None = None) -> int:
    """Run a command; its output piped into a reader that stops early (``| head``)
    ends it quietly instead of with a BrokenPipeError traceback."""
    try:
        try:
            result = _main(argv)
        except SystemExit:
            sys.stdout.flush()  # --help and argparse's errors: written, exiting
            raise
        sys.stdout.flush()  # here, not at exit, where the error is only reported
        return result
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Point stdout at the null device: what is still buffered would fail
    again, with a message, when the interpreter flushes it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (captured)
        pass
    return BROKEN_PIPE_STATUS


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Listing the games' tools loads every game's rules (over a second): a command
    # of the CLI's own is parsed without them.
    parser = build_parser(with_tools=False)
    if not argv or argv[0] not in _commands(parser):
        parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except (NoDatabase, BadSetting, DatabaseUnavailable) as exc:  # a database; a setting
        print(exc if isinstance(exc, NoDatabase) else f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        damage = corrupt_database(exc)
        if damage is None:
            raise
        print(f"error: the database cannot be read: {damage} (restore it from a backup: "
              "docs/operations.md)", file=sys.stderr)
        return 2
    return result


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    """The names of ``parser``'s subcommands."""
    return {
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    }


if __name__ == "__main__":
    sys.exit(main())
