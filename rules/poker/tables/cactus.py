"""Cactus Kev's card words and five-card tables, derived from the class list.

A card is the 32-bit word ``xxxbbbbb bbbbbbbb cdhsrrrr xxpppppp``: one bit for
its rank (bits 16..28), one bit for its suit (c = 0x8000 .. s = 0x1000), the rank
number 0..12, and the rank's prime 2, 3, 5, .., 41.  For five cards:

- all five share a suit  <=> ``c1 & c2 & c3 & c4 & c5 & 0xF000`` is non-zero; the
  13-bit rank pattern ``(c1 | .. | c5) >> 16`` then indexes ``flushes``;
- five distinct ranks otherwise: the same pattern indexes ``unique5`` (straights and
  high cards);
- every other hand repeats a rank, and the product of the five primes identifies its
  rank multiset (unique factorisation).  These 4,888 products are the keys of the
  perfect hash in :mod:`.perfect_hash`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from rules.poker.tables.classes import Category, all_classes
from rules.poker.tables.perfect_hash import PerfectHash, build_perfect_hash

PRIMES: tuple[int, ...] = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
FLUSH_MASK = 0xF000
RANK_PATTERNS = 1 << 13


def card_word(face: int) -> int:
    """Cactus Kev's word for an engine face (suit * 13 + rank, suits C, D, H, S)."""
    suit, rank = divmod(face, 13)
    return PRIMES[rank] | (rank << 8) | (0x8000 >> suit) | (1 << (16 + rank))


def rank_pattern(ranks: tuple[int, ...]) -> int:
    """The 13-bit OR of the rank bits of distinct ``ranks``."""
    bits = 0
    for r in ranks:
        bits |= 1 << r
    return bits


def prime_product(ranks: tuple[int, ...]) -> int:
    """The product of the rank primes: equal exactly for equal rank multisets."""
    p = 1
    for r in ranks:
        p *= PRIMES[r]
    return p


@dataclass(frozen=True)
class CactusTables:
    """``flushes`` and ``unique5`` indexed by the 13-bit rank pattern (0 = not such a
    hand) and the (product, class) pairs of the 4,888 hands with a repeated rank."""

    words: np.ndarray  # uint32 word per face 0..51
    flushes: np.ndarray  # int16[8192]
    unique5: np.ndarray  # int16[8192]
    products: np.ndarray  # uint32[4888], ascending (Cactus Kev's binary-search layout)
    values: np.ndarray  # int16[4888], the class of each product


@cache
def cactus_tables() -> CactusTables:
    """Lay the class list out as Cactus Kev's tables."""
    flushes = np.zeros(RANK_PATTERNS, dtype=np.int16)
    unique5 = np.zeros(RANK_PATTERNS, dtype=np.int16)
    pairs: list[tuple[int, int]] = []
    for number, cls in enumerate(all_classes(), start=1):
        ranks = cls.rank_multiset()
        if cls.category in (Category.STRAIGHT_FLUSH, Category.FLUSH):
            flushes[rank_pattern(ranks)] = number
        elif cls.category in (Category.STRAIGHT, Category.HIGH_CARD):
            unique5[rank_pattern(ranks)] = number
        else:
            pairs.append((prime_product(ranks), number))
    pairs.sort()
    return CactusTables(
        words=np.array([card_word(f) for f in range(52)], dtype=np.uint32),
        flushes=flushes,
        unique5=unique5,
        products=np.array([p for p, _ in pairs], dtype=np.uint32),
        values=np.array([v for _, v in pairs], dtype=np.int16),
    )


@cache
def prime_hash() -> PerfectHash:
    """The perfect hash from prime product to class for the 4,888 hands with a repeated
    rank: 8,192 slots, 1,024 buckets (products are < 2**27, so the 64-bit multiply
    never overflows the key)."""
    ck = cactus_tables()
    return build_perfect_hash(ck.products, ck.values, index_bits=13, bucket_bits=10)
