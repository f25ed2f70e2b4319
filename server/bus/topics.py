"""Every topic name the cluster uses, in one place (docs/cluster.md, "Topics").

Frames for a viewer go to a topic only the node serving that viewer reads:
``<prefix>/node/<node>/frames/<connection>``; nothing else carries a view."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Topic levels without wildcards (+ #), "$" (the broker's own topics) or empty levels.
_PREFIX = re.compile(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*")


def valid_prefix(prefix: str) -> bool:
    """A topics' prefix is one or more node-name-like levels joined by ``/``."""
    return len(prefix) <= 128 and _PREFIX.fullmatch(prefix) is not None


def valid_node_name(name: str) -> bool:
    """A node name is a single topic level without wildcards: letters, digits, ``_``, ``-``."""
    return _NODE.fullmatch(name) is not None


@dataclass(frozen=True)
class Topics:
    prefix: str = "cardtable"

    def presence(self, node: str) -> str:
        """Retained ``online``; the node's last will retains ``offline``."""
        return f"{self.prefix}/presence/{node}"

    @property
    def all_presence(self) -> str:
        return f"{self.prefix}/presence/+"

    def lobby(self, node: str) -> str:
        """Retained: the node's open tables (their public ``table`` info)."""
        return f"{self.prefix}/lobby/{node}"

    def lobby_events(self, node: str) -> str:
        """One table of the node changed (its public ``table`` info)."""
        return f"{self.prefix}/lobby/{node}/events"

    @property
    def all_lobby(self) -> str:
        return f"{self.prefix}/lobby/#"

    def requests(self, node: str) -> str:
        """Requests forwarded to the node that owns their table."""
        return f"{self.prefix}/node/{node}/requests"

    def frames(self, node: str, conn: str) -> str:
        """What the owner sends one connection served by ``node``: that viewer's frames."""
        return f"{self.prefix}/node/{node}/frames/{conn}"

    def all_frames(self, node: str) -> str:
        return f"{self.prefix}/node/{node}/frames/+"

    @property
    def sessions(self) -> str:
        """A session said hello again on some node: older connections of that
        player elsewhere are closed (4011).  Carries a player id, never a token."""
        return f"{self.prefix}/sessions"

    @property
    def jobs(self) -> str:
        """A distributed tournament's jobs, each to one worker (a shared subscription)."""
        return f"{self.prefix}/jobs"

    @property
    def shared_jobs(self) -> str:
        return f"$share/{self.prefix}-workers/{self.jobs}"

    @staticmethod
    def last_level(topic: str) -> str:
        return topic.rsplit("/", 1)[-1]


def topic_filter(pattern: str) -> tuple[str | None, str]:
    """A subscription's shared group (None if not shared) and its topic filter:
    ``$share/GROUP/FILTER`` delivers each message to one subscriber of GROUP."""
    if pattern.startswith("$share/"):
        _, group, rest = pattern.split("/", 2)
        return group, rest
    return None, pattern
