"""The Game conformance suite on Tractor (DESIGN.md §2, tests/conformance.py).

Random legal play from 500 seeds, one round each (option ``rounds=1``; a full
match is ~30 rounds of ~200 actions), across the house-rule options: every
game ends, every offered action is accepted, junk is refused without change,
the replay reaches the same state hash, and no view, visible event or error
message names a card that is secret from its viewer -- hands, the stock, the
kitty before the landlord picks it up and the buried cards (landlord only).
Whole matches run too: a short one (max rank 3) scanned, full ones unscanned.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.tractor.game import TractorGame
from tests.conformance import check_game

GAME = TractorGame()

VARIANTS: list[dict[str, Any]] = [
    {},
    {"no_declaration": "redeal", "throw_failure_unit": "first_found",
     "trick_comparison": "highest_card", "kitty_multiplier": "power_unit"},
    {"trick_comparison": "largest_unit_first", "kitty_multiplier": "double_cards",
     "rank_scope": "per_player", "throw_failure_penalty": 0, "allow_reinforce": False},
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_single_rounds_conform(variant: int) -> None:
    seeds = range(variant, 500, len(VARIANTS))  # 500 seeds over the variants
    config = GAME.parse_config({**VARIANTS[variant], "rounds": 1})
    assert check_game(GAME, config, seeds) > 150 * len(seeds)


def test_short_matches_conform() -> None:
    check_game(GAME, GAME.parse_config({"max_rank": "3"}), range(1000, 1004))


def test_full_matches_reach_the_end() -> None:
    """Until a side passes A (default), without the per-step leak scan."""
    check_game(GAME, GAME.parse_config({}), range(2000, 2002), scan=False)
