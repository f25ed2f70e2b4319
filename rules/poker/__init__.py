"""Poker: the hand evaluator, equity and showdown tools, and the no-limit hold'em table.

``evaluate`` / ``evaluate_batch`` rank hands as Cactus Kev class numbers (1 = royal
flush .. 7,462 = 7-5-4-3-2); ``category`` and ``describe`` name them.  ``equity``
(exact or seeded Monte Carlo, hands or ranges such as ``"QQ+,AKs"``) and
``showdown_report`` (the text of ``cardtable showdown``) build on the batch evaluator.
``PokerGame`` is the hold'em cash table (a :class:`engine.game.Game`, options in
``PokerConfig``); ``to_phh`` / ``from_phh`` write and read hands in PHH.
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
from rules.poker.phh import PhhError, PhhHand, from_phh, to_phh
from rules.poker.ranges import HandRange, RangeError, parse_range
from rules.poker.state import HandState, Phase, PokerState
from rules.poker.tables.classes import Category, HandClass

__all__ = [
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
    "category",
    "describe",
    "equity",
    "evaluate",
    "evaluate_batch",
    "from_phh",
    "hand_class",
    "parse_range",
    "showdown_report",
    "to_phh",
]
