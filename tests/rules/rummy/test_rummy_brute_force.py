"""``best`` and ``combos`` against an exhaustive brute force on random hands.

For each preset, 10,000 random 13- and 14-card hands from two decks, half of
them from a shoe with the two printed jokers (and, for indian, a wild rank on
half of those): ``best`` reaches the brute force's optimum, ``best`` is one of
``combos``, and every optimal maximal arrangement the brute force finds is one
of ``combos`` (docs/rummy.md, "What the generator returns": every maximal
arrangement, and the best one under the preset's objective).
"""

from __future__ import annotations

import pytest

from engine.rng import Rng
from rules.rummy import PRESETS, MeldRules
from rules.rummy.combos import arrangement_shapes
from rules.rummy.maximal import extend_to_maximal
from rules.rummy.search import best_shape

from .rummy_brute import brute_best, key

HANDS_PER_PRESET = 10_000
DENSE_HANDS_PER_PRESET = 300


def _counts(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * 54
    for c in cards:
        counts[c % 54] += 1
    return tuple(counts)


def random_cases(preset: str, n: int, seed: int) -> list[tuple[tuple[int, ...], MeldRules]]:
    """``n`` (hand counts, rules) pairs: 13/14 cards, two decks, jokers on half."""
    rng = Rng(seed)
    base = PRESETS[preset]
    gin_jokers = base.replace(printed_jokers=True)  # gin has no jokers; the same rules with them
    wild = [base.with_wild(rank) for rank in range(13)]
    cases = []
    for i in range(n):
        with_jokers = i % 2 == 0
        shoe = [c * 54 + f for c in range(2) for f in range(52)]
        rules = base
        if with_jokers:
            shoe += [52, 53]
            if preset == "gin":
                rules = gin_jokers
            elif i % 4 == 0:
                rules = wild[rng.below(13)]
        hand = rng.shuffled(shoe)[: 13 + i % 2]
        cases.append((_counts(hand), rules))
    return cases


def dense_cases(preset: str, n: int, seed: int) -> list[tuple[tuple[int, ...], MeldRules]]:
    """Hands crowded into 3 suits x 6 ranks of two decks: duplicate runs, double
    sets and control points are common here, rare in uniform deals."""
    rng = Rng(seed)
    base = PRESETS[preset]
    gin_jokers = base.replace(printed_jokers=True)
    cases = []
    for i in range(n):
        low = rng.below(13)
        suits = rng.shuffled([0, 1, 2, 3])[:3]
        shoe = [c * 54 + s * 13 + (low + r) % 13 for c in range(2) for s in suits for r in range(6)]
        rules = base
        if i % 2 == 0:
            shoe += [52, 53]
            rules = gin_jokers if preset == "gin" else base.with_wild(rng.below(13))
        cases.append((_counts(rng.shuffled(shoe)[: 13 + i % 2]), rules))
    return cases


@pytest.mark.parametrize("preset", ["indian", "gin"])
def test_best_and_combos_agree_with_brute_force(preset: str) -> None:
    check(random_cases(preset, HANDS_PER_PRESET, seed=2026 + len(preset)))


@pytest.mark.parametrize("preset", ["indian", "gin"])
def test_dense_hands_agree_with_brute_force(preset: str) -> None:
    check(dense_cases(preset, DENSE_HANDS_PER_PRESET, seed=77 + len(preset)))


def check(cases: list[tuple[tuple[int, ...], MeldRules]]) -> None:
    failures = []
    for counts, rules in cases:
        found = best_shape(counts, rules)
        # the brute force checks ``found`` is a legal arrangement, then uses it
        # only as a starting bound: the search stays exhaustive
        optimum, optimal = brute_best(counts, rules, incumbent=found)
        shapes = arrangement_shapes(counts, rules)
        chosen = extend_to_maximal(found, rules)
        if key(found, rules) != optimum or key(chosen, rules) != optimum:
            failures.append(("best", counts, rules.wild_rank, optimum, key(found, rules)))
        if chosen not in shapes:
            failures.append(("best not in combos", counts, rules.wild_rank, chosen))
        missing = [a for a in optimal if a not in shapes]
        if missing:
            failures.append(("combos misses", counts, rules.wild_rank, missing[:2]))
    assert not failures, failures[:5]
