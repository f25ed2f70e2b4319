"""Direct 6- and 7-card tables: the best five-card class without trying 21 subsets.

A hand of 6 or 7 cards splits into two independent questions:

- **Without flushes**: the best five-card class depends only on the multiset of
  ranks (suits matter only for flushes).  A rank multiset is written as the base-5
  number ``sum(5 ** rank)`` (each count is at most 4, so digits never carry); the
  49,205 seven-card and 18,395 six-card multisets each get a perfect hash whose
  values are the best class over the multiset's 5-card sub-multisets, taken from
  the five-card Cactus Kev tables.
- **Flushes**: at most one suit can hold five of 6 or 7 cards.  The best flush or
  straight flush in a suit depends only on the 13-bit pattern of that suit's ranks;
  ``flush_best`` holds it for every pattern of 5 to 7 ranks.

The answer is the smaller (stronger) of the two, which is by construction the best
of the 21 (or 6) five-card subsets.  Evaluation then adds up one precomputed word
per card, whose low 16 bits count the suits (four 4-bit counters) and whose bits
16 and up hold the base-5 rank key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np

from rules.poker.tables.cactus import PRIMES, RANK_PATTERNS, cactus_tables, prime_hash
from rules.poker.tables.perfect_hash import PerfectHash, build_perfect_hash

RANK_KEY_SHIFT = 16
# Adding 3 to every 4-bit suit counter sets its top bit exactly when the count is >= 5.
FLUSH_PROBE = 0x3333
FLUSH_BITS = 0x8888
FACTORS = tuple(5**r for r in range(13))
# Hash sizes: slots (index bits) at least ~1.3x the keys, buckets ~ keys / 3.
_HASH_BITS = {6: (15, 13), 7: (16, 14)}


def direct_word(face: int) -> int:
    """The word summed per card: the suit counter and the base-5 rank digit."""
    suit, rank = divmod(face, 13)
    return (FACTORS[rank] << RANK_KEY_SHIFT) | (1 << (4 * suit))


def suited_bit(face: int) -> int:
    """One bit per face, 16 bits per suit, so a suit's 13-bit rank pattern can be cut out."""
    suit, rank = divmod(face, 13)
    return 1 << (16 * suit + rank)


def rank_key(ranks: tuple[int, ...]) -> int:
    """The base-5 key of a rank multiset."""
    return sum(FACTORS[r] for r in ranks)


def nonflush_five(ranks: np.ndarray) -> np.ndarray:
    """The class of five unsuited cards of the given ranks (..., 5), as if not suited.

    Used only while building: distinct ranks read ``unique5`` (straights and high
    cards), repeated ranks look their prime product up in the five-card perfect hash.
    """
    ck = cactus_tables()
    pattern = np.bitwise_or.reduce(np.left_shift(1, ranks), axis=-1)
    product = np.prod(np.asarray(PRIMES, dtype=np.int64)[ranks], axis=-1)
    unique = ck.unique5[pattern]
    return np.where(unique != 0, unique, prime_hash().lookup(product))


@dataclass(frozen=True)
class DirectTables:
    """Everything the 6/7-card evaluation reads."""

    words: np.ndarray  # int64 per face 0..51: direct_word
    suited_bits: np.ndarray  # int64 per face 0..51: suited_bit
    flush_best: np.ndarray  # int16[8192]: best flush class of a suit's rank pattern
    hashes: dict[int, PerfectHash]  # k -> perfect hash of the k-card rank multisets


def rank_multisets(k: int) -> np.ndarray:
    """All multisets of k ranks with no rank more than four times, as (M, k) arrays."""
    rows = [m for m in combinations_with_replacement(range(13), k) if _fits_deck(m)]
    return np.array(rows, dtype=np.int64)


def _fits_deck(ranks: tuple[int, ...]) -> bool:
    return all(ranks.count(r) <= 4 for r in set(ranks))


def best_nonflush(multisets: np.ndarray) -> np.ndarray:
    """For each multiset (M, k), the best class over its five-card sub-multisets."""
    k = multisets.shape[1]
    subsets = np.array(list(combinations(range(k), 5)), dtype=np.int64)
    return nonflush_five(multisets[:, subsets]).min(axis=1)


def build_flush_best() -> np.ndarray:
    """Best flush/straight-flush class for every rank pattern with 5..7 ranks.

    A pattern of exactly five ranks is Cactus Kev's ``flushes`` entry; a longer one
    is the best of the patterns left after dropping any one of its ranks.
    """
    ck = cactus_tables()
    patterns = np.arange(RANK_PATTERNS)
    counts = np.array([bin(p).count("1") for p in range(RANK_PATTERNS)])
    best = np.where(counts == 5, ck.flushes, 0).astype(np.int16)
    for size in (6, 7):
        rows = patterns[counts == size]
        options = [
            np.where(rows & (1 << r), best[rows & ~(1 << r)], np.iinfo(np.int16).max)
            for r in range(13)
        ]
        best[rows] = np.min(options, axis=0)
    return best


@cache
def direct_tables() -> DirectTables:
    """Build the direct 6/7-card tables."""
    hashes = {}
    for k, (index_bits, bucket_bits) in _HASH_BITS.items():
        multisets = rank_multisets(k)
        keys = (np.asarray(FACTORS, dtype=np.int64)[multisets]).sum(axis=1)
        hashes[k] = build_perfect_hash(
            keys, best_nonflush(multisets), index_bits=index_bits, bucket_bits=bucket_bits
        )
    return DirectTables(
        words=np.array([direct_word(f) for f in range(52)], dtype=np.int64),
        suited_bits=np.array([suited_bit(f) for f in range(52)], dtype=np.int64),
        flush_best=build_flush_best(),
        hashes=hashes,
    )
