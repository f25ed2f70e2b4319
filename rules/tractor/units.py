"""The values a Tractor play is cut into: a lead's template, its units, the
structure of a play (docs/tractor.md, "Units, leads and throws"), and the one
effective suit of a set of cards.  Apart from the pair rules (structure.py) and
the tuple rules (tuples.py), which both build on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import FACES_PER_DECK
from rules.tractor.order import Trump, tables


@dataclass(frozen=True)
class Template:
    """A requirement template: tractor lengths (in pairs, longest first), pairs, singles."""

    tractors: tuple[int, ...]
    pairs: int
    singles: int

    @property
    def pair_total(self) -> int:
        """Pairs the template needs, counting those inside tractors."""
        return sum(self.tractors) + self.pairs

    @property
    def cards(self) -> int:
        """Cards the template covers."""
        return 2 * self.pair_total + self.singles

    @property
    def blocks(self) -> int:
        """n, the number of blocks the paper's search permutes."""
        return len(self.tractors) + self.pairs + self.singles

    def describe(self) -> str:
        """A short human description (``tractor of 3 pairs + 2 pairs + 1 single``)."""
        parts = [f"tractor of {n} pairs" for n in self.tractors]
        if self.pairs:
            parts.append(f"{self.pairs} pair" + ("s" if self.pairs > 1 else ""))
        if self.singles:
            parts.append(f"{self.singles} single" + ("s" if self.singles > 1 else ""))
        return " + ".join(parts) or "nothing"


@dataclass(frozen=True)
class Unit:
    """One block of a decomposed play: card ids, lowest Φ first."""

    cards: tuple[int, ...]

    @property
    def pairs(self) -> int:
        """Pairs in the unit: 0 for a single, 1 for a pair, n for a tractor."""
        return len(self.cards) // 2

    @property
    def size(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Structure:
    """A play of one effective suit decomposed into units (template order)."""

    suit: int
    units: tuple[Unit, ...]
    template: Template
    #: Each unit's shape (copies per face, lowest face first) when the lead was
    #: cut into tuples (rules/tractor/tuples.py); empty for the classic pairs.
    shapes: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        """Cards in the play."""
        return sum(len(u.cards) for u in self.units)

    @property
    def cards_all(self) -> tuple[int, ...]:
        """Every card of the play, unit by unit."""
        return tuple(c for u in self.units for c in u.cards)

    @property
    def largest_unit(self) -> int:
        """Cards in the largest unit."""
        return max(len(u.cards) for u in self.units)


def suit_of_play(cards: Sequence[int], trump: Trump) -> int | None:
    """The one effective suit of ``cards``, or None if they span several."""
    suit = tables(trump).suit
    suits = {suit[c % FACES_PER_DECK] for c in cards}
    return suits.pop() if len(suits) == 1 else None
