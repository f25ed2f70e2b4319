"""A seeded random number generator whose stream never changes.

Replays must deal the same cards on every Python and numpy version, so the
engine does not use :mod:`random` (whose ``shuffle``/``randrange`` algorithms
are implementation details) nor numpy's bit generators.  This is
xoshiro256** seeded through splitmix64, with unbiased bounded integers by
rejection and a Fisher–Yates shuffle: a few dozen lines that pin the stream.
"""

from __future__ import annotations

import importlib
from collections.abc import MutableSequence, Sequence
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def _load_core() -> ModuleType | None:
    try:
        return importlib.import_module("engine._rng")
    except ImportError:
        return None  # not built: Rng.shuffle's Python loop deals the same cards


# The compiled generator (engine/_rng.c): the same steps as seeded_py, next64_py and
# shuffle_py below, bit for bit; in Python a deal was about a tenth of a short
# random-legal game (one deal of 52 cards, some 60 actions).
_CORE = _load_core()


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


def seeded_py(x: int) -> list[int]:
    """The state ``Rng(x)`` starts from (splitmix64 of ``x < 2**64``), in Python:
    the compiled core's reference and fallback."""
    state = []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        state.append(z ^ (z >> 31))
    return state


class Rng:
    """Deterministic generator; the same seed yields the same stream forever."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError("seed must be non-negative")
        self._s = seeded_py(seed & _MASK) if _CORE is None else _CORE.seeded(seed & _MASK)

    def next64(self) -> int:
        """The next 64 random bits."""
        if _CORE is not None:
            return _CORE.next64(self._s)
        return self.next64_py()

    def next64_py(self) -> int:
        """:meth:`next64` in Python: the compiled core's reference and fallback."""
        s = self._s
        result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
        t = (s[1] << 17) & _MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        bits = n.bit_length()
        while True:
            r = self.next64() >> (64 - bits) if bits <= 64 else self.next64()
            if r < n:
                return r

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates, from the end)."""
        if _CORE is not None and type(items) is list:
            _CORE.shuffle(self._s, items)
        else:
            self.shuffle_py(items)

    def shuffle_py(self, items: MutableSequence[T]) -> None:
        """:meth:`shuffle` in Python: the reference of the compiled core, and its
        fallback when the core is not built or ``items`` is not a list."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out

    def fork(self, label: int) -> Rng:
        """An independent generator derived from this one and ``label``."""
        return Rng((self.next64() ^ (label * 0x9E3779B97F4A7C15)) & _MASK)


_SEED_MASK = (1 << 63) - 1


def derive_seed(seed: int, step: int, seat: int) -> int:
    """The seed of the decision a bot (or a stand-in) makes for ``seat`` at
    ``step`` of a game dealt from ``seed``: the table's version at a server, the
    number of actions taken in the arena and the benches.  Stored games replay
    their bots' decisions from it, so its values must never change."""
    return (seed * 1_000_003 + step * 31 + seat) & _SEED_MASK
