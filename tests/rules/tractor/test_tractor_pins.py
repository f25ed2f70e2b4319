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
    # Version-1 tables: stored games carry the version they were created with.
    # name, options, seed, actions, final state_hash, trace digest
    ("plain", {"version": 1}, 7, 600,
     "adf81452c17f81988641c84864d02a58b505f324534a02915ea5747a2802780b",
     "5d79a10cf71654678f8ce3ecf37914f3acf5230bc18eff1406afe16daf35d360"),
    ("plain, every option off its default",
     {"version": 1, "takeback_allowed": True, "no_declaration": "redeal",
      "kitty_multiplier": "double_cards",
      "throw_failure_unit": "first_found", "trick_comparison": "largest_unit_first",
      "rounds": 2}, 11, 600,
     "4d7cfb230e1d91b7f19efd2ece88e04661cda6489a1e8e9fbd091408f5c7e0b1",
     "2a182583134955239e52cf510ad9ba503c2443b5e093a9bc164560882d4320f6"),
    ("finding friends, 5 seats, one round", {"version": 1, "seats": 5, "finding_friends": True,
                                              "rounds": 1},
     3, 600,
     "0f3dfec5517c0095bbe0728c974273fe6fa6f1915bdba6fb7e302d5ff9e2977a",
     "f99b91be21742e60e460afdfb3a0188f76b5856158c7daf39d95a1011fc521f4"),
    ("finding friends, 6 seats, takeback",
     {"version": 1, "seats": 6, "finding_friends": True, "takeback_allowed": True}, 5, 400,
     "c5f52b5a02d3d6234304d2f92ce185f54584b9f022a1e76bea7fd97d1e552eb7",
     "5b9e30ee7ddfd8c8c32ce77c17d1c36faba4ab28a3cfa656b6ac7aedccc221c8"),
    # Version 2 (the default): the house-rule options, tuples, bids.
    ("v2 plain", {}, 7, 600,
     "371079e32c3c54aeba3779a79c87b1adb7fc9468d689555c46c658a427986408",
     "5528ecc667cb3b5070d60b966a5b9f65d377b8fd1833ad0ad823a0fbd6a2249e"),
    ("v2 three decks, tuples and bids",
     {"deck_count": 3, "trick_draw_policy": "longer_tuples_protected", "bid_takeback": True,
      "bomb_policy": "allow_bombs", "rounds": 1}, 13, 600,
     "0745665749f93983a88795fa2e28ec69450fbae70f02c63eece8fcc51d49e809",
     "404b27cd346449022a88b0ecfd7bd37ea2fd906c75031efbec7d7343b42ec03a"),
    ("v2 finding friends, 8 seats",
     {"seats": 8, "finding_friends": True, "multiple_join": "no_double_join", "rounds": 1},
     17, 600,
     "656056c45fd751306280594228ff9caedd85aa90afb3d35f85e81c718f0fc640",
     "e6dc4cdd8d7e328169fcf0fe39cd48641385fd7a33a9333dfaa3685b935a2bb7"),
]


@pytest.mark.parametrize(("name", "options", "seed", "actions", "final", "digest"), CASES,
                         ids=[c[0] for c in CASES])
def test_random_play_replays_as_pinned(
    name: str, options: dict[str, Any], seed: int, actions: int, final: str, digest: str
) -> None:
    got_final, got_digest, _ = trace(TractorGame(), options, seed, max_actions=actions)
    assert (got_final, got_digest) == (final, digest), name
