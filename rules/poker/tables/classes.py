"""The 7,462 equivalence classes of five-card poker hands, best first.

Two five-card hands tie exactly when they have the same category and the same
ranks in the roles that category compares (suits never break ties), so a class is
a category plus those ranks.  Class 1 is the royal flush and class 7,462 is
7-5-4-3-2 of mixed suits, the numbering Cactus Kev made standard and that
phevaluator and treys also use, so our numbers can be compared with theirs.

Ranks are engine ranks: 0 = deuce .. 12 = ace.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import combinations

ACE = 12
RANKS = range(13)


class Category(IntEnum):
    """The nine hand categories; a smaller value is a stronger hand."""

    STRAIGHT_FLUSH = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    FLUSH = 4
    STRAIGHT = 5
    THREE_OF_A_KIND = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    HIGH_CARD = 9


@dataclass(frozen=True, slots=True)
class HandClass:
    """One class: its category and the ranks that decide ties, most important first.

    ``ranks`` is (high card) for straights and straight flushes (3 = five-high
    wheel), (quad, kicker), (trips, pair), (trips, kicker, kicker),
    (high pair, low pair, kicker), (pair, kicker, kicker, kicker), and the five
    ranks high to low for flushes and high cards.
    """

    category: Category
    ranks: tuple[int, ...]

    def rank_multiset(self) -> tuple[int, ...]:
        """The five card ranks of any hand in this class."""
        c, r = self.category, self.ranks
        if c in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            return straight_ranks(r[0])
        if c is Category.FOUR_OF_A_KIND:
            return (r[0],) * 4 + (r[1],)
        if c is Category.FULL_HOUSE:
            return (r[0],) * 3 + (r[1],) * 2
        if c is Category.THREE_OF_A_KIND:
            return (r[0],) * 3 + r[1:]
        if c is Category.TWO_PAIR:
            return (r[0],) * 2 + (r[1],) * 2 + (r[2],)
        if c is Category.ONE_PAIR:
            return (r[0],) * 2 + r[1:]
        return r


def straight_ranks(high: int) -> tuple[int, ...]:
    """The five ranks of the straight topped by ``high`` (3 = the A-2-3-4-5 wheel)."""
    if high == 3:
        return (3, 2, 1, 0, ACE)
    return tuple(range(high, high - 5, -1))


# Straights from ace-high down to the wheel, whose ace plays low (rule text:
# "A-2-3-4-5 is the lowest straight").
STRAIGHT_HIGHS: tuple[int, ...] = tuple(range(ACE, 2, -1))
_STRAIGHT_SETS = frozenset(frozenset(straight_ranks(h)) for h in STRAIGHT_HIGHS)


def _descending(k: int, pool: list[int]) -> list[tuple[int, ...]]:
    """All k-subsets of ``pool`` as descending tuples, strongest (lexicographically
    highest) first: kickers are compared highest card first."""
    subsets = [tuple(sorted(s, reverse=True)) for s in combinations(pool, k)]
    return sorted(subsets, reverse=True)


@cache
def all_classes() -> tuple[HandClass, ...]:
    """The 7,462 classes in order; class number ``n`` is ``all_classes()[n - 1]``."""
    high_first = list(reversed(RANKS))
    no_straight = [s for s in _descending(5, high_first) if frozenset(s) not in _STRAIGHT_SETS]
    out: list[HandClass] = []
    out += [HandClass(Category.STRAIGHT_FLUSH, (h,)) for h in STRAIGHT_HIGHS]
    out += [
        HandClass(Category.FOUR_OF_A_KIND, (q, k)) for q in high_first for k in high_first if k != q
    ]
    out += [
        HandClass(Category.FULL_HOUSE, (t, p)) for t in high_first for p in high_first if p != t
    ]
    out += [HandClass(Category.FLUSH, s) for s in no_straight]
    out += [HandClass(Category.STRAIGHT, (h,)) for h in STRAIGHT_HIGHS]
    for t in high_first:
        rest = [r for r in high_first if r != t]
        out += [HandClass(Category.THREE_OF_A_KIND, (t, *ks)) for ks in _descending(2, rest)]
    for hi, lo in _descending(2, high_first):
        out += [HandClass(Category.TWO_PAIR, (hi, lo, k)) for k in high_first if k not in (hi, lo)]
    for p in high_first:
        rest = [r for r in high_first if r != p]
        out += [HandClass(Category.ONE_PAIR, (p, *ks)) for ks in _descending(3, rest)]
    out += [HandClass(Category.HIGH_CARD, s) for s in no_straight]
    return tuple(out)


CLASS_COUNT = 7462
# Class counts per category, in Category order (rule text: 10 / 156 / 156 / 1,277 / 10 /
# 858 / 858 / 2,860 / 1,277).
CLASSES_PER_CATEGORY: tuple[int, ...] = (10, 156, 156, 1277, 10, 858, 858, 2860, 1277)


@cache
def category_bounds() -> tuple[int, ...]:
    """The worst class number of each category, in Category order (1609 = worst straight)."""
    bounds, total = [], 0
    for n in CLASSES_PER_CATEGORY:
        total += n
        bounds.append(total)
    return tuple(bounds)
