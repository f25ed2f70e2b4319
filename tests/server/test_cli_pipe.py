"""A command's output piped into a reader that stops early (``| head``) ends it
quietly: no BrokenPipeError traceback, the status a command killed by SIGPIPE gives."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from server.cli import BROKEN_PIPE_STATUS, main
from tests.server.serverproc import ROOT

# As from a shell: stdout into a pipe is block-buffered, and written when the
# buffer fills or at exit (where a broken pipe was only reported, with status 120).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
ENV["PYTHONPATH"] = str(ROOT)
# Unbuffered (a test runner's setting, say): the first write fails.
UNBUFFERED = {**ENV, "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def stored(sqlite_url: str, capsys: Any) -> str:
    """A database with a tournament of one deal: two games, one match."""
    args = ["tournament", "--game", "whist", "--bots", "heuristic,random", "--games", "1"]
    assert main([*args, "--db", sqlite_url]) == 0
    capsys.readouterr()
    return sqlite_url


def _into_closed_pipe(
    argv: list[str], env: dict[str, str] = ENV
) -> subprocess.CompletedProcess[str]:
    """Run ``cardtable argv`` writing into a pipe nobody reads any more: what
    ``| head`` leaves once it has its lines, without waiting for it to exit."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "server.cli", *argv],
            cwd=ROOT,
            env=env,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize("env", [ENV, UNBUFFERED], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "command",
    [
        ["games"],
        ["tournaments"],
        ["standings", "1"],
        ["replay", "1", "--all"],
    ],
)
def test_a_reader_that_stops_early_gets_no_traceback(
    command: list[str], env: dict[str, str], stored: str
) -> None:
    done = _into_closed_pipe([*command, "--db", stored], env)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == BROKEN_PIPE_STATUS


@pytest.mark.parametrize("env", [ENV, UNBUFFERED], ids=["buffered", "unbuffered"])
def test_a_games_tool_into_a_closed_pipe_is_quiet_too(env: dict[str, str]) -> None:
    deal = "N:AKQ2.J54.T9.8765 JT98.AKQ.876.432 7654.T98.AKQ.AKQ 3.7632.J5432.JT9"
    done = _into_closed_pipe(["solve", deal, "--json"], env)
    assert "bad_input" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode == BROKEN_PIPE_STATUS


def test_help_into_a_closed_pipe_is_quiet_too() -> None:
    done = _into_closed_pipe(["tournament", "--help"])
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == BROKEN_PIPE_STATUS


def test_a_shell_pipeline_into_head(stored: str) -> None:
    command = f"{sys.executable} -m server.cli replay 1 --all --db {stored} | head -n 1"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.startswith("game 1")
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    # All of the output may fit in the pipe before head exits: then it is not cut short.
    assert done.returncode in (0, BROKEN_PIPE_STATUS)
