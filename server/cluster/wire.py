"""The messages nodes exchange on the bus (docs/cluster.md, "Topics").  Each is
validated on arrival: a malformed one (a buggy node, a foreign publisher) is
refused here, then logged and dropped by the bus."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from protocol.messages import TableInfo

ONLINE = b"online"
OFFLINE = b"offline"


def online(database: str) -> bytes:
    """A node's presence: online, serving the database of id ``database``."""
    return ONLINE + b" " + database.encode("ascii")


def online_database(payload: bytes) -> str | None:
    """The database an online presence names ("" if it names none), or None for
    another presence."""
    if payload == ONLINE:
        return ""
    if payload.startswith(ONLINE + b" "):
        return payload[len(ONLINE) + 1:].decode("ascii", "replace")
    return None

# Control lines on a connection's frames topic (frames themselves are JSON objects).
DONE = b"!done "  # + request number: the owner has answered that request
CLOSE = b"!close"  # the owner dropped the table: the client should resume elsewhere


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Forward(_Wire):
    """A client's request for a table another node owns, with who sent it (the
    forwarding node checked the session; the owner checks everything else)."""

    kind: Literal["request"]
    rid: int
    node: str
    conn: str
    player: int
    name: str
    frame: str


class Detach(_Wire):
    """The connection ``conn`` of ``node`` ended: the owner lets its tables know."""

    kind: Literal["detach"]
    node: str
    conn: str


class Resumed(_Wire):
    """Player ``player`` resumed its session on ``node`` at wall-clock time ``at``."""

    node: str
    player: int
    at: float


ToOwner = TypeAdapter(Annotated[Forward | Detach, Field(discriminator="kind")])


class LobbyEntry(_Wire):
    """One open table of a node: its public info, and which players hold its
    human seats (so a node answering ``hello`` can name a player's seats)."""

    info: dict[str, Any]
    humans: list[tuple[int, int]] = []  # (seat, player id)

    def checked(self) -> LobbyEntry:
        TableInfo.model_validate(self.info)
        return self


class LobbySnapshot(_Wire):
    node: str
    tables: list[LobbyEntry]


def encode(model: BaseModel) -> bytes:
    return model.model_dump_json().encode()


def entry(info: dict[str, Any], humans: list[tuple[int, int]]) -> LobbyEntry:
    return LobbyEntry(info=info, humans=humans)


def parse_snapshot(payload: bytes) -> LobbySnapshot:
    snap = LobbySnapshot.model_validate(json.loads(payload))
    for e in snap.tables:
        e.checked()
    return snap


def parse_entry(payload: bytes) -> LobbyEntry:
    return LobbyEntry.model_validate(json.loads(payload)).checked()
