"""What a bidder looks at in a hand, and the hand constraints a call shows.

Suits are numbered like :mod:`engine.cards`: 0 clubs, 1 diamonds, 2 hearts, 3 spades.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.cards import rank_of, suit_of

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT_LETTERS = "CDHS"


def hcp_of(cards: Iterable[int]) -> int:
    """Milton Work points: A 4, K 3, Q 2, J 1."""
    return sum(max(0, rank_of(f) - 8) for f in cards)


@dataclass(frozen=True)
class HandInfo:
    """High-card points and suit lengths of one hand (lengths indexed by suit)."""

    hcp: int
    lengths: tuple[int, int, int, int]

    @staticmethod
    def of(cards: Iterable[int]) -> HandInfo:
        cards = list(cards)
        counts = [0, 0, 0, 0]
        for f in cards:
            counts[suit_of(f)] += 1
        return HandInfo(hcp_of(cards), (counts[0], counts[1], counts[2], counts[3]))

    @property
    def balanced(self) -> bool:
        """4-3-3-3, 4-4-3-2 or 5-3-3-2: no singleton or void, at most one doubleton."""
        return min(self.lengths) >= 2 and sorted(self.lengths)[1] >= 3

    def length(self, suit: int) -> int:
        return self.lengths[suit]


Range = tuple[int, int]
ANY_LENGTH: Range = (0, 13)


@dataclass(frozen=True)
class Constraints:
    """What the auction tells about one seat's 13 cards: an HCP range, a length range
    per suit, and whether the hand is balanced.  ``Constraints()`` says nothing."""

    hcp: Range = (0, 37)
    lengths: tuple[Range, Range, Range, Range] = (ANY_LENGTH,) * 4
    balanced: bool = False

    def admits(self, hand: HandInfo) -> bool:
        """True when ``hand`` fits every bound."""
        if not self.hcp[0] <= hand.hcp <= self.hcp[1]:
            return False
        for (lo, hi), n in zip(self.lengths, hand.lengths, strict=True):
            if not lo <= n <= hi:
                return False
        return not self.balanced or hand.balanced

    def meet(self, other: Constraints) -> Constraints:
        """Both sets of bounds at once.  Where they contradict (an opponent's odd
        call, or a rule the bidder stretched), the newer bound ``other`` wins."""

        def both(a: Range, b: Range) -> Range:
            lo, hi = max(a[0], b[0]), min(a[1], b[1])
            return (lo, hi) if lo <= hi else b

        lengths = tuple(both(a, b) for a, b in zip(self.lengths, other.lengths, strict=True))
        return Constraints(
            both(self.hcp, other.hcp),
            (lengths[0], lengths[1], lengths[2], lengths[3]),
            self.balanced or other.balanced,
        )

    def relaxed(self, hcp_slack: int, length_slack: int) -> Constraints:
        """Every bound widened: for a sampler that found too few deals."""
        lengths = tuple(
            (max(0, lo - length_slack), min(13, hi + length_slack)) for lo, hi in self.lengths
        )
        return Constraints(
            (max(0, self.hcp[0] - hcp_slack), min(37, self.hcp[1] + hcp_slack)),
            (lengths[0], lengths[1], lengths[2], lengths[3]),
            False,
        )

    def min_len(self, suit: int) -> int:
        return self.lengths[suit][0]

    def describe(self) -> str:
        parts = [f"{self.hcp[0]}-{self.hcp[1]} HCP"]
        for s in (SPADES, HEARTS, DIAMONDS, CLUBS):
            lo, hi = self.lengths[s]
            if (lo, hi) != ANY_LENGTH:
                parts.append(f"{SUIT_LETTERS[s]} {lo}-{hi}")
        if self.balanced:
            parts.append("balanced")
        return ", ".join(parts)


NOTHING = Constraints()


def shows(
    hcp: Range = (0, 37),
    balanced: bool = False,
    suits: Mapping[str, Range | int] | None = None,
    **lengths_by_letter: Range | int,
) -> Constraints:
    """Readable constructor: ``shows((15, 17), balanced=True)``, ``shows((12, 21), S=5)``
    (an int is a minimum length), ``shows(H=(0, 3))``, ``shows(suits={"H": 4})``."""
    lengths = [ANY_LENGTH] * 4
    for letter, bound in {**(suits or {}), **lengths_by_letter}.items():
        lengths[SUIT_LETTERS.index(letter)] = (bound, 13) if isinstance(bound, int) else bound
    if balanced:
        lengths = [(max(lo, 2), min(hi, 5)) for lo, hi in lengths]
    return Constraints(hcp, (lengths[0], lengths[1], lengths[2], lengths[3]), balanced)
