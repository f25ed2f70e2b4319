"""Crazy Eights scoring: penalty points for the cards left in a hand
(docs/rules/crazy_eights.md, rule 8 "Scoring")."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import rank_of

EIGHT = 6  # engine rank index of the eights (2 is 0)
_JACK = 9


def card_points(card: int) -> int:
    """An eight 50, a king, queen or jack 10, an ace 1, any other card its pips."""
    rank = rank_of(card)
    if rank == EIGHT:
        return 50
    if rank == 12:
        return 1
    if rank >= _JACK:
        return 10
    return rank + 2


def hand_points(cards: Iterable[int]) -> int:
    """The penalty of the cards left in one hand."""
    return sum(card_points(c) for c in cards)
