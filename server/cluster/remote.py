"""The two ends of a forwarded connection.

On the owner, a :class:`RemoteConnection` stands for a client of another node:
tables treat it as any connection, and what they send it (that viewer's own
frames, computed by the owner) goes to the one topic its node reads.  On the
client's node, a :class:`RemoteTable` is the attachment of that client to a
table owned elsewhere: when the client goes, the owner is told.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.bus import Bus, BusUnavailable
from server.cluster import wire
from server.connection import Connection

if TYPE_CHECKING:
    from collections.abc import Callable

log = logging.getLogger("cardtable.cluster")


class RemoteConnection(Connection):
    """A client connected to ``node``, as the owner of its tables sees it."""

    # No websocket here: the base class's reader and writer are never used.
    def __init__(self, bus: Bus, topic: str, node: str, key: str, player: int, name: str) -> None:
        self.bus = bus
        self.topic = topic
        self.node = node
        self.key = key
        self.player_id: int | None = player
        self.name = name
        self.token = None
        self.tables = set()
        self.closing = False
        self.violations = 0
        self.hello_at = 0.0

    def send_text(self, text: bytes) -> None:
        self._publish(text)

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """The owner drops this viewer: its node closes the client, which resumes."""
        self._publish(wire.CLOSE)

    def _publish(self, payload: bytes) -> None:
        try:
            self.bus.publish(self.topic, payload)
        except BusUnavailable:
            # The client's node sees this node's will and closes the client, which
            # resumes: nothing it misses now is lost.
            log.debug("frame for %s/%s dropped: bus down", self.node, self.key)


@dataclass(frozen=True)
class RemoteTable:
    """A table owned by ``node`` that a local connection is attached to."""

    node: str
    table_id: int
    detached: Callable[[str, Connection], None]

    async def detach(self, conn: Connection) -> None:
        self.detached(self.node, conn)
