"""Trump partition, card order and the paper's rank normalisation Φ.

A round has a current rank CR (0 = deuce .. 12 = ace) and a trump suit, or no
trump.  Every card falls into one *effective suit*: one of the four natural
suits, or TRUMP (jokers, every CR card, every card of the trump suit).

Φ (Kuncoro 2026, Algorithm 1) maps a card to an integer such that two pairs
are consecutive in a tractor exactly when their Φ differ by one and they lie
in the same effective suit.  With ``p = rank + 1`` (1..13):

* natural suit: ``p - [p > p_CR]``                         -> 1..12
* trump suit, not CR: ``p + 12 - [p > p_CR]``              -> 13..24
* CR of another suit: 25; CR of the trump suit: 26
* small joker 27, big joker 28

so the top of trump runs trump A (24) -> off-suit CR (25) -> trump CR (26) ->
SJ (27) -> BJ (28), and at CR = J the 10 and Q become adjacent.  Φ is also the
order: within an effective suit a higher Φ beats a lower one, trump (>= 13)
beats every natural card, and the off-suit CR cards are equal to each other.

No trump (which Algorithm 1 leaves undefined for jokers and CR cards): the CR
cards of all four suits take 26, just below the small joker, so a CR pair and a
small-joker pair form a tractor as in rbtying/shengji; they are equal to each
other, like off-suit CR cards under a suit trump.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.cards import BIG_JOKER, FACES_PER_DECK, RANKS, SMALL_JOKER, SUITS

TRUMP = 4
"""The effective suit of every trump card (natural suits are 0..3)."""

NT_LEVEL = 13
"""The level after A when ``max_rank`` is NT: no rank card is trump, only the
jokers (docs/tractor.md, "Level advancement")."""


def rank_name(rank: int) -> str:
    """A level's name: ``2``..``A``, or ``NT`` past A."""
    return "NT" if rank == NT_LEVEL else RANKS[rank]


def suit_name(suit: int | None) -> str:
    """A trump suit's letter, or ``NT`` for none (jokers and level cards only)."""
    return "NT" if suit is None else SUITS[suit]


def rank_index(name: str) -> int:
    """The level a name spells (``NT`` past A); ValueError for anything else."""
    return NT_LEVEL if name == "NT" else RANKS.index(name)

OFF_SUIT_RANK_PHI = 25
TRUMP_RANK_PHI = 26


@dataclass(frozen=True)
class Trump:
    """The trump of a round: current rank (0..12) and suit (0..3, None = no trump)."""

    rank: int
    suit: int | None

    def __post_init__(self) -> None:
        if not 0 <= self.rank <= NT_LEVEL:
            raise ValueError(f"rank must be 0..{NT_LEVEL}, got {self.rank}")
        if self.rank == NT_LEVEL and self.suit is not None:
            raise ValueError("the NT level has no trump suit")
        if self.suit is not None and not 0 <= self.suit <= 3:
            raise ValueError(f"suit must be 0..3 or None, got {self.suit}")

    def __str__(self) -> str:
        if self.rank == NT_LEVEL:
            return "NT"
        return RANKS[self.rank] + suit_name(self.suit)


@dataclass(frozen=True)
class FaceTables:
    """Φ and effective suit of each of the 54 faces under one trump."""

    phi: tuple[int, ...]
    suit: tuple[int, ...]


def _phi_and_suit(f: int, trump: Trump) -> tuple[int, int]:
    if f == BIG_JOKER:
        return 28, TRUMP
    if f == SMALL_JOKER:
        return 27, TRUMP
    suit, rank = divmod(f, 13)
    if rank == trump.rank:
        if trump.suit is None or suit == trump.suit:
            return TRUMP_RANK_PHI, TRUMP
        return OFF_SUIT_RANK_PHI, TRUMP
    p = rank + 1
    below = p - (1 if rank > trump.rank else 0)  # rank displacement: CR leaves the line
    if suit == trump.suit:
        return below + 12, TRUMP
    return below, suit


@lru_cache(maxsize=64)
def tables(trump: Trump) -> FaceTables:
    """Per-face Φ and effective suit for ``trump`` (cached: 13 × 5 trumps exist)."""
    pairs = [_phi_and_suit(f, trump) for f in range(FACES_PER_DECK)]
    return FaceTables(tuple(p for p, _ in pairs), tuple(s for _, s in pairs))


def phi(card: int, trump: Trump) -> int:
    """Φ of a card id (or face) under ``trump``."""
    return tables(trump).phi[card % FACES_PER_DECK]


def effective_suit(card: int, trump: Trump) -> int:
    """The effective suit of a card: 0..3 for natural suits, ``TRUMP`` for trumps."""
    return tables(trump).suit[card % FACES_PER_DECK]


def is_trump(card: int, trump: Trump) -> bool:
    """True when the card belongs to the trump set."""
    return effective_suit(card, trump) == TRUMP


def beats(challenger: int, holder: int, led_suit: int, trump: Trump) -> bool:
    """Whether single card ``challenger`` beats ``holder`` in a trick led in ``led_suit``.

    Ties never overtake: an equal card (the other copy, or an off-suit CR card
    against another) played later does not beat the earlier one.
    """
    t = tables(trump)
    cs, hs = t.suit[challenger % FACES_PER_DECK], t.suit[holder % FACES_PER_DECK]
    if cs not in (led_suit, TRUMP):
        return False
    if hs not in (led_suit, TRUMP):
        return True
    if cs != hs:
        return cs == TRUMP
    return t.phi[challenger % FACES_PER_DECK] > t.phi[holder % FACES_PER_DECK]


def adjacent(lower: int, upper: int, trump: Trump) -> bool:
    """Whether a pair of ``upper`` directly follows a pair of ``lower`` in a tractor.

    Same effective suit and Φ one higher; two different off-suit CR faces share
    one Φ and so are never adjacent to each other.
    """
    t = tables(trump)
    lf, uf = lower % FACES_PER_DECK, upper % FACES_PER_DECK
    return t.suit[lf] == t.suit[uf] and t.phi[uf] == t.phi[lf] + 1
