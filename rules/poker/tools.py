"""Poker's command-line tool: ``cardtable showdown`` (engine/tools.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.tools import ArgKind, Tool, ToolArgument, ToolError, ToolOutput
from rules.poker.equity import showdown_report


def _showdown(args: Mapping[str, Any]) -> ToolOutput:
    try:
        report = showdown_report(
            list(args["hands"]), board=args["board"], dead=args["dead"],
            samples=args["samples"], seed=args["seed"],
        )
    except ValueError as exc:  # a bad hand, range or card count (HandError, RangeError)
        raise ToolError(str(exc)) from None
    return ToolOutput(text=(report + "\n",))


SHOWDOWN = Tool(
    name="showdown",
    help="rank poker hands and print their equities",
    arguments=(
        ToolArgument("hands", "hole cards like AhKh, or ranges like QQ+,AKs", many=True),
        ToolArgument("--board", "board cards, e.g. 'Qc 7d 2s'", default=""),
        ToolArgument("--dead", "cards known to be out of play", default=""),
        ToolArgument("--samples", "Monte Carlo samples (default: exact if small)",
                     ArgKind.INT),
        ToolArgument("--seed", "Monte Carlo seed (default 0)", ArgKind.INT, default=0),
    ),
    run=_showdown,
)
