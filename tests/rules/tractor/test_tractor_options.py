"""Table options (docs/tractor.md, "Options")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction
from rules.tractor.game import TractorGame
from rules.tractor.options import (
    KittyMultiplier,
    NoDeclarationPolicy,
    RankScope,
    ThrowFailureUnit,
    TractorConfig,
    TrickComparison,
)


def parse(options: dict[str, Any]) -> TractorConfig:
    """What the Tractor Game's ``parse_config`` does with table options."""
    return TractorGame().parse_config(options)


def test_documented_defaults() -> None:
    c = parse({})
    assert c.seats == 4 and c.finding_friends is False  # Finding Friends mode: off
    assert c.kitty_multiplier is KittyMultiplier.DOUBLE_UNIT  # "2 × size of the largest unit"
    assert c.throw_failure_unit is ThrowFailureUnit.SMALLEST
    assert c.throw_failure_penalty == 10  # "penalty of 10 points per failed throw"
    assert c.trick_comparison is TrickComparison.ALL_UNITS  # "every unit ... strictly higher"
    assert c.rank_scope is RankScope.PER_TEAM  # "Ranks are per team by default"
    assert c.no_declaration is NoDeclarationPolicy.REVEAL_KITTY  # "revealed ... (default)"
    assert c.takeback_allowed is False
    assert c.allow_reinforce is True
    assert c.max_rank == "A" and c.max_rank_index == 12  # "max rank A"


def test_rank_scope_is_not_offered_but_stored_tables_with_it_load() -> None:
    # Partners rise together, so a level per player is the partnership's: the
    # option changes nothing, and a new table is not offered it.
    from rules.tractor.game import TractorGame

    assert "rank_scope" not in TractorGame().options_schema()
    assert parse({"rank_scope": "per_player"}).rank_scope is RankScope.PER_PLAYER


def test_options_are_set_by_their_json_values() -> None:
    c = parse({"kitty_multiplier": "power_unit", "trick_comparison": "highest_card",
               "rank_scope": "per_player", "no_declaration": "redeal",
               "throw_failure_unit": "first_found", "throw_failure_penalty": 0,
               "seats": 6, "finding_friends": True, "max_rank": "10"})
    assert c.kitty_multiplier is KittyMultiplier.POWER_UNIT
    assert c.trick_comparison is TrickComparison.HIGHEST_CARD
    assert c.max_rank == "T"
    assert parse(c.model_dump(mode="json")) == c  # round-trips through JSON


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"kitty_multiplier": "triple"}, "kitty_multiplier"),
        ({"trick_comparison": "coin_flip"}, "trick_comparison"),
        ({"throw_failure_penalty": -5}, "throw_failure_penalty"),
        ({"max_rank": "Z"}, "max_rank"),
        ({"max_rank": "2"}, "max_rank"),
        ({"seats": 5}, "seats"),
        ({"finding_friends": True}, "seats"),
        ({"jokers": False}, "jokers"),
    ],
)
def test_bad_option_is_rejected_naming_it(options: dict[str, Any], named: str) -> None:
    with pytest.raises(IllegalAction) as e:
        parse(options)
    assert e.value.code == "bad_option"
    assert named in e.value.message
