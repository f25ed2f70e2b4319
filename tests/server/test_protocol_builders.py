"""Every server -> client message is built by its builder in protocol/builders.py,
and what each builder makes is what the documented model (the schema) allows."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from protocol import builders as p
from protocol.messages import ErrorCode, ServerMessage, server_adapter

INFO: dict[str, Any] = {
    "table": 1,
    "name": "t",
    "game": "whist",
    "options": {},
    "status": "waiting",
    "version": 0,
    "seats": [{"seat": 0, "name": "0", "kind": "empty", "player": None, "bot": None}],
    "spectators": 0,
    "turn_seconds": None,
    "time_bank": None,
}
PAR = {"score_ns": 0, "contracts": [], "text": "Par 0"}
BOARD = {
    "board": 1,
    "version": 4,
    "deal": "N:...",
    "dealer": 0,
    "vulnerability": "None",
    "dd_table": {s: dict.fromkeys("NESW", 0) for s in "SHDCN"},
    "par": PAR,
}
BUILT = [
    p.welcome("tok", 1, "ann", False, ["whist"], [p.seat_claim(1, 0)]),
    p.tables([INFO]),
    p.table_created(INFO),
    p.joined(1, 0, "seat-token"),
    p.left(1),
    p.table_status(INFO),
    p.ack(1, 5),
    p.error(ErrorCode.STALE_VERSION, "old"),
    p.error(ErrorCode.ILLEGAL_ACTION, "no", "must_follow"),
    p.analysis(1, BOARD),
    p.replay_page(
        game_id=1,
        game="whist",
        viewer="spectator",
        status="live",
        seat_names=["0", "1"],
        total=1,
        steps=[{"seq": 0, "seat": None, "action": None, "events": [], "view": {}}],
        following=None,
        result=None,
        analysed=False,
    ),
    p.games([p.game_summary(1, "whist", "t", "live", 3, "2024-01-01T00:00:00", None)]),
    p.imported("pbn", [p.imported_game(3, "bridge", "Board 1", "finished", {"summary": "x"},
                                       False)]),
    p.import_part(4096),
    p.exported(3, "lin", "pn|a,b,c,d|"),
    p.stats(
        "poker",
        2,
        [{"name": "VPIP", "description": "voluntarily in", "unit": "%"}],
        [{"player": "ann", "values": [50.0]}, {"player": "bob", "values": [None]}],
    ),
    p.pong(),
]
# Built per viewer by the table (server/table.py), on the hottest path.
BUILT_BY_THE_TABLE = {"snapshot", "update"}


@pytest.mark.parametrize("msg", BUILT, ids=lambda m: str(m["type"]))
def test_each_builder_makes_a_message_its_model_accepts(msg: dict[str, Any]) -> None:
    model = server_adapter.validate_python(msg)
    assert model.type == msg["type"]
    # Read back field for field: nothing dropped or coerced on the way.
    assert model.model_dump(mode="json", exclude_unset=True) == msg


def test_every_server_message_type_has_a_builder() -> None:
    union = get_args(get_args(ServerMessage)[0])
    types = {get_args(m.model_fields["type"].annotation)[0] for m in union}
    assert types == {m["type"] for m in BUILT} | BUILT_BY_THE_TABLE
