"""Gin deadwood against OpenSpiel's gin_rummy (a trusted peer, test-only).

docs/rummy.md, "Tests": OpenSpiel's gin_rummy is the trusted peer for gin deadwood.
OpenSpiel numbers cards suit-major in the order spades, clubs, diamonds, hearts
with ranks A..K; ours are clubs, diamonds, hearts, spades with ranks 2..A.
"""

from __future__ import annotations

import os
import random

from pyspiel import gin_rummy

from engine.rng import Rng
from rules.rummy import PRESETS, best, deadwood
from rules.rummy.least import min_deadwood

_SUIT_TO_OPENSPIEL = {0: 1, 1: 2, 2: 3, 3: 0}


def to_openspiel(card: int) -> int:
    suit, rank = divmod(card % 54, 13)
    return _SUIT_TO_OPENSPIEL[suit] * 13 + (rank + 1) % 13


def test_card_mapping_matches_openspiel_spelling() -> None:
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    assert utils.card_string(to_openspiel(12)) == "Ac"  # our ace of clubs
    assert utils.card_string(to_openspiel(3 * 13 + 11)) == "Ks"
    assert utils.card_string(to_openspiel(2 * 13 + 8)) == "Th"


def test_gin_deadwood_matches_openspiel() -> None:
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    rng = Rng(7)
    rules = PRESETS["gin"]
    deck = list(range(52))
    for _ in range(3000):
        hand = rng.shuffled(deck)[:10]
        ours = deadwood(best(hand, rules).leftover, rules)
        assert ours == utils.min_deadwood([to_openspiel(c) for c in hand]), hand


def test_least_deadwood_matches_openspiel_on_many_hands() -> None:
    # 100k hands by default (a few seconds); CARDTABLE_GIN_HANDS asks for more.
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(17)
    rules = PRESETS["gin"]
    mapped = [to_openspiel(c) for c in range(52)]
    for _ in range(int(os.environ.get("CARDTABLE_GIN_HANDS", "100000"))):
        hand = rng.sample(range(52), 10)
        expected = utils.min_deadwood([mapped[c] for c in hand])
        assert min_deadwood(hand, rules) == expected, hand
