"""The games' own command-line tools (``Game.tools``, engine/tools.py) as
``cardtable`` subcommands: one generic runner does their I/O.

The runner parses the arguments a tool describes, reads the files it takes, hands
the values to the tool's pure ``run``, writes the files it returns, prints its
text piece by piece (with a progress bar on stderr for a tool that counts steps)
and turns bad input into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.tools import ArgKind, InputFile, Tool, ToolArgument, ToolError


def add_tool_parsers(sub: Any, found: Sequence[Tool] | None = None) -> None:
    """Register every game's tools, found through the registry (or ``found``)."""
    from rules.registry import tools

    for tool in tools() if found is None else found:
        p = sub.add_parser(tool.name, help=tool.help, description=tool.description or None)
        for arg in tool.arguments:
            _add_argument(p, arg)
        p.set_defaults(func=lambda args, tool=tool: run_tool(tool, args))


def _add_argument(p: argparse.ArgumentParser, arg: ToolArgument) -> None:
    extra: dict[str, Any] = {}
    if arg.positional:
        if arg.many:
            extra["nargs"] = "+"
        elif arg.optional:
            extra["nargs"] = "?"
    else:
        extra["dest"] = arg.key
        if arg.required:
            extra["required"] = True
    if arg.kind is ArgKind.FLAG:
        p.add_argument(arg.name, action="store_true", help=arg.help, **extra)
        return
    kind = {ArgKind.INT: int, ArgKind.INPUT: Path, ArgKind.OUTPUT: Path}.get(arg.kind, str)
    p.add_argument(arg.name, type=kind, default=arg.default, help=arg.help, **extra)


def run_tool(
    tool: Tool, args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run ``tool`` on parsed ``args``: 0, or 2 after one line on ``err`` for bad input."""
    from bots.progress import Progress

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        values = {arg.key: _value(arg, getattr(args, arg.key)) for arg in tool.arguments}
        output = tool.run(values)
        for key, data in output.files.items():
            Path(values[key]).write_bytes(data)
        label = output.step_label or "steps"
        bar = Progress(output.steps, err, label=label) if output.steps else None
        for done, piece in enumerate(output.text, 1):
            out.write(piece)
            out.flush()
            if bar is not None:
                bar.update(done)
    except ToolError as exc:
        where = f" [{exc.code}]" if exc.code else ""
        print(f"error{where}: {exc.message}", file=err)
        return 2
    except BrokenPipeError:
        raise  # the reader of our output went away (`| head`): the CLI ends quietly
    except OSError as exc:  # a file that cannot be read or written
        print(f"error [bad_input]: {exc}", file=err)
        return 2
    return 0


def _value(arg: ToolArgument, given: Any) -> Any:
    """What ``run`` gets for an argument: an input file's name and bytes, an output
    file's name, a tuple for many values, else the value itself."""
    if given is None:
        return None
    if arg.kind is ArgKind.INPUT:
        return InputFile(str(given), Path(given).read_bytes())
    if arg.kind is ArgKind.OUTPUT:
        return str(given)
    if arg.many:
        return tuple(given)
    return given
