"""Hash-and-displace perfect hashing of a fixed key set (the idea behind Senzee's
"Some Perfect Hash" for Cactus Kev; our hash function and tables are our own).

One 64-bit multiply spreads a key; its top ``index_bits + bucket_bits`` bits are
split into a slot ``a`` and a bucket ``b``, and the slot actually used is
``a ^ displace[b]``.  The builder walks the buckets from the fullest down and gives
each the smallest displacement that lands all its keys on free slots, so every key
of the set gets its own slot: a lookup is a multiply, three shifts/masks, two table
reads and a XOR, with no comparison and no loop (Cactus Kev's binary search over
4,888 products needs about 12 probes).

Multipliers are tried from a fixed splitmix64 sequence, so the tables are the same
on every build; the builder checks the result before returning it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MASK64 = (1 << 64) - 1


def _splitmix64(n: int) -> int:
    """The n-th output of splitmix64 from seed 0: a fixed sequence of multipliers."""
    z = (n * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


@dataclass(frozen=True)
class PerfectHash:
    """A built perfect hash: ``lookup(keys)`` maps each key of the set to its value."""

    multiplier: int
    index_bits: int
    bucket_bits: int
    displace: np.ndarray  # int64[2**bucket_bits]
    table: np.ndarray  # int16[2**index_bits]: the value stored in each slot, 0 = free
    slot_keys: np.ndarray  # uint64[2**index_bits]: the key stored in each slot (audit)
    attempts: int  # how many multipliers were tried

    @property
    def shift(self) -> int:
        """How far the hashed key is shifted down to keep its top bits."""
        return 64 - self.index_bits - self.bucket_bits

    def slots(self, keys: np.ndarray) -> np.ndarray:
        """The slot of each key (non-negative integer array in, int64 array out)."""
        if keys.dtype == np.int64:
            keys = keys.view(np.uint64)  # same bits, no copy
        x = keys.astype(np.uint64, copy=False) * np.uint64(self.multiplier)
        x >>= np.uint64(self.shift)
        t = x.view(np.int64)
        index = t >> self.bucket_bits
        index ^= self.displace.take(t & ((1 << self.bucket_bits) - 1))
        return index

    def lookup(self, keys: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The value of each key (int16); keys outside the set give arbitrary values."""
        return self.table.take(self.slots(keys), out=out)


def build_perfect_hash(
    keys: np.ndarray, values: np.ndarray, index_bits: int, bucket_bits: int, max_attempts: int = 64
) -> PerfectHash:
    """A perfect hash of distinct non-negative ``keys`` (< 2**63) to int16 ``values``."""
    keys = np.asarray(keys, dtype=np.uint64)
    values = np.asarray(values, dtype=np.int16)
    if np.unique(keys).size != keys.size:
        raise ValueError("keys must be distinct")
    if keys.size > (1 << index_bits):
        raise ValueError("more keys than slots")
    shift = 64 - index_bits - bucket_bits
    bucket_mask = (1 << bucket_bits) - 1
    for attempt in range(1, max_attempts + 1):
        multiplier = _splitmix64(attempt) | 1
        t = (keys * np.uint64(multiplier)) >> np.uint64(shift)
        if np.unique(t).size != t.size:
            continue  # two keys share slot and bucket: no displacement can separate them
        displace = _displace(
            (t >> np.uint64(bucket_bits)).astype(np.int64).tolist(),
            (t & np.uint64(bucket_mask)).astype(np.int64).tolist(),
            index_bits,
            bucket_bits,
        )
        if displace is None:
            continue
        built = _assemble(keys, values, multiplier, index_bits, bucket_bits, displace, attempt)
        _audit(built, keys, values)
        return built
    raise RuntimeError("no perfect hash found; use more index or bucket bits")


def _displace(
    slot: list[int], bucket: list[int], index_bits: int, bucket_bits: int
) -> list[int] | None:
    """One displacement per bucket so that all keys land on distinct slots, or None."""
    members: list[list[int]] = [[] for _ in range(1 << bucket_bits)]
    for a, b in zip(slot, bucket, strict=True):
        members[b].append(a)
    order = sorted(range(len(members)), key=lambda b: -len(members[b]))
    taken = bytearray(1 << index_bits)
    displace = [0] * len(members)
    for b in order:
        group = members[b]
        if not group:
            break
        for d in range(1 << index_bits):
            if not any(taken[a ^ d] for a in group):
                break
        else:
            return None
        for a in group:
            taken[a ^ d] = 1
        displace[b] = d
    return displace


def _assemble(
    keys: np.ndarray,
    values: np.ndarray,
    multiplier: int,
    index_bits: int,
    bucket_bits: int,
    displace: list[int],
    attempts: int,
) -> PerfectHash:
    size = 1 << index_bits
    empty = PerfectHash(
        multiplier=multiplier,
        index_bits=index_bits,
        bucket_bits=bucket_bits,
        displace=np.array(displace, dtype=np.int64),
        table=np.zeros(size, dtype=np.int16),
        slot_keys=np.zeros(size, dtype=np.uint64),
        attempts=attempts,
    )
    slots = empty.slots(keys)
    empty.table[slots] = values
    empty.slot_keys[slots] = keys
    return empty


def _audit(built: PerfectHash, keys: np.ndarray, values: np.ndarray) -> None:
    """Refuse a hash that is not collision-free or that loses a value."""
    slots = built.slots(keys)
    if np.unique(slots).size != keys.size or not np.array_equal(built.table[slots], values):
        raise RuntimeError("perfect hash audit failed")
