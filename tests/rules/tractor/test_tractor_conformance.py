"""The Game conformance suite on Tractor (docs/architecture.md, "The conformance suite").

Random legal play from 500 seeds, one round each (option ``rounds=1``; a full
match is ~30 rounds of ~200 actions), across the house-rule options: every
game ends, every offered action is accepted, junk is refused without change,
the replay reaches the same state hash, and no view, visible event or error
message names a card that is secret from its viewer -- hands, the stock, the
kitty before the landlord picks it up and the buried cards (landlord only).
Whole matches run too: a short one (max rank 3) scanned, full ones unscanned.

Finding Friends (5-8 seats, 2-3 decks, dynamic sides) and takebacks (random
play takes a play back about half the times it may, so logs full of
takebacks must replay) run the same suite on fewer seeds: their games are
longer and every step is scanned for 6-9 viewers.
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


FRIENDS: list[tuple[dict[str, Any], range]] = [
    ({"seats": 5}, range(100, 112)),
    ({"seats": 5, "no_declaration": "redeal", "kitty_multiplier": "double_cards",
      "throw_failure_unit": "first_found"}, range(200, 204)),
    ({"seats": 6, "trick_comparison": "largest_unit_first"}, range(300, 306)),
    ({"seats": 7, "rank_scope": "per_player"}, range(400, 403)),
    ({"seats": 8, "trick_comparison": "highest_card"}, range(500, 503)),
]


@pytest.mark.parametrize("case", range(len(FRIENDS)))
def test_finding_friends_rounds_conform(case: int) -> None:
    options, seeds = FRIENDS[case]
    config = GAME.parse_config({"finding_friends": True, **options, "rounds": 1})
    assert check_game(GAME, config, seeds) > 150 * len(seeds)


def test_finding_friends_short_match_conforms() -> None:
    """Several rounds: next landlords, per-seat levels, the match end."""
    config = GAME.parse_config({"finding_friends": True, "seats": 5, "max_rank": "3"})
    check_game(GAME, config, range(600, 602), scan=False)


@pytest.mark.parametrize(
    ("options", "seeds"),
    [({}, range(700, 708)),
     ({"finding_friends": True, "seats": 6}, range(800, 802))],
)
def test_takeback_rounds_conform(options: dict[str, Any], seeds: range) -> None:
    config = GAME.parse_config({"takeback_allowed": True, **options, "rounds": 1})
    assert check_game(GAME, config, seeds) > 150 * len(seeds)


MULTI_DECK: list[tuple[dict[str, Any], range]] = [
    ({"deck_count": 3, "trick_draw_policy": "longer_tuples_protected",
      "bid_takeback": True}, range(900, 904)),
    ({"deck_count": 4, "bomb_policy": "allow_bombs_suit_following",
      "trick_draw_policy": "only_draw_tractor_on_tractor"}, range(910, 913)),
    ({"finding_friends": True, "seats": 8, "multiple_join": "no_double_join",
      "friend_selection": "point_card_not_allowed"}, range(920, 922)),
]


@pytest.mark.parametrize("case", range(len(MULTI_DECK)))
def test_multi_deck_rounds_conform(case: int) -> None:
    """Three and four decks: tuples, draw policies, bombs, bid takebacks -- every
    step scanned for leaks, every log replayed (docs/tractor.md, "Tuples and
    draw policies")."""
    options, seeds = MULTI_DECK[case]
    config = GAME.parse_config({**options, "rounds": 1})
    assert check_game(GAME, config, seeds) > 150 * len(seeds)
