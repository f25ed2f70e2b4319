"""The Game conformance suite (tests/conformance.py) on both rummy variants: random
legal play to the end, replay hash, rejected actions, and the leak scan of every view,
event and error message against ``RummyGame.secrets``."""

from __future__ import annotations

from typing import Any

import pytest

from rules.rummy.game import RummyGame
from tests.conformance import check_game

GAME = RummyGame()


@pytest.mark.parametrize(
    ("options", "seeds"),
    [
        # 200 single deals over 2-6 players, then whole pool matches.
        ({"variant": "indian", "pool": 0, "players": 2}, range(0, 80)),
        ({"variant": "indian", "pool": 0, "players": 3}, range(80, 120)),
        ({"variant": "indian", "pool": 0, "players": 4}, range(120, 160)),
        ({"variant": "indian", "pool": 0, "players": 6}, range(160, 200)),
        ({"variant": "indian", "pool": 101, "players": 2}, range(20)),
        ({"variant": "indian", "pool": 201, "players": 4}, range(10)),
        # 200 single deals, then whole matches to 100.
        ({"variant": "gin", "target": 0}, range(200)),
        ({"variant": "gin", "target": 100}, range(3)),
    ],
    ids=lambda v: "-".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else "",
)
def test_rummy_conformance(options: dict[str, Any], seeds: range) -> None:
    config = GAME.parse_config(options)
    assert check_game(GAME, config, seeds) > 0
