"""The hand as a 4×13 count grid, and the geometry of runs.

A hand is a multiset of faces: ``counts[face]`` for the 52 suited faces (0, 1
or 2 with two decks) plus the two printed joker faces.  Copies of one face are
interchangeable for meld building; :class:`Hand` keeps the physical card ids so
arrangements can be handed back as ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import BIG_JOKER, FACES_PER_DECK, SMALL_JOKER, face_of, parse_face

from .options import AceRule, MeldRules

SUITED = 52
RANKS = 13


@dataclass(frozen=True)
class Hand:
    """A hand: its physical card ids and its face counts (54 entries)."""

    cards: tuple[int, ...]
    counts: tuple[int, ...]

    def ids_by_face(self) -> dict[int, list[int]]:
        """Card ids grouped by face, each list in ascending id order."""
        out: dict[int, list[int]] = {}
        for c in self.cards:
            out.setdefault(face_of(c), []).append(c)
        return out


def to_hand(hand: Hand | str | Iterable[int | str]) -> Hand:
    """Read a hand given as card ids, card spellings, or one spelled string.

    Spellings carry no copy index, so repeated spellings become copy 0, 1, ...
    of that face (two decks: ``"AS AS"`` is both aces of spades).
    """
    if isinstance(hand, Hand):
        return hand
    items: list[int | str] = (
        list(hand.replace(",", " ").split()) if isinstance(hand, str) else list(hand)
    )
    seen: dict[int, int] = {}
    ids: list[int] = []
    for item in items:
        if isinstance(item, str):
            f = parse_face(item)
            copy = seen.get(f, 0)
            seen[f] = copy + 1
            ids.append(copy * FACES_PER_DECK + f)
        else:
            ids.append(int(item))
    if len(set(ids)) != len(ids):
        raise ValueError("the same physical card appears twice in the hand")
    counts = [0] * FACES_PER_DECK
    for c in ids:
        counts[face_of(c)] += 1
    return Hand(tuple(sorted(ids)), tuple(counts))


JOKER_FACES = (SMALL_JOKER, BIG_JOKER)


@dataclass(frozen=True)
class Geometry:
    """The line a suit's cards lie on for runs, from the ace rule.

    ``seq`` lists ranks in run order; with ace low-or-high the ace appears at
    both ends (one physical ace still fills only one place).  ``circular``
    joins the ends (wrap).  No run is longer than 13 cards.
    """

    seq: tuple[int, ...]
    circular: bool
    run_min: int
    set_min: int
    set_max: int
    ace: AceRule

    @property
    def adjacent_ranks(self) -> tuple[tuple[int, int], ...]:
        """Pairs of ranks that sit side by side in some run."""
        pairs = list(zip(self.seq, self.seq[1:], strict=False))
        if self.circular:
            pairs.append((self.seq[-1], self.seq[0]))
        return tuple(pairs)

    def windows(self, length: int) -> tuple[tuple[int, ...], ...]:
        """Every run of ``length`` consecutive places, as rank tuples."""
        return _windows(self.seq, self.circular, length)


@lru_cache(maxsize=256)
def _windows(seq: tuple[int, ...], circular: bool, length: int) -> tuple[tuple[int, ...], ...]:
    n = len(seq)
    if length > RANKS:
        return ()
    if circular:
        return tuple(tuple(seq[(p + i) % n] for i in range(length)) for p in range(n))
    return tuple(tuple(seq[p : p + length]) for p in range(n - length + 1))


_ACE = 12


@lru_cache(maxsize=16)
def geometry(ace: AceRule, run_min: int, set_min: int, set_max: int) -> Geometry:
    """The run line for an ace rule (cached: rules are few)."""
    low = (_ACE, *range(12))
    if ace is AceRule.LOW:
        return Geometry(low, False, run_min, set_min, set_max, ace)
    if ace is AceRule.LOW_OR_HIGH:
        return Geometry((*low, _ACE), False, run_min, set_min, set_max, ace)
    return Geometry(low, True, run_min, set_min, set_max, ace)


def rules_geometry(rules: MeldRules) -> Geometry:
    """The geometry of ``rules``."""
    return geometry(rules.ace, rules.run_min, rules.set_min, rules.set_max)


@lru_cache(maxsize=1 << 16)
def run_span_ok(ranks: tuple[int, ...], size: int, ace: AceRule) -> bool:
    """Whether distinct ``ranks`` of one suit fit in a run of exactly ``size`` places.

    ``size`` counts the jokers too; jokers fill the gaps and extend the ends.
    """
    if size > RANKS or len(set(ranks)) != len(ranks) or size < len(ranks):
        return False
    if ace is AceRule.WRAP:
        pos = sorted((r + 1) % RANKS for r in ranks)
        gaps = [(pos[(i + 1) % len(pos)] - pos[i]) % RANKS or RANKS for i in range(len(pos))]
        return RANKS - max(gaps) + 1 <= size
    low = [(r + 1) % RANKS for r in ranks]
    if max(low) - min(low) + 1 <= size:
        return True
    if ace is AceRule.LOW_OR_HIGH and _ACE in ranks:
        high = [r + 1 for r in ranks]  # ace at place 13, deuce at place 1
        return max(high) - min(high) + 1 <= size
    return False
