"""The lazy walk of the decomposition chain (rules/tractor/chain.py) is the
chain: the same requirements in the same order, each once, and with a
monotone test exactly the chain's requirements that pass it (docs/tractor.md,
"The tuple check's cost").  The listing it replaces stays the reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cards import FACES_PER_DECK
from rules.tractor import tuples
from rules.tractor.chain import LISTED, SMALL, decomposition_chain, walk_chain
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.tuples import Requirement

# One unit above SMALL cards (walked lazily) with small units beside it.
BIG = [(2,) * 5, (2,) * 6, (2,) * 7, (2,) * 8, (3,) * 4, (3,) * 5, (4,) * 3, (4,) * 4]
SMALL_UNITS = [(1,), (2,), (3,), (4,), (2, 2), (3, 3), (2, 2, 2), (4, 4)]


def leads(seed: int, n: int) -> list[tuple[Requirement, bool]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        units = [rnd.choice(BIG)] + [rnd.choice(SMALL_UNITS) for _ in range(rnd.randrange(4))]
        out.append((tuple(sorted(units, reverse=True)), rnd.random() < 0.7))
    return out


def test_the_big_units_are_walked_lazily() -> None:
    assert all(sum(u) > SMALL for u in BIG) and all(sum(u) <= SMALL for u in SMALL_UNITS)
    assert sum((2,) * 9) > LISTED >= sum((2,) * 5)


@pytest.mark.parametrize("adjacency", [True, False])
def test_a_unit_above_sixteen_cards_beside_one_above_eight(adjacency: bool) -> None:
    """Above LISTED cards a unit is walked lazily beside units of up to LISTED."""
    lead = ((2,) * 9, (2,) * 5, (1,))
    want = list(dict.fromkeys(decomposition_chain(lead, adjacency)))
    assert list(walk_chain(lead, adjacency, lambda r: True)) == want


@pytest.mark.parametrize(("lead", "adjacency"), leads(1, 40))
def test_the_walk_lists_the_chain_in_order_each_requirement_once(
    lead: Requirement, adjacency: bool
) -> None:
    """Nothing rejected: the walk is the chain without its repeats (a repeat
    decides nothing its first occurrence did not)."""
    want = list(dict.fromkeys(decomposition_chain(lead, adjacency)))
    assert list(walk_chain(lead, adjacency, lambda r: True)) == want


@pytest.mark.parametrize(("lead", "adjacency"), leads(2, 30))
def test_the_walk_yields_exactly_the_requirements_a_hand_can_meet(
    lead: Requirement, adjacency: bool
) -> None:
    """With "this hand can meet it" (with or without protection) the walk
    yields exactly the chain's requirements the hand meets, in the chain's
    order: so the first is the requirement the follow rule stops at."""
    rnd = random.Random(hash(lead) & 0xFFFF)
    trump = Trump(rnd.randrange(13), rnd.randrange(4))
    t = tables(trump)
    faces = [f for f in range(FACES_PER_DECK) if t.suit[f] == TRUMP]
    chain = list(dict.fromkeys(decomposition_chain(lead, adjacency)))
    for _ in range(4):
        decks = rnd.choice((3, 4))
        counts = +Counter({f: rnd.randrange(decks + 1) for f in rnd.sample(faces, 12)})
        protect = rnd.random() < 0.4

        def meets(req: Requirement) -> bool:
            return tuples.can_match(counts, req, trump, protect)  # noqa: B023

        assert list(walk_chain(lead, adjacency, meets)) == [r for r in chain if meets(r)]


def test_a_tractor_of_twelve_pairs_is_followed_from_its_first_fitting_requirement() -> None:
    """A lead tractor of twelve pairs (shengji's chain lists millions of
    requirements for it) against a hand whose pairs run in fives: the hand
    must play the first requirement of the chain it can meet -- two tractors
    of five pairs and one of two."""
    trump = Trump(0, 3)
    t = tables(trump)
    faces = sorted((f for f in range(FACES_PER_DECK) if t.suit[f] == TRUMP),
                   key=lambda f: (t.phi[f], f))
    counts = Counter({f: 2 for i, f in enumerate(faces) if i % 6 != 5})

    def meets(req: Requirement) -> bool:
        return tuples.can_match(counts, req, trump)

    first = next(walk_chain(((2,) * 12,), True, meets))
    assert first == ((2, 2, 2, 2, 2), (2, 2, 2, 2, 2), (2, 2))
