"""A cluster of real ``cardtable serve`` processes on 127.0.0.1 for tests: one
PostgreSQL database, the real Mosquitto broker under a topic prefix of their
own, short leases; started and checked through each node's /health."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

from tests.server.serverproc import free_port, new_tag, spawn, stop, survivors

BROKER = "mqtt://127.0.0.1:1883"
LEASE = 3.0  # seconds: failover within a few seconds, renewals that survive a loaded machine


@dataclass
class Node:
    name: str
    port: int
    proc: subprocess.Popen[bytes]

    def health(self) -> tuple[int, dict[str, Any]]:
        url = f"http://127.0.0.1:{self.port}/health"
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return int(r.status), json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), json.loads(exc.read())


@dataclass
class ClusterProcs:
    db_url: str
    tag: str = field(default_factory=new_tag)
    prefix: str = field(default_factory=lambda: f"test-{uuid.uuid4().hex[:10]}")
    nodes: list[Node] = field(default_factory=list)

    def start(self, count: int, log_dir: Any) -> None:
        """Start ``count`` nodes; returns once each says it is ready and sees the others."""
        old = os.environ.get("CARDTABLE_BUS_PREFIX")
        os.environ["CARDTABLE_BUS_PREFIX"] = self.prefix
        try:
            for i in range(count):
                port = free_port()
                flags = ("--bus", BROKER, "--node", f"n{i}", "--lease-seconds", str(LEASE))
                proc = spawn(port, self.db_url, *flags, tag=self.tag, log=log_dir / f"n{i}.log")
                self.nodes.append(Node(f"n{i}", port, proc))
        finally:
            if old is None:
                os.environ.pop("CARDTABLE_BUS_PREFIX", None)
            else:
                os.environ["CARDTABLE_BUS_PREFIX"] = old
        names = sorted(n.name for n in self.nodes)
        for node in self.nodes:
            self.wait_ready(node, names)

    def wait_ready(self, node: Node, online: list[str], timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if node.proc.poll() is not None:
                raise AssertionError(f"node {node.name} exited with {node.proc.returncode}")
            try:
                status, state = node.health()
            except OSError:
                time.sleep(0.1)
                continue
            if status == 200 and state["nodes_online"] == online:
                return state
            time.sleep(0.1)
        raise AssertionError(f"node {node.name} not ready with {online}")

    def stop(self) -> dict[int, str]:
        """Stop every node; the processes still alive after (should be none)."""
        for node in self.nodes:
            stop(node.proc)
        return survivors(self.tag)


def fresh_database(base_url: str, suffix: str) -> str:
    """A new, empty PostgreSQL database beside ``base_url``'s, for one cluster
    (two clusters on one database would adopt each other's tables)."""
    import asyncio

    from sqlalchemy.engine import make_url

    from server.persistence.database import normalize_url
    from tests.server.conftest import create_database

    url = make_url(normalize_url(base_url))
    fresh = url.set(database=f"{url.database}_{suffix}").render_as_string(hide_password=False)
    asyncio.run(create_database(fresh, fresh=True))
    return fresh
