"""Trick-taking rules shared by whist-like games and bridge."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import rank_of, suit_of


def follows_suit(card: int, hand: Iterable[int], led_suit: int | None) -> bool:
    """Whether playing ``card`` from ``hand`` obeys "follow suit if able"."""
    if led_suit is None or suit_of(card) == led_suit:
        return True
    return all(suit_of(c) != led_suit for c in hand)


def playable(hand: Sequence[int], led_suit: int | None) -> list[int]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit``."""
    if led_suit is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led_suit]
    return same or list(hand)


def winning_index(cards: Sequence[int], trump: int | None) -> int:
    """Index in ``cards`` (in play order) of the card that wins the trick:
    the highest trump if any was played, else the highest card of the led suit."""
    led = suit_of(cards[0])
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        cs, bs = suit_of(c), suit_of(b)
        if cs == bs:
            if rank_of(c) > rank_of(b):
                best = i
        elif cs == trump or (bs != trump and cs == led and bs != led):
            best = i
    return best
