"""`cardtable stats [--game NAME] [PLAYER]`: per-player statistics over stored games.

Each game's statistics come from its rules (``Game.statistics``, docs/architecture.md,
"Statistics"); this command only gathers stored games as game records and prints
the table the rules return, whatever the game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from engine.formats import GameRecord
from engine.statistics import StatTable, Value
from server.cli_common import add_db, positive, with_store
from server.records import stored_records


def add_stats_parser(sub: Any) -> None:
    """Register the ``stats`` subcommand."""
    p = sub.add_parser(
        "stats",
        help="per-player statistics the rules keep over stored games",
    )
    p.add_argument("player", nargs="?", help="only this player (default: everyone)")
    p.add_argument("--game", help="only this game (default: every game that keeps statistics)")
    p.add_argument(
        "--limit", type=positive, default=10_000, help="newest stored games to read (default 10000)"
    )
    add_db(p)
    p.set_defaults(func=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    from rules.registry import available, get_game

    if args.game is not None and args.game not in available():
        print(f"error: no game named {args.game!r}; known: {', '.join(available())}",
              file=sys.stderr)
        return 2
    # A game keeps statistics when its hook answers even for no games at all.
    wanted = [g for g in ([args.game] if args.game else available())
              if get_game(g).statistics([]) is not None]

    async def fetch(store: Any) -> dict[str, list[GameRecord]]:
        return {name: await stored_records(store, name, args.limit) for name in wanted}

    records = with_store(args, fetch)
    shown = 0
    for name in wanted:
        game = get_game(name)
        table = game.statistics(records[name]) if records[name] else None
        if table is None:
            continue
        rows = {p: v for p, v in table.rows.items() if args.player in (None, p)}
        if not rows:
            continue
        print(f"{game.title} ({len(records[name])} stored games)")
        print(render(table, rows))
        shown += 1
    if not shown:
        who = f" for {args.player}" if args.player else ""
        print(f"no statistics{who}")
    return 0


def _cell(value: Value, unit: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return f"{value:.1f}" if unit == "%" else f"{value:.2f}"


def render(table: StatTable, rows: Mapping[str, Sequence[Value]] | None = None) -> str:
    """A plain-text table: a header of the column names, one line per player, then
    what each column measures."""
    body = table.rows if rows is None else rows
    header = ["player", *(c.name for c in table.columns)]
    lines = [[p, *(_cell(v, c.unit) for v, c in zip(vals, table.columns, strict=True))]
             for p, vals in body.items()]
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )

    notes = [f"  {c.name}: {c.description} ({c.unit})" for c in table.columns]
    return "\n".join([fmt(header), *(fmt(r) for r in lines), *notes])
