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
from dataclasses import dataclass, field
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
    first), each paired with the highest one below it that it has not met, so
    long as the rest can still be paired without a rematch; rematches, as few
    as can be, only when no pairing avoids them.  With an odd number the lowest
    entrant without a bye so far sits out (returned; ``met`` records byes as
    ``{i}``)."""
    order = list(standing)
    bye = None
    if len(order) % 2:
        bye = next((i for i in reversed(order) if frozenset({i}) not in met), order[-1])
        order.remove(bye)
    pairs = _fewest_rematches(order, met)
    return [Pairing(round_no, a, b) for a, b in pairs], bye


# Steps a round's pairing search may take before settling for the greedy pairing:
# far more than a field of bots needs, a bound on a pathological one.
SEARCH_STEPS = 100_000


@dataclass
class _Search:
    """A backtracking search for a round's pairs, bounded by ``steps``; the
    (unpaired, rematches allowed) states that cannot be paired are not tried twice."""

    met: set[frozenset[int]]
    steps: int
    dead: set[tuple[tuple[int, ...], int]] = field(default_factory=set)

    def pair(self, order: tuple[int, ...], allowed: int) -> list[tuple[int, int]] | None:
        """A pairing of ``order`` with at most ``allowed`` rematches, or None."""
        if not order:
            return []
        self.steps -= 1
        if self.steps < 0 or (order, allowed) in self.dead:
            return None
        a, rest = order[0], order[1:]
        fresh = [b for b in rest if frozenset({a, b}) not in self.met]
        # Opponents not met first, in standing order; a rematch only within budget.
        again = [b for b in rest if b not in fresh] if allowed else []
        for b in fresh + again:
            cost = 1 if b in again else 0
            tail = self.pair(tuple(x for x in rest if x != b), allowed - cost)
            if tail is not None:
                return [(a, b), *tail]
        self.dead.add((order, allowed))
        return None


def _fewest_rematches(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """Pair ``order`` (best first) with no rematch if that can be done, else
    with one, two...: the top unpaired entrant takes the highest partner that
    still lets the rest be paired."""
    search = _Search(met, SEARCH_STEPS)
    for allowed in range(len(order) // 2 + 1):
        found = search.pair(tuple(order), allowed)
        if found is not None:
            return found
    return _greedy(order, met)  # the search ran out of steps


def _greedy(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """Each entrant with the next one below it not met, else the next one."""
    order = list(order)
    pairs: list[tuple[int, int]] = []
    while order:
        a = order.pop(0)
        b = next((x for x in order if frozenset({a, x}) not in met), order[0])
        order.remove(b)
        pairs.append((a, b))
    return pairs


def swiss_rounds(entrants: int) -> int:
    """The default number of Swiss rounds: enough to separate ``entrants`` by
    halving (ceil(log2 n)), at least one."""
    return max(1, (entrants - 1).bit_length())
