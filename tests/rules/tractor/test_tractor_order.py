"""Trump partition, order and Φ (docs/tractor.md, "Trumps and order")."""

from __future__ import annotations

import pytest

from engine.cards import BIG_JOKER, SMALL_JOKER, parse_face
from rules.tractor.order import TRUMP, Trump, adjacent, beats, effective_suit, is_trump, phi
from tests.rules.tractor.paper_reference import paper_phi
from tests.rules.tractor.tractor_cases import ids

C, D, H, S = range(4)
RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def f(text: str) -> int:
    return parse_face(text)


def test_phi_is_algorithm_1_for_every_rank_and_trump_suit() -> None:
    """Paper §3.1, Algorithm 1, for all 13 current ranks × 4 trump suits × 54 faces."""
    for rank in range(13):
        for suit in range(4):
            trump = Trump(rank, suit)
            for face in range(54):
                assert phi(face, trump) == paper_phi(face, rank, suit), (trump, face)


@pytest.mark.parametrize(
    ("trump", "card", "is_t"),
    [
        # "Trump set = both jokers + every card of rank CR + every card of suit S_m."
        (Trump(RANK["J"], H), "BJ", True),
        (Trump(RANK["J"], H), "SJ", True),
        (Trump(RANK["J"], H), "JS", True),
        (Trump(RANK["J"], H), "3H", True),
        (Trump(RANK["J"], H), "AS", False),
        # "In no-trump only jokers and CR cards are trump."
        (Trump(RANK["5"], None), "5C", True),
        (Trump(RANK["5"], None), "SJ", True),
        (Trump(RANK["5"], None), "AH", False),
    ],
)
def test_trump_partition(trump: Trump, card: str, is_t: bool) -> None:
    assert is_trump(f(card), trump) is is_t
    assert (effective_suit(f(card), trump) == TRUMP) is is_t


def test_order_inside_trump() -> None:
    """Big joker, small joker, the trump suit's CR card, the other CR cards (equal),
    then the trump suit from A down to 2 without the current rank."""
    trump = Trump(RANK["7"], S)
    ladder = ["BJ", "SJ", "7S", "7H", "AS", "KS", "8S", "6S", "2S"]
    values = [phi(f(c), trump) for c in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert phi(f("7H"), trump) == phi(f("7D"), trump) == phi(f("7C"), trump)


def test_rank_displacement_makes_ten_and_queen_adjacent_at_cr_jack() -> None:
    """With the current rank taken out of its suit, 10 and Q are neighbours at CR = J."""
    trump = Trump(RANK["J"], H)
    assert adjacent(f("TS"), f("QS"), trump)
    assert adjacent(f("TH"), f("QH"), trump)  # in the trump suit too
    assert not adjacent(f("TS"), f("QS"), Trump(RANK["5"], H))


def test_tractor_chain_runs_through_the_top_of_trump() -> None:
    """The chain at the top of trumps: trump A, off-suit CR, trump CR, SJ, BJ."""
    trump = Trump(RANK["2"], D)
    assert adjacent(f("AD"), f("2C"), trump)
    assert adjacent(f("AD"), f("2S"), trump)
    assert adjacent(f("2H"), f("2D"), trump)
    assert adjacent(f("2D"), SMALL_JOKER, trump)
    assert adjacent(SMALL_JOKER, BIG_JOKER, trump)


def test_off_suit_rank_cards_are_not_consecutive_with_each_other() -> None:
    """Two different off-suit CR faces are never neighbours of each other."""
    trump = Trump(RANK["2"], D)
    assert not adjacent(f("2C"), f("2H"), trump)
    assert not adjacent(f("2H"), f("2C"), trump)


def test_natural_suits_do_not_chain_into_trump() -> None:
    """A tractor lies in one effective suit: natural A and trump 2 are not adjacent."""
    trump = Trump(RANK["5"], H)
    assert phi(f("AS"), trump) + 1 == phi(f("2H"), trump)
    assert not adjacent(f("AS"), f("2H"), trump)


def test_no_trump_rank_cards_sit_just_below_the_small_joker() -> None:
    """Our extension of Algorithm 1 to no-trump (docs/tractor.md): CR cards of every
    suit are equal, and a CR pair chains with a small-joker pair."""
    trump = Trump(RANK["9"], None)
    assert {phi(f(c), trump) for c in ("9C", "9D", "9H", "9S")} == {26}
    assert adjacent(f("9H"), SMALL_JOKER, trump)
    assert not adjacent(f("9H"), f("9S"), trump)
    assert phi(f("AS"), trump) == 12 and effective_suit(f("AS"), trump) == S


@pytest.mark.parametrize(
    ("led", "holder", "challenger", "wins"),
    [
        # "Equal-valued different cards ... a later equal card does not beat an
        # earlier one: ties go to who played first."
        ("AS", "7H", "7C", False),
        ("AS", "KS", "KS", False),  # the other copy of the same card
        # Trump beats the led suit; an off-suit discard never wins.
        ("AS", "AS", "3H", True),
        ("AS", "AS", "AD", False),
        ("AS", "KS", "AS", True),
        # Inside trump the order decides.
        ("3H", "7S", "7H", True),
        ("3H", "SJ", "BJ", True),
        ("3H", "BJ", "SJ", False),
    ],
)
def test_single_card_beats(led: str, holder: str, challenger: str, wins: bool) -> None:
    trump = Trump(RANK["7"], H)
    led_suit = effective_suit(f(led), trump)
    h, c = ids(f"{holder} {challenger}")
    assert beats(c, h, led_suit, trump) is wins
