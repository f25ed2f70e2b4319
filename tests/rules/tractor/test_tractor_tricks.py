"""Trick winner (docs/tractor.md, "Winning a trick") under the three comparison options."""

from __future__ import annotations

import pytest

from rules.tractor.options import TrickComparison
from rules.tractor.order import Trump
from rules.tractor.structure import check_lead
from rules.tractor.tricks import trick_winner
from tests.rules.tractor.tractor_cases import ids

CR2_HEARTS = Trump(0, 2)
ALL, HIGHEST, LARGEST = (TrickComparison.ALL_UNITS, TrickComparison.HIGHEST_CARD,
                         TrickComparison.LARGEST_UNIT_FIRST)


def winner(*plays: str, comparison: TrickComparison = ALL) -> int:
    taken: set[int] = set()
    cards = [ids(p, taken) for p in plays]
    return trick_winner(check_lead(cards[0], CR2_HEARTS), cards, CR2_HEARTS, comparison)


def test_ties_go_to_who_played_first() -> None:
    """Of two equal cards in a trick, the one played first stays ahead."""
    assert winner("AS", "KS", "AS", "3S") == 0
    assert winner("3D", "2S", "2C", "4D") == 1  # off-suit CR cards are equal trumps


def test_trump_beats_the_led_suit_and_a_discard_never_wins() -> None:
    assert winner("AS", "3H", "AD", "KS") == 1
    assert winner("AS", "3D", "AD", "KS") == 0


def test_the_challenger_must_beat_the_current_winner() -> None:
    """Each play must beat the play winning so far, not only the lead."""
    assert winner("KS KS", "3H 3H", "AS AS", "4H 4H") == 3
    assert winner("KS KS", "4H 4H", "AS AS", "3H 3H") == 1


def test_a_non_conforming_play_can_never_win() -> None:
    """A play that does not conform to the lead's template can never win the trick."""
    assert winner("KS KS", "3H 4H", "5S 6S", "7S 8S") == 0
    assert winner("KS KS QS QS", "3H 3H 5H 5H", "4S 5S 6S 7S", "8S 8S 9S 9S") == 0
    assert winner("KS KS QS QS", "3H 3H 4H 4H", "4S 5S 6S 7S", "8S 8S 9S 9S") == 1
    assert winner("KS KS", "3S 3H", "4S 5S", "6S 7S") == 0  # mixed suit and trump


@pytest.mark.parametrize(
    ("challenger", "comparison", "wins"),
    [
        # Winner holds pair 5H5H + single 9H (trumping a spade throw QS JS JS).
        ("TH 4H 4H", ALL, False),  # pair lower
        ("TH 4H 4H", LARGEST, False),  # the pair is compared first
        ("TH 4H 4H", HIGHEST, True),  # T over 9
        ("3H 6H 6H", ALL, False),  # single lower
        ("3H 6H 6H", LARGEST, True),  # pair 6 over 5 decides
        ("3H 6H 6H", HIGHEST, False),  # 6 under 9
        ("TH 6H 6H", ALL, True),
    ],
)
def test_comparison_options(challenger: str, comparison: TrickComparison, wins: bool) -> None:
    """By default every unit, matched highest to highest, must be strictly higher;
    the options compare only the highest card, or the largest units first with
    the first difference deciding."""
    got = winner("QS JS JS", "9H 5H 5H", challenger, comparison=comparison)
    assert got == (2 if wins else 1)


def test_all_units_tries_every_matching_of_the_challenger() -> None:
    """Every way of fitting the challenger's cards to the template is tried:
    TH TH 4H 4H beats 3H 3H + 9H 8H only as pair 4H4H + singles TH TH."""
    assert winner("QS JS 9S 9S", "3H 3H 9H 8H", "TH TH 4H 4H") == 2
    assert winner("QS JS 9S 9S", "3H 3H 9H 8H", "7H 7H 4H 4H") == 1
