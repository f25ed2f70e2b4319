"""Poker: the hand evaluator, equity and showdown tools, and the no-limit hold'em table.

``evaluate`` / ``evaluate_batch`` rank hands as Cactus Kev class numbers (1 = royal
flush .. 7,462 = 7-5-4-3-2); ``category`` and ``describe`` name them.  ``equity``
(exact or seeded Monte Carlo, hands or ranges such as ``"QQ+,AKs"``) and
``showdown_report`` (the text of ``cardtable showdown``) build on the batch evaluator.
``PokerGame`` is the hold'em cash table (a :class:`engine.game.Game`, options in
``PokerConfig``); ``PHH`` and ``STARS`` are its file formats (PHH and
PokerStars text hand histories; ``to_phh`` / ``from_phh`` one hand) and
``statistics`` its tracker statistics.
"""

from rules.poker.equity import EquityResult, equity, showdown_report
from rules.poker.evaluator import (
    HandError,
    category,
    describe,
    evaluate,
    evaluate_batch,
    hand_class,
)
from rules.poker.game import PokerGame
from rules.poker.options import OddChip, PokerConfig
from rules.poker.phh import PHH, PhhError, PhhHand, from_phh, read_phh, to_phh
from rules.poker.ranges import HandRange, RangeError, parse_range
from rules.poker.stars import STARS, StarsError, read_stars
from rules.poker.state import HandState, Phase, PokerState
from rules.poker.stats import statistics
from rules.poker.tables.classes import Category, HandClass

__all__ = [
    "PHH",
    "STARS",
    "Category",
    "EquityResult",
    "HandClass",
    "HandError",
    "HandRange",
    "HandState",
    "OddChip",
    "Phase",
    "PhhError",
    "PhhHand",
    "PokerConfig",
    "PokerGame",
    "PokerState",
    "RangeError",
    "StarsError",
    "category",
    "describe",
    "equity",
    "evaluate",
    "evaluate_batch",
    "from_phh",
    "hand_class",
    "parse_range",
    "read_phh",
    "read_stars",
    "showdown_report",
    "statistics",
    "to_phh",
]
