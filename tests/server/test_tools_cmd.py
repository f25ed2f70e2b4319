"""The generic runner of the games' command-line tools (server/tools_cmd.py,
engine/tools.py): arguments as described, files read and written by the runner,
text printed piece by piece with progress, bad input as one coded line."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.tools import ArgKind, Tool, ToolArgument, ToolError, ToolOutput
from rules.registry import GAMES, get_game, tools
from server.cli import build_parser, main
from server.tools_cmd import add_tool_parsers, run_tool


def _upper(args: Mapping[str, Any]) -> ToolOutput:
    """Upper-cases the input file into the output file, one line of text a step."""
    if args["words"] == ("fail",):
        raise ToolError("asked to fail", "bad_words" if args["coded"] else None)
    text = args["source"].text()

    def pieces() -> Iterator[str]:
        for line in text.splitlines():
            yield f"{args['times'] * line}\n"

    files = {"target": text.upper().encode()} if args["target"] else {}
    return ToolOutput(text=pieces(), steps=len(text.splitlines()), step_label="lines",
                      files=files)


UPPER = Tool(
    name="upper",
    help="upper-case a file",
    arguments=(
        ToolArgument("words", "words", many=True),
        ToolArgument("--source", "file read", ArgKind.INPUT, required=True),
        ToolArgument("--target", "file written", ArgKind.OUTPUT),
        ToolArgument("--times", "repeat each line", ArgKind.INT, default=1),
        ToolArgument("--coded", "errors with a code", ArgKind.FLAG),
    ),
    run=_upper,
)


def _run(argv: list[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="t")
    add_tool_parsers(parser.add_subparsers(dest="command"), [UPPER])
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    return run_tool(UPPER, args, out, err), out.getvalue(), err.getvalue()


def test_the_runner_reads_writes_prints_and_counts(tmp_path: Path) -> None:
    source, target = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("ab\ncd\n")
    code, out, err = _run(["upper", "x", "--source", str(source), "--target", str(target),
                           "--times", "2"])
    assert (code, out) == (0, "abab\ncdcd\n")
    assert target.read_text() == "AB\nCD\n"
    assert err.startswith("progress: started: 2 lines")


def test_bad_input_is_one_line_and_status_2(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(b"\xff")
    assert _run(["upper", "fail", "--source", str(source), "--coded"])[::2] == (
        2, "error [bad_words]: asked to fail\n")
    assert _run(["upper", "fail", "--source", str(source)])[::2] == (2, "error: asked to fail\n")
    code, _, err = _run(["upper", "x", "--source", str(source)])
    assert code == 2 and err.startswith(f"error [bad_input]: {source}: not UTF-8 text")
    code, _, err = _run(["upper", "x", "--source", str(tmp_path / "missing")])
    assert code == 2 and err.startswith("error [bad_input]: ") and "missing" in err


def test_every_games_tools_are_commands_with_their_help(capsys: Any) -> None:
    offered = [(name, t.name) for name in GAMES for t in get_game(name).tools]
    assert {t.name for t in tools()} == {tool for _, tool in offered}
    assert {"showdown", "solve"} <= {tool for _, tool in offered}
    for _, tool in offered:
        with pytest.raises(SystemExit):
            build_parser().parse_args([tool, "--help"])
        assert "usage: cardtable " + tool in capsys.readouterr().out


def test_a_builtin_command_is_parsed_without_the_tools(capsys: Any) -> None:
    assert "solve" not in build_parser(with_tools=False).format_help()
    assert main(["schema", "--check"]) == 0
    assert "matches" in capsys.readouterr().out
