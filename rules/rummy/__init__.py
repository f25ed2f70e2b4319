"""Rummy rules: the combo generator and the meld rules of every preset.

``combos(hand, rules)`` lists every maximal arrangement of a hand (disjoint melds
plus leftover), ``best(hand, rules)`` picks the best under the preset's objective.
``RummyGame`` plays Indian and gin rummy on them (``RummyConfig.variant``).
"""

from .combos import best, combos
from .grid import Hand, to_hand
from .groups import MeldError, arrange_groups, lay_off, read_meld
from .melds import (
    Arrangement,
    Kind,
    Meld,
    card_points,
    counted_points,
    deadwood,
    declaration_ok,
    meld_ok,
    objective_key,
    points_charged,
    runs_ok,
)
from .options import PRESETS, AceRule, MeldRules, Objective, PointScheme, Pool, RummyConfig, Variant

__all__ = [
    "PRESETS",
    "AceRule",
    "Arrangement",
    "Hand",
    "Kind",
    "Meld",
    "MeldError",
    "MeldRules",
    "Objective",
    "PointScheme",
    "Pool",
    "RummyConfig",
    "RummyGame",
    "RummyState",
    "Variant",
    "arrange_groups",
    "best",
    "card_points",
    "combos",
    "counted_points",
    "deadwood",
    "declaration_ok",
    "lay_off",
    "meld_ok",
    "objective_key",
    "points_charged",
    "read_meld",
    "runs_ok",
    "to_hand",
]

# Last: the Game builds on everything above.
from .game import RummyGame
from .state import RummyState
