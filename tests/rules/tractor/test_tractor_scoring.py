"""Points, kitty multiplier, level table, next landlord
(docs/tractor.md, "Points, kitty, scoring")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.cards import deck
from engine.rng import Rng
from rules.tractor.game import TractorGame
from rules.tractor.options import AdvancementPolicy, KittyMultiplier, TractorConfig
from rules.tractor.order import NT_LEVEL, TRUMP, Trump, tables
from rules.tractor.scoring import (
    LevelChange,
    LevelTable,
    advance,
    kitty_bonus,
    kitty_multiplier,
    level_change,
    next_landlord,
    penalised,
    points,
)
from rules.tractor.state import Phase
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
        (-35, LevelChange(False, 3)),
        # Penalties below zero keep going down one level per step (shengji).
        (-40, LevelChange(False, 4)),
        (-75, LevelChange(False, 4)),
        (-80, LevelChange(False, 5)),
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
        (280, LevelChange(True, 5)),
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


# ----------------------------------------------------------------------------
# Level table options and advancement (docs/tractor.md, "Level advancement")


@pytest.mark.parametrize(
    ("table", "decks", "p", "change"),
    [
        # Three decks step by 60 (20 per deck): 0 -> +3, 50 -> +2 (shengji's table).
        (LevelTable(), 3, 0, LevelChange(False, 3)),
        (LevelTable(), 3, 50, LevelChange(False, 2)),
        (LevelTable(), 3, 120, LevelChange(True, 0)),
        (LevelTable(), 3, 180, LevelChange(True, 1)),
        # No dead zone: the attackers go up as soon as they take over.
        (LevelTable(deadzone_steps=0), 2, 80, LevelChange(True, 1)),
        (LevelTable(deadzone_steps=0), 2, 120, LevelChange(True, 2)),
        # Without the zero-crossing window every step below turnover is one level.
        (LevelTable(truncate_zero_crossing=False), 2, 40, LevelChange(False, 1)),
        (LevelTable(truncate_zero_crossing=False), 2, 0, LevelChange(False, 2)),
        (LevelTable(truncate_zero_crossing=False), 2, -5, LevelChange(False, 3)),
        # A 30-point step per deck: 60 in two decks, turnover at 120.
        (LevelTable(step_per_deck=30), 2, 115, LevelChange(False, 1)),
        (LevelTable(step_per_deck=30), 2, 120, LevelChange(True, 0)),
        # Three steps to turnover: 80..119 is +1, 40..79 +2, 5..39 +3, 0 +4.
        (LevelTable(turnover_steps=3), 2, 80, LevelChange(False, 1)),
        (LevelTable(turnover_steps=3), 2, 40, LevelChange(False, 2)),
        (LevelTable(turnover_steps=3), 2, 5, LevelChange(False, 3)),
        (LevelTable(turnover_steps=3), 2, 0, LevelChange(False, 4)),
        (LevelTable(turnover_steps=3), 2, 120, LevelChange(True, 0)),
    ],
)
def test_level_table_options(table: LevelTable, decks: int, p: int, change: LevelChange) -> None:
    """The level table's shape options (score_step_per_deck, turnover_steps,
    deadzone_steps, truncate_zero_crossing)."""
    assert table.change(p, decks) == change


MAX_A = 12
POINTS = frozenset({3, 8, 11, MAX_A})  # 5, 10, K and the maximum


@pytest.mark.parametrize(
    ("rank", "levels", "defended", "defending", "after"),
    [
        # defend_max (default): the landlords at A pass it with their first level...
        (MAX_A, 1, frozenset({MAX_A}), True, (MAX_A, True)),
        # ...attackers at A cannot pass it,
        (MAX_A, 2, frozenset({MAX_A}), False, (MAX_A, False)),
        # and a landlord side going up 3 from K stops at A (only the first level passes).
        (11, 3, frozenset({MAX_A}), True, (MAX_A, False)),
        # unrestricted: attackers pass A too.
        (11, 3, frozenset(), False, (MAX_A, True)),
        # defend_points: attackers stop at 5; landlords pass 5 only with the first level.
        (2, 3, POINTS, False, (3, False)),
        (3, 3, POINTS, True, (6, False)),
        (2, 3, POINTS, True, (3, False)),
    ],
)
def test_advancement_policies(rank: int, levels: int, defended: frozenset[int], defending: bool,
                              after: tuple[int, bool]) -> None:
    """A defended rank is gone past only by the landlord side with the first level
    of the round (shengji's advancement policy)."""
    assert advance(rank, levels, MAX_A, defended, defending) == after


def test_defended_ranks_from_options() -> None:
    """``advancement`` and ``defend_ranks`` together name the defended ranks."""
    assert TractorConfig().defended_ranks == {MAX_A}
    assert TractorConfig(advancement=AdvancementPolicy.UNRESTRICTED).defended_ranks == set()
    assert TractorConfig(advancement=AdvancementPolicy.DEFEND_POINTS).defended_ranks == POINTS
    cfg = TractorConfig(defend_ranks=["5", "10", "j"])
    assert cfg.defend_ranks == ("5", "T", "J") and cfg.defended_ranks == {3, 8, 9, MAX_A}


def test_max_rank_nt_plays_a_level_past_a() -> None:
    """``max_rank`` NT (shengji's MaxRank::NoTrump): after A comes the NT level,
    where only the jokers are trump; A and NT must be defended on the way
    (docs/tractor.md, "Level advancement")."""
    cfg = TractorConfig(max_rank="NT")
    assert cfg.max_rank_index == NT_LEVEL and cfg.defended_ranks == {MAX_A, NT_LEVEL}
    # Landlords at A going up 3 reach NT and stop there.
    assert advance(MAX_A, 3, NT_LEVEL, cfg.defended_ranks, True, MAX_A) == (NT_LEVEL, False)
    # Holding at NT as the landlord side passes it: the match is won.
    assert advance(NT_LEVEL, 1, NT_LEVEL, cfg.defended_ranks, True, NT_LEVEL) == (NT_LEVEL, True)
    # A seat at NT on a landlord side playing another rank cannot pass it.
    assert advance(NT_LEVEL, 1, NT_LEVEL, cfg.defended_ranks, True, 5) == (NT_LEVEL, False)
    t = tables(Trump(NT_LEVEL, None))
    assert {f for f in range(54) if t.suit[f] == TRUMP} == {52, 53}  # jokers only
    assert t.phi[12] == 13 and t.phi[11] == 12  # A of a suit is its top, K below it


def test_an_nt_level_round_has_no_declarations_and_no_trump_suit() -> None:
    """At the NT level nobody declares; the draw ends with no trump suit."""
    game = TractorGame()
    s = game.new(game.parse_config({"max_rank": "NT", "rounds": 1}), 3)
    s = replace(s, levels=(NT_LEVEL, 0, NT_LEVEL, 0), landlord=0, starter=0, drawer=0)
    rng = Rng(3)
    while s.phase is Phase.DRAW:
        seat = rng.choice(game.to_act(s))
        legal = game.legal(s, seat)
        assert all(a["type"] != "declare" for a in legal)
        s, _ = game.act(s, seat, rng.choice(legal))
    assert s.trump == Trump(NT_LEVEL, None) and s.landlord == 0
    assert game.view(s, 0)["rank"] == "NT"
