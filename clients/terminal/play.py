"""``cardtable play``: play a game in the terminal against bots over the websocket
protocol.  The command's options and entry point; the client is in client.py."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clients.terminal.client import PlayClient, Reader, Writer
from clients.terminal.console import Console
from clients.terminal.session import ANALYSIS_WAIT, DEFAULT_STATE, DEFAULT_URL, PlayOptions, Session

MAX_TURN_SECONDS, MAX_TIME_BANK = 3600, 36000  # the server's limits (create_table)


def add_play_parser(sub: Any, default_game: str) -> None:
    """Register ``cardtable play`` on the CLI's subparsers; ``default_game``: what
    ``--game`` is when not given (the CLI passes the registry's)."""
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description=(
            "Connect to a cardtable server, sit at a table (bots fill the other seats) "
            "and play from the terminal. Type a menu number or a card (AS, 10h, T♥)."
        ),
    )
    p.add_argument(
        "--url",
        default=None,
        help=f"server websocket URL (env CARDTABLE_URL; default {DEFAULT_URL})",
    )
    p.add_argument(
        "--game", default=default_game, help=f"game to create a table for (default {default_game})"
    )
    p.add_argument("--options", default="{}",
                   help="table options as JSON, e.g. '{\"deals\": 2}'; 'help' lists the "
                   "game's options as the server describes them")
    p.add_argument("--name", help="your player name")
    p.add_argument(
        "--seat", type=int, help="seat to take (default 0 at a new table, else the first free)"
    )
    p.add_argument("--table", type=int, help="join this existing table instead of creating one")
    p.add_argument(
        "--start",
        action="store_true",
        help="with --table: start the game at once, filling empty seats with bots",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="reconnect to the game saved in the state file (e.g. after a server restart)",
    )
    p.add_argument(
        "--state",
        type=Path,
        default=None,
        help=f"session state file (default {DEFAULT_STATE})",
    )
    p.add_argument("--verbose", action="store_true", help="print the whole table after every move")
    p.add_argument(
        "--analysis-wait",
        type=float,
        default=ANALYSIS_WAIT,
        help="for a game with an analysis of its boards (double dummy, say): seconds to "
        f"wait at the end for the last board's (default {ANALYSIS_WAIT:g}; 0: do not wait)",
    )
    p.add_argument(
        "--retry",
        type=float,
        default=30.0,
        help="seconds to keep trying to reconnect after a dropped connection (default 30)",
    )
    p.add_argument(
        "--turn-seconds",
        type=_seconds(MAX_TURN_SECONDS),
        metavar="S",
        help="a new table's turn clock: S seconds a move; when they (and any time bank) "
        f"run out, a bot moves for the player (at most {MAX_TURN_SECONDS})",
    )
    p.add_argument(
        "--time-bank",
        type=_seconds(MAX_TIME_BANK),
        metavar="S",
        help="with --turn-seconds: S more seconds per player for the whole game, "
        f"drawn on when a move's time runs out (at most {MAX_TIME_BANK})",
    )
    p.set_defaults(func=cmd_play)


def _seconds(limit: int) -> Callable[[str], float]:
    """An argparse type: a number of seconds in (0, limit]."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if not 0 < value <= limit:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {limit}")
        return value

    return parse


def cmd_play(args: argparse.Namespace) -> int:
    """The ``play`` subcommand: run the client on stdin/stdout."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            # Line editing at the prompt, and the console can re-print what was typed.
            import readline  # noqa: F401
    try:
        return asyncio.run(run_play(args))
    except KeyboardInterrupt:
        print(f"\ninterrupted; come back with: {resume_command(args)}")
        return 130


async def run_play(
    args: argparse.Namespace, read: Reader | None = None, write: Writer | None = None
) -> int:
    """Run ``cardtable play`` with parsed ``args``; returns the exit code.  Without
    ``read``/``write`` it talks to the terminal through :data:`CONSOLE`."""
    out: Writer = write or CONSOLE.write
    list_options = args.options.strip().lower() == "help"
    try:
        options = {} if list_options else json.loads(args.options)
    except ValueError as exc:
        out(f"error: --options is not valid JSON: {exc}")
        return 2
    if not isinstance(options, dict):
        out("error: --options must be a JSON object")
        return 2
    turn_seconds = getattr(args, "turn_seconds", None)
    time_bank = getattr(args, "time_bank", None)
    if time_bank is not None and turn_seconds is None:
        out("error: --time-bank needs --turn-seconds (the bank adds to each turn's time)")
        return 2
    if turn_seconds is not None and (args.resume or args.table is not None):
        out(
            "error: --turn-seconds and --time-bank set the clock of a new table; "
            "a table you join or resume keeps its own"
        )
        return 2
    state_path = args.state or DEFAULT_STATE
    saved: Session | None = None
    if args.resume:
        saved = Session.load(state_path)
        if saved is None:
            out(f"error: no saved session in {state_path}")
            return 2
        if saved.table is None:
            out(f"error: the session in {state_path} has no game in progress")
            return 2
    url = args.url or (saved.url if saved else None) or os.environ.get("CARDTABLE_URL")
    opts = PlayOptions(
        url=url or DEFAULT_URL,
        game=args.game,
        options=options,
        list_options=list_options,
        name=args.name,
        seat=args.seat,
        table=args.table,
        start=args.start,
        resume=args.resume,
        state_path=state_path,
        verbose=args.verbose,
        retry=args.retry,
        analysis_wait=getattr(args, "analysis_wait", ANALYSIS_WAIT),
        turn_seconds=turn_seconds,
        time_bank=time_bank,
    )
    retitle = CONSOLE.retitle if read is None else None
    client = PlayClient(opts, read or CONSOLE.read, out, saved, retitle)
    return await client.run()


def resume_command(args: argparse.Namespace) -> str:
    extra = f" --state {args.state}" if getattr(args, "state", None) else ""
    return f"cardtable play --resume{extra}"


# The process's one terminal: prompts and lines go through it (see console.py).
# The process's one terminal: prompts and lines go through it (see console.py).
CONSOLE = Console()
