"""A table whose creator fixed the deal (poker's holes and board, bridge's deal):
its listing says so, and never names the cards, which are hidden from its players
(docs/protocol.md, "Lobby")."""

from __future__ import annotations

import json

import pytest

from tests.server.conftest import Harness
from tests.server.test_stand_ins import drain

DEALS = [
    ("poker", {"seats": 2, "hands": 1, "holes": ["AsAh", "7c2d"], "board": "AdAc3s4h9d"},
     ["AsAh", "7c2d", "AdAc3s4h9d"]),
    ("bridge", {"boards": 1,
                "deal": "N:AKQ2.J54.T9.8765 JT98.AKQ.876.432 7654.T98.AKQ.AKQ 3.7632.J5432.JT9"},
     ["AKQ2.J54.T9.8765"]),
]


@pytest.mark.parametrize(("game", "options", "secrets"), DEALS)
async def test_the_lobby_says_a_deal_is_fixed_and_not_which(
    harness: Harness, game: str, options: dict[str, object], secrets: list[str]
) -> None:
    host = await harness.client("host")
    guest = await harness.client("guest")
    created = await host.request({"type": "create_table", "game": game, "seat": 0,
                                  "options": options})
    assert created["type"] == "table_created", created
    listed = await guest.request({"type": "list_tables"})
    (info,) = [t for t in listed["tables"] if t["table"] == created["table"]["table"]]
    assert info["fixed_deal"] is True
    assert not any(secret in json.dumps(info) for secret in secrets)
    assert not any(secret in json.dumps(created) for secret in secrets)
    plain = await host.request({"type": "create_table", "game": game, "seat": None})
    assert plain["table"]["fixed_deal"] is False
    await drain(host)
