"""Each request is answered through its own reply, which echoes the request's id;
frames the request causes for others, or later, carry no id."""

from __future__ import annotations

from typing import Any

from protocol import builders as p
from protocol.messages import ErrorCode
from server.connection import Reply
from tests.server.conftest import Harness


class Sink:
    """Stands in for a connection: keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


def test_a_reply_echoes_its_request_id_and_only_its_own() -> None:
    sink = Sink()
    Reply(sink, "r1").send(p.pong())  # type: ignore[arg-type]
    Reply(sink, 7).error(ErrorCode.BAD_SEAT, "no", "why")  # type: ignore[arg-type]
    Reply(sink).send(p.left(3))  # type: ignore[arg-type]
    assert sink.sent == [
        {"type": "pong", "id": "r1"},
        {"type": "error", "code": "bad_seat", "message": "no", "reason": "why", "id": 7},
        {"type": "left", "table": 3},
    ]


async def test_only_table_created_answers_a_create_table_that_seats_and_starts(
    harness: Harness,
) -> None:
    alice = await harness.client("alice")
    created = await alice.request(
        {"type": "create_table", "game": "whist", "seat": 0, "start": True}
    )
    assert created["type"] == "table_created" and created["id"]
    table = created["table"]["table"]
    joined = await alice.expect("joined", table=table)
    snap = await alice.expect("snapshot", table=table)
    assert "id" not in joined and "id" not in snap


async def test_a_start_answers_with_its_id_and_pushes_the_snapshots_without(
    harness: Harness,
) -> None:
    alice = await harness.client("alice")
    created = await alice.request({"type": "create_table", "game": "whist", "seat": 0})
    table = created["table"]["table"]
    await alice.expect("snapshot", table=table)
    reply = await alice.request({"type": "start", "table": table})
    assert reply["type"] == "table" and reply["table"]["status"] == "live" and reply["id"]
    snap = await alice.expect("snapshot", table=table)
    assert snap["status"] == "live" and "id" not in snap
