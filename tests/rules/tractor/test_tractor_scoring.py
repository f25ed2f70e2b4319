"""Points, kitty multiplier, level table, next landlord
(docs/tractor.md, "Points, kitty, scoring")."""

from __future__ import annotations

import pytest

from engine.cards import deck
from rules.tractor.options import KittyMultiplier
from rules.tractor.scoring import (
    LevelChange,
    advance,
    kitty_bonus,
    kitty_multiplier,
    level_change,
    next_landlord,
    penalised,
    points,
)
from rules.tractor.structure import Template
from tests.rules.tractor.tractor_cases import ids


def test_two_decks_hold_200_points() -> None:
    """Fives are worth 5, tens and kings 10: 200 points in two decks."""
    assert points(deck(2, jokers=True)) == 200
    assert points(ids("5S TH KD AS BJ 2C")) == 25


@pytest.mark.parametrize(
    ("p", "change"),
    [
        (0, LevelChange(False, 3)),
        (-10, LevelChange(False, 3)),
        (5, LevelChange(False, 2)),
        (35, LevelChange(False, 2)),
        (40, LevelChange(False, 1)),
        (75, LevelChange(False, 1)),
        (80, LevelChange(True, 0)),
        (115, LevelChange(True, 0)),
        (120, LevelChange(True, 1)),
        (155, LevelChange(True, 1)),
        (160, LevelChange(True, 2)),
        (195, LevelChange(True, 2)),
        (200, LevelChange(True, 3)),  # "each further 40 → +1"
        (240, LevelChange(True, 4)),
    ],
)
def test_level_change_table(p: int, change: LevelChange) -> None:
    """The level table: 0 → landlords +3; 5–35 → +2; 40–75 → +1; 80–115 → the
    attackers take over, +0; 120–155 → +1; 160–195 → +2; every further 40 → +1."""
    assert level_change(p) == change


@pytest.mark.parametrize(
    ("lead", "option", "factor"),
    [
        (Template((), 0, 1), KittyMultiplier.DOUBLE_UNIT, 2),
        (Template((), 1, 1), KittyMultiplier.DOUBLE_UNIT, 4),
        (Template((2,), 1, 0), KittyMultiplier.DOUBLE_UNIT, 8),
        (Template((), 1, 0), KittyMultiplier.POWER_UNIT, 4),
        (Template((2,), 0, 0), KittyMultiplier.POWER_UNIT, 16),
        (Template((2,), 0, 1), KittyMultiplier.DOUBLE_CARDS, 10),
    ],
)
def test_kitty_multiplier_options(lead: Template, option: KittyMultiplier, factor: int) -> None:
    """Option ``kitty_multiplier``: twice the largest unit of the last trick (default),
    2 to the power of that size, or twice the cards."""
    assert kitty_multiplier(lead, option) == factor


def test_kitty_bonus_multiplies_the_kitty_points() -> None:
    kitty = ids("5S TS KS 3D 4D 6C 7C 8C")
    assert kitty_bonus(kitty, Template((), 1, 0), KittyMultiplier.DOUBLE_UNIT) == 25 * 4


def test_next_landlord() -> None:
    """The landlord's partner if the landlords held, else the first attacker after
    the landlord."""
    assert next_landlord(1, attackers_win=False) == 3
    assert next_landlord(3, attackers_win=False) == 1
    assert next_landlord(1, attackers_win=True) == 2
    assert next_landlord(3, attackers_win=True) == 0


def test_failed_throw_penalty_goes_to_the_other_side() -> None:
    """Option ``throw_failure_penalty``: 10 points per failed throw by default."""
    assert penalised(60, failed_throws_by_attackers=1, failed_throws_by_landlords=0,
                     penalty=10) == 50
    assert penalised(60, failed_throws_by_attackers=0, failed_throws_by_landlords=2,
                     penalty=10) == 80


def test_passing_the_maximum_rank_wins_the_match() -> None:
    assert advance(5, 2, max_rank=12) == (7, False)
    assert advance(11, 3, max_rank=12) == (12, True)
    assert advance(12, 0, max_rank=12) == (12, False)
