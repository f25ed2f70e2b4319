"""A real server process for tests: start it on a free port, connect once it is up,
and find every process it started (tagged through the environment its children
inherit), to check that none outlives it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.lifeline import set_parent_death_signal
from tests.server.conftest import Client

ROOT = Path(__file__).resolve().parents[2]
TAG_VARIABLE = "CARDTABLE_TEST_PROCESS_TAG"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_tag() -> str:
    """A value no other process's environment holds."""
    return uuid.uuid4().hex


def spawn(
    port: int,
    db_url: str,
    *flags: str,
    workers: int = 1,
    tag: str | None = None,
    log: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``cardtable serve`` on 127.0.0.1:``port`` with bots moving at once; every
    process it starts carries ``tag`` in its environment.  Its stderr goes to ``log``
    (appended) if given, else to a pipe (read it only once the server has exited)."""
    argv = [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--db", db_url]
    argv += ["--bot-delay", "0", "--bot-workers", str(workers), "--grace", "600"]
    argv += ["--log-level", "warning", *flags]
    env = {**os.environ, "PYTHONPATH": str(ROOT), TAG_VARIABLE: tag or new_tag()}
    # If the test run itself is killed, its servers go too (and their bot pools with them).
    run = partial(
        subprocess.Popen,
        argv,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        preexec_fn=set_parent_death_signal,
    )
    if log is None:
        return run(stderr=subprocess.PIPE)
    with log.open("ab") as out:  # the child has its own copy
        return run(stderr=out)


async def connect_when_up(port: int, proc: subprocess.Popen[bytes]) -> Client:
    for _ in range(300):
        if proc.poll() is not None:
            why = proc.stderr.read().decode() if proc.stderr else "see its log"
            raise AssertionError(f"server exited with {proc.returncode}: {why}")
        try:
            return Client(await connect(f"ws://127.0.0.1:{port}/"))
        except (OSError, InvalidStatus):  # not listening yet, or still resuming (503)
            await asyncio.sleep(0.05)
    raise AssertionError("server did not come up")


async def next_turn(c: Client, table: int, timeout: float = 20) -> dict[str, Any]:
    """The next update of ``table`` that asks ``c`` to act, or ends the game."""
    while True:
        msg = await c.expect("update", table=table, timeout=timeout)
        if msg["legal"] or msg["status"] != "live":
            return msg


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Make sure ``proc`` is gone (for ``finally`` blocks)."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    if proc.stderr is not None:
        proc.stderr.close()


def tagged(tag: str) -> dict[int, str]:
    """Live processes whose environment holds ``tag``: pid -> command line."""
    found: dict[int, str] = {}
    needle = f"{TAG_VARIABLE}={tag}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue  # exited; only its parent has not collected it yet
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


def survivors(tag: str, timeout: float = 5.0) -> dict[int, str]:
    """The processes tagged ``tag`` still alive after up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while (alive := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive
