"""Who plays whom, and in which seats.

A match puts two entrants at the table: entrant ``a`` in the even seats and ``b``
in the odd ones (partners in bridge, whist and four-seat Tractor), over one deal
played in every distinct seating of the pair round the table (the seat-rotation
duplicate: bridge's same boards at two tables, heads-up's swapped seats), so the
luck of the cards cancels between the two.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Schedule(StrEnum):
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"


@dataclass(frozen=True)
class Pairing:
    """Entrants ``a`` and ``b`` (indices) meet in ``round`` (1-based)."""

    round: int
    a: int
    b: int


def seatings(seats: int) -> list[tuple[int, ...]]:
    """The distinct seatings of a pair: ``s[i]`` is 0 (entrant a) or 1 (b) for
    seat ``i``; every rotation of the alternating seating and of its mirror, so
    each entrant plays every seat equally often."""
    base = tuple(i % 2 for i in range(seats))
    mirror = tuple(1 - x for x in base)
    out: list[tuple[int, ...]] = []
    for start in (base, mirror):
        for r in range(seats):
            s = tuple(start[(k - r) % seats] for k in range(seats))
            if s not in out:
                out.append(s)
    return out


def round_robin(entrants: int) -> list[Pairing]:
    """Every pair once (one round per pair, in order); one entrant plays itself."""
    if entrants == 1:
        return [Pairing(1, 0, 0)]
    return [
        Pairing(k + 1, a, b) for k, (a, b) in enumerate(itertools.combinations(range(entrants), 2))
    ]


def swiss_round(
    round_no: int, standing: Sequence[int], met: set[frozenset[int]]
) -> tuple[list[Pairing], int | None]:
    """The pairings of one Swiss round: entrants in ``standing`` order (best
    first) meet the next one below they have not met yet (a rematch only when
    nobody else is left); with an odd number the lowest entrant without a bye
    so far sits out (returned; ``met`` records byes as ``{i}``)."""
    order = list(standing)
    bye = None
    if len(order) % 2:
        bye = next((i for i in reversed(order) if frozenset({i}) not in met), order[-1])
        order.remove(bye)
    pairs: list[Pairing] = []
    while order:
        a = order.pop(0)
        b = next((x for x in order if frozenset({a, x}) not in met), order[0])
        order.remove(b)
        pairs.append(Pairing(round_no, a, b))
    return pairs, bye


def swiss_rounds(entrants: int) -> int:
    """The default number of Swiss rounds: enough to separate ``entrants`` by
    halving (ceil(log2 n)), at least one."""
    return max(1, (entrants - 1).bit_length())
