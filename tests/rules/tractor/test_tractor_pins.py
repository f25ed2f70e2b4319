"""Stored tractor games must replay identically: a fixed seed's random play
gives the same states, views, events and legal actions as the code it was
pinned on (tests/rules/pins.py says what the digest covers).  A change here
means stored games would replay differently: fix the code, not the pins."""

from __future__ import annotations

from typing import Any

import pytest

from rules.tractor.game import TractorGame
from tests.rules.pins import trace

CASES: list[tuple[str, dict[str, Any], int, int, str, str]] = [
    # name, options, seed, actions, final state_hash, trace digest
    ("plain", {}, 7, 600,
     "adf81452c17f81988641c84864d02a58b505f324534a02915ea5747a2802780b",
     "730793a6319b35f00145bddce60b1a7259bb43b7366250517ae124766900ad1a"),
    ("plain, every option off its default",
     {"takeback_allowed": True, "no_declaration": "redeal", "kitty_multiplier": "double_cards",
      "throw_failure_unit": "first_found", "trick_comparison": "largest_unit_first",
      "rounds": 2}, 11, 600,
     "4d7cfb230e1d91b7f19efd2ece88e04661cda6489a1e8e9fbd091408f5c7e0b1",
     "568b00db32cd3c2fb2a14e9329f0b0b83c5d76de3b784bf18050814807d2b112"),
    ("finding friends, 5 seats, one round", {"seats": 5, "finding_friends": True, "rounds": 1},
     3, 600,
     "0f3dfec5517c0095bbe0728c974273fe6fa6f1915bdba6fb7e302d5ff9e2977a",
     "79708d8ebb3c0f26708372ad2ff867b8bfdbf13dab7236b0034aab61befe490f"),
    ("finding friends, 6 seats, takeback",
     {"seats": 6, "finding_friends": True, "takeback_allowed": True}, 5, 400,
     "c5f52b5a02d3d6234304d2f92ce185f54584b9f022a1e76bea7fd97d1e552eb7",
     "3bcead09feeca8391d10e610339ea7170c83fbb5b2a283734c3c9d898b485467"),
]


@pytest.mark.parametrize(("name", "options", "seed", "actions", "final", "digest"), CASES,
                         ids=[c[0] for c in CASES])
def test_random_play_replays_as_pinned(
    name: str, options: dict[str, Any], seed: int, actions: int, final: str, digest: str
) -> None:
    got_final, got_digest, _ = trace(TractorGame(), options, seed, max_actions=actions)
    assert (got_final, got_digest) == (final, digest), name
