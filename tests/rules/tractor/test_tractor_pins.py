"""Stored tractor games must replay identically: a fixed seed's random play
gives the same states, views, events and legal actions as the code it was
pinned on (tests/rules/pins.py says what the digest covers).  A change here
means stored games would replay differently: fix the code, not the pins.

The trace digests (not the final states) were pinned again once, when a pass
became its passer's secret (its event shown to the passer alone, its replay step
to others without action or seat): what others see changed, no rule did, and every
final state hash stayed as pinned."""

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
     "f6c2a993b7a2e316f7ffc020623a2d7c16b0db757243a084c24dd7f15b284463"),
    ("plain, every option off its default",
     {"version": 1, "takeback_allowed": True, "no_declaration": "redeal",
      "kitty_multiplier": "double_cards",
      "throw_failure_unit": "first_found", "trick_comparison": "largest_unit_first",
      "rounds": 2}, 11, 600,
     "4d7cfb230e1d91b7f19efd2ece88e04661cda6489a1e8e9fbd091408f5c7e0b1",
     "7cde0ee5e1629bb6e65c945919337932b3d4088c693fd7dd5861f8b62a8f51b8"),
    ("finding friends, 5 seats, one round", {"version": 1, "seats": 5, "finding_friends": True,
                                              "rounds": 1},
     3, 600,
     "0f3dfec5517c0095bbe0728c974273fe6fa6f1915bdba6fb7e302d5ff9e2977a",
     "900cbb8771c45b58106e9291f431b438f0dd4099450c90f08c41bf259bfb5e9c"),
    ("finding friends, 6 seats, takeback",
     {"version": 1, "seats": 6, "finding_friends": True, "takeback_allowed": True}, 5, 400,
     "c5f52b5a02d3d6234304d2f92ce185f54584b9f022a1e76bea7fd97d1e552eb7",
     "660ed8124307b42b70e5271d8bc15ebd4a496ebb6d8086e43dfb6785aa07b9ed"),
    # Version-2 tables: the house-rule options, tuples, bids.
    ("v2 plain", {"version": 2}, 7, 600,
     "371079e32c3c54aeba3779a79c87b1adb7fc9468d689555c46c658a427986408",
     "2c3f823925b1526413c00826392bef605e767c550d36f0c5230c92d40c36a4fd"),
    ("v2 three decks, tuples and bids",
     {"version": 2, "deck_count": 3, "trick_draw_policy": "longer_tuples_protected",
      "bid_takeback": True,
      "bomb_policy": "allow_bombs", "rounds": 1}, 13, 600,
     "66ab6938ab77d8896d99113342bec6c6a5523442585df44efb43686291ce4167",
     "893ab963cb0e973bf9e30e066287897d703e8f5942617fa5b27537dd3944a10e"),
    ("v2 finding friends, 8 seats",
     {"version": 2, "seats": 8, "finding_friends": True, "multiple_join": "no_double_join",
      "rounds": 1},
     17, 600,
     "656056c45fd751306280594228ff9caedd85aa90afb3d35f85e81c718f0fc640",
     "b40638ec5285522a1fe5daf18ec4584deb4b9a1c598b2ac803cddf193e06a678"),
    # Version 3: kitty theft and who leads.
    ("v3 plain", {"version": 3}, 7, 600,
     "44088730b470961bd5409ced1889b137876ccb606e2df319a8e6f30ca5e68074",
     "03e886eb56d709ce1baf23d8b3021c0e2576f133b532ecd091e6ded331655fc3"),
    ("v3 kitty theft, the exchanger leads",
     {"version": 3, "kitty_theft": True, "first_leader": "exchanger", "deck_count": 3,
      "rounds": 1}, 19, 600,
     "525975c9eb6cef5121bc2ab980043a620b6ddcac8e29aa5308bb74a413d4b657",
     "1adb506fe9f5c729859c7480d93c9ae36c751d3ae42dc79478f287c495ba2c0f"),
    # Version 4: declarations at any time during the draw, no pass.
    ("v4 plain", {"version": 4}, 7, 600,
     "fe6da6b714813c5727969fe1730b52603e2c65c9e51489347eb4d73e49b36978",
     "375f8839f4e6afaa72280a4478e41976ae7732f28ae436a5fc437019d0732e5d"),
    ("v4 kitty theft, the exchanger leads",
     {"version": 4, "kitty_theft": True, "first_leader": "exchanger", "deck_count": 3,
      "rounds": 1}, 19, 600,
     "b8e2c8686d59caec3e20f1b266b3ba62265879a6f73d036290805dc1ed498d61",
     "7a834415fb951c2c8530ee9a77fc450f3a7d9155c2fc38646f2619c65137e86e"),
    ("v4 finding friends, 6 seats",
     {"version": 4, "seats": 6, "finding_friends": True, "rounds": 1}, 23, 600,
     "e73a81f6227c40d1ab4e64addd06486639d4c332a57646306f5ff49a1b53fd98",
     "06c4be424a72b9f017f259f3b53e2b06190134ff2730f53157d88709ea897729"),
    ("v4 two decks, a draw policy and bombs (the tuple engine)",
     {"version": 4, "trick_draw_policy": "longer_tuples_protected", "bomb_policy": "allow_bombs",
      "rounds": 1}, 29, 600,
     "6b2234dd11ef2d3b2a2b5ea97ae1dd82aa6dcb4f8400f45abaaf9d83b103e518",
     "4e69f0a0f63e0279b1eb1cb45bf67738dcb8f07989695423e7bb3fdd38f6e988"),
    # Version 5 (the default): two decks keep the pair engine whatever the policies.
    ("v5 plain", {}, 7, 600,
     "cf762fd5e12871620ae78070388b8b73b3131cd36db8ec1e56c736e88293e11c",
     "2140f3bc57399714f673dcfa2aa74f9b9d0ec4777ed16d88ef565b6d05390e11"),
    ("v5 two decks, a draw policy and bombs (the pair engine)",
     {"trick_draw_policy": "longer_tuples_protected", "bomb_policy": "allow_bombs",
      "rounds": 1}, 29, 600,
     "ee7dc59c8838222b32f45f611269e4af98f05e01ffb2cb46a9de7a75b4dde10c",
     "e68bd6d491be6a72e7376b74845e0d4e66b752af172e4e8509ee5ad5968d928d"),
]


@pytest.mark.parametrize(("name", "options", "seed", "actions", "final", "digest"), CASES,
                         ids=[c[0] for c in CASES])
def test_random_play_replays_as_pinned(
    name: str, options: dict[str, Any], seed: int, actions: int, final: str, digest: str
) -> None:
    got_final, got_digest, _ = trace(TractorGame(), options, seed, max_actions=actions)
    assert (got_final, got_digest) == (final, digest), name
