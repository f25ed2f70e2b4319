"""The compiled solver against plain minimax on small endings.

docs/dds.md (its opening): with all four hands known and best play by both
sides, how many tricks the side to move takes from any position (full deal,
ending or mid-trick), and the score of every legal card. Issue 6 §3: equal to
the pure-Python reference on >= 2,000 random endings of 1-5 cards per hand,
all strains, all leaders, mid-trick too.
"""

from __future__ import annotations

import pytest

from engine.cards import format_face
from engine.dds import Solver, solve, solve_position
from engine.dds.deal import make_deal
from engine.rng import Rng
from tests.engine.dds.reference import SUIT_MASK, reference_scores

# Endings per cards-a-hand: the reference's cost grows ~10x per card.
MIX = {1: 600, 2: 600, 3: 500, 4: 280, 5: 20}
STRAINS = "CDHSN"


def random_ending(rng: Rng, k: int) -> tuple[list[list[int]], int, int, list[int]]:
    """Four k-card hands (face lists), strain, leader, and 0-3 cards already
    played to the current trick by legal random play."""
    cards = rng.shuffled(list(range(52)))[: 4 * k]
    hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(4)]
    strain, leader = rng.below(5), rng.below(4)
    trick: list[int] = []
    for i in range(rng.below(4)):
        seat = (leader + i) % 4
        hand = hands[seat]
        legal = [c for c in hand if trick and c // 13 == trick[0] // 13] or hand
        card = rng.choice(legal)
        hand.remove(card)
        trick.append(card)
    return hands, strain, leader, trick


def masks(hands: list[list[int]]) -> list[int]:
    out = [0] * 16
    for seat, hand in enumerate(hands):
        for f in hand:
            out[seat * 4 + f // 13] |= 1 << (f % 13)
    return out


def cases() -> list[tuple[int, int]]:
    return [(k, i) for k, n in MIX.items() for i in range(n)]


@pytest.mark.parametrize("table", ["ranks", "exact", "exact+bloom"])
def test_endings_match_plain_minimax(table: str) -> None:
    """Every legal card's score, and the best, equal plain minimax's, whichever
    table holds the bounds (winning ranks, or the exact 8-byte table with or
    without its Bloom filter)."""
    rng = Rng(20261122)
    solver = Solver(tt_bytes=1 << 20, exact=table != "ranks", bloom=table.endswith("bloom"))
    checked = mid_trick = 0
    seen_strains: set[int] = set()
    seen_leaders: set[int] = set()
    for k, _ in cases():
        hands, strain, leader, trick = random_ending(rng, k)
        bits = tuple(sum(1 << f for f in h) for h in hands)
        ref = reference_scores(bits, None if strain == 4 else strain, leader, tuple(trick))
        best, pairs = solver.scores(masks(hands), strain, leader, trick)
        assert dict(pairs) == ref, (hands, STRAINS[strain], leader, trick)
        assert best == max(ref.values())
        assert solver.solve(masks(hands), strain, leader, trick) == best
        checked += 1
        mid_trick += bool(trick)
        seen_strains.add(strain)
        seen_leaders.add(leader)
    assert checked >= 2000 and mid_trick >= 1000
    assert seen_strains == set(range(5)) and seen_leaders == set(range(4))


def test_public_api_on_endings() -> None:
    """solve() and solve_position() give the reference's numbers through PBN and
    card spellings (tricks for the leader's side; per-card scores)."""
    rng = Rng(7)
    for _ in range(150):
        k = 1 + rng.below(3)
        cards = rng.shuffled(list(range(52)))[: 4 * k]
        hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(4)]
        strain, leader = rng.below(5), rng.below(4)
        deal = make_deal(hands)
        bits = tuple(sum(1 << f for f in h) for h in hands)
        ref = reference_scores(bits, None if strain == 4 else strain, leader, ())
        assert solve(deal.to_pbn(), STRAINS[strain], "NESW"[leader]) == max(ref.values())
        # One card played: the next player's scores.
        first = rng.choice(hands[leader])
        after = tuple(b & ~(1 << first) if s == leader else b for s, b in enumerate(bits))
        ref2 = reference_scores(after, None if strain == 4 else strain, leader, (first,))
        pos = solve_position(deal.to_pbn(), STRAINS[strain], "NESW"[leader],
                             [format_face(first)])
        assert pos.scores == {format_face(f): v for f, v in ref2.items()}
        assert pos.best == max(ref2.values())


def test_suit_masks_cover_the_deck() -> None:
    """The reference's suit masks partition the 52 faces (clubs at bit 0)."""
    assert sum(SUIT_MASK) == (1 << 52) - 1


@pytest.mark.parametrize("bad", [
    ([1, 0, 0, 0] * 4, "a card is in two hands"),
    ([1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 24, 0, 0, 0], "matching numbers"),
])
def test_core_rejects_impossible_positions(bad: tuple[list[int], str]) -> None:
    """A card in two hands, or hands of unequal length, is refused with a message."""
    masks_, message = bad
    with pytest.raises(ValueError, match=message):
        Solver(tt_bytes=1 << 16).solve(masks_, 4, 0)
