"""The decomposition chain a follower walks (docs/tractor.md, "Tuples and draw
policies", "The tuple check's cost").

:func:`decomposition_chain` lists every requirement in rbtying/shengji's order.
Its length grows like the Bell numbers of the lead's longest unit (a tractor of
ten pairs: 46,598 requirements, seconds to list), so the follow check walks it
with :func:`walk_chain` instead: the same requirements in the same order, each
once, generated lazily and without the subtrees that a monotone test says
cannot hold a requirement the caller is looking for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

Shape = tuple[int, ...]
Requirement = tuple[Shape, ...]
Partition = tuple[tuple[int, ...], ...]
"""A set partition of 0..n-1: blocks of indices, in the order they were opened."""
_T = TypeVar("_T")

SMALL = 8
"""Units of at most this many cards have short tails (at most 45 requirements);
:func:`walk_chain` walks lazily the tail of the one unit above it."""

LISTED = 16
"""Units of at most this many cards list their tails in a fraction of a second
(3,903 requirements for four quadruples); a unit above it is walked lazily
beside them."""


@lru_cache(maxsize=64)
def _groupings(n: int) -> tuple[tuple[int, ...], ...]:
    """Integer partitions of ``n`` as descending lists, largest first."""
    if n == 1:
        return ((1,),)
    out: list[tuple[int, ...]] = []
    for g in _groupings(n - 1):
        bumped: set[int] = set()
        for i, v in enumerate(g):
            if v not in bumped:
                bumped.add(v)
                out.append((*g[:i], v + 1, *g[i + 1:]))
        out.append((*g, 1))
    return tuple(_dedup(sorted(out, reverse=True)))


def _dedup(items: Sequence[_T]) -> list[_T]:
    """Drop consecutive repeats."""
    out: list[_T] = []
    for x in items:
        if not out or out[-1] != x:
            out.append(x)
    return out


def _key(part: Partition) -> tuple[int, int]:
    """The order of set partitions: the biggest block first, then fewer blocks."""
    return -max(len(b) for b in part), len(part)


def _children(part: Partition, n: int) -> Iterator[Partition]:
    """``part`` with element ``n`` added to each block in turn, then on its own."""
    for i in range(len(part)):
        yield (*part[:i], (*part[i], n), *part[i + 1:])
    yield (*part, (n,))


@lru_cache(maxsize=64)
def _set_partitions(n: int) -> tuple[Partition, ...]:
    """Partitions of {0..n-1} into blocks, those with the biggest block first,
    then those with fewer blocks (ties: the order they were built in)."""
    if n == 1:
        return (((0,),),)
    out = [c for part in _set_partitions(n - 1) for c in _children(part, n - 1)]
    out.sort(key=_key)
    return tuple(_dedup(out))


def _requirement(group: Sequence[int], part: Partition) -> Requirement:
    """The requirement a set partition of a grouping's tuples (parts above one)
    makes: each block a tractor (or a tuple), the grouping's ones as singles."""
    big = [v for v in group if v > 1]
    blocks = [tuple(big[i] for i in block) for block in part]
    ones: list[Shape] = [(1,)] * (len(group) - len(big))
    return tuple(sorted(blocks + ones, reverse=True))


def _grouping_entries(group: tuple[int, ...]) -> list[Requirement]:
    """The requirements one grouping contributes to :func:`full_decomposition`."""
    big = [v for v in group if v > 1]
    if not big:
        return [((1,),) * len(group)]
    return _dedup([_requirement(group, part) for part in _set_partitions(len(big))])


@lru_cache(maxsize=256)
def full_decomposition(n: int) -> tuple[Requirement, ...]:
    """Every way to play ``n`` cards as adjacent groups of tuples, strongest first."""
    return tuple(_dedup([r for g in _groupings(n) for r in _grouping_entries(g)]))


def _tail(unit: Shape) -> list[Requirement]:
    """What ``unit`` falls back to: the decompositions after its own."""
    full = list(full_decomposition(sum(unit)))
    return full[full.index((unit,)) + 1:] if (unit,) in full else []


def _merge(reqs: Sequence[Shape], tails: list[list[Requirement]], allowed: Sequence[bool]
           ) -> Iterator[Requirement]:
    """The chain after the lead's own requirement: each unit walks its tail; at
    every step the unit with the most left takes its next one (rbtying/shengji)."""
    chains = [list(reversed(t)) for t in tails]  # stacks: pop() gives the next
    current: list[Requirement] = [(r,) for r in reqs]
    order = list(range(len(reqs)))
    while True:
        order.sort(key=lambda i: -len(chains[i]))
        if not order or not chains[order[0]]:
            return
        i = order[0]
        current[i] = chains[i].pop()
        if all(len(a) == 1 or allowed[j] for j in order for a in current[j]):
            yield tuple(sorted((a for j in order for a in current[j]), reverse=True))


def _units(lead: Requirement, new_adjacency: bool) -> tuple[list[Shape], list[bool]]:
    reqs = [tuple(sorted(r, reverse=True)) for r in lead]
    return reqs, [new_adjacency or len(r) > 1 for r in reqs]


@lru_cache(maxsize=4096)
def decomposition_chain(lead: Requirement, new_adjacency: bool = True) -> tuple[Requirement, ...]:
    """The lead's requirement, then the weaker ones a follower falls back to.

    Each unit walks its own list of decompositions (those after it in
    :func:`full_decomposition`); at every step the unit with the most left
    takes its next one.  Without ``new_adjacency`` (only tractors draw
    tractors) a non-tractor unit never turns into an adjacency requirement.
    """
    reqs, allowed = _units(lead, new_adjacency)
    first = tuple(sorted(reqs, reverse=True))
    return (first, *_merge(reqs, [_tail(r) for r in reqs], allowed))


@lru_cache(maxsize=4096)
def _distinct(lead: Requirement, new_adjacency: bool) -> tuple[Requirement, ...]:
    """The chain without its repeats (a repeat decides nothing its first did not)."""
    return tuple(dict.fromkeys(decomposition_chain(lead, new_adjacency)))


# ----------------------------------------------------------------------------
# The lazy walk


def _partitions_below(group: Sequence[int], top: int) -> Iterator[tuple[int, ...]]:
    """The groupings of ``sum(group)`` after ``group`` whose parts are at most
    ``top``, in :func:`_groupings` order (descending)."""
    def go(n: int, most: int) -> Iterator[tuple[int, ...]]:
        if n == 0:
            yield ()
            return
        for first in range(min(n, most), 0, -1):
            for rest in go(n - first, first):
                yield (first, *rest)

    start = tuple(group)
    yield from (g for g in go(sum(group), top) if g < start)


def _kept_partitions(widths: Sequence[int], ok: Callable[[list[Shape]], bool]
                     ) -> list[Partition]:
    """The set partitions of tuples of ``widths`` in :func:`_set_partitions`
    order, keeping only what can give a requirement first.

    Level n (the partitions of 0..n-1) is the stable sort by :func:`_key` of
    the children of level n-1 in its order.  Two partitions of one level whose
    blocks make the same shapes have the same descendants' requirements, each
    met under the earlier one first (the order compares the later levels'
    keys, equal for matching descendants, before the earlier levels), so only
    the first is kept; nor is one whose shapes ``ok`` rejects (``ok`` must be
    monotone: it rejects every descendant of what it rejects).  Same shapes
    mean the same key, so the first in build order is the first in order."""

    def shapes(part: Partition) -> list[Shape]:
        return [tuple(widths[i] for i in block) for block in part]

    level: list[Partition] = [((0,),)] if ok(shapes(((0,),))) else []
    for n in range(1, len(widths)):
        seen: set[tuple[Shape, ...]] = set()
        kept: list[Partition] = []
        for parent in level:
            for child in _children(parent, n):
                made = shapes(child)
                sign = tuple(sorted(made))
                if sign not in seen:
                    seen.add(sign)
                    if ok(made):
                        kept.append(child)
        level = sorted(kept, key=_key)
    return level


def walk_chain(lead: Requirement, new_adjacency: bool,
               could_hit: Callable[[Requirement], bool]) -> Iterator[Requirement]:
    """The requirements of :func:`decomposition_chain` that ``could_hit``
    accepts, in its order, each once.

    ``could_hit`` must be monotone: when it rejects a requirement it rejects
    every requirement with more blocks or with longer tractors (a tractor
    grown at its top).  A caller looking for the first requirement some test
    holds for passes a necessary condition of that test, so the first
    requirement the walk yields that passes the test is the chain's first.

    When one unit has more than :data:`SMALL` cards and the others at most
    that (or more than :data:`LISTED` and the others at most that), the big
    unit's tail is walked lazily: while it has more left than
    the others together it moves alone (rbtying/shengji's order), so its
    requirements are the big unit's, grouping by grouping, with the others
    unchanged, and subtrees of set partitions ``could_hit`` rejects are
    skipped; its last groupings, where the others move too, are merged as
    :func:`decomposition_chain` merges them.  Otherwise the chain is listed.
    """
    plan = _plan(lead, new_adjacency)
    if plan is None:
        yield from (r for r in _distinct(lead, new_adjacency) if could_hit(r))
        return
    seen: set[Requirement] = set()

    def fresh(req: Requirement) -> bool:
        if req in seen:
            return False
        seen.add(req)
        return could_hit(req)

    reqs, allowed = _units(lead, new_adjacency)
    first = tuple(sorted(reqs, reverse=True))
    if fresh(first):
        yield first
    unit = reqs[plan.big]
    others = [r for i, r in enumerate(reqs) if i != plan.big]
    for g in plan.front:
        yield from (r for r in _front(g, unit, others, allowed[plan.big], could_hit)
                    if fresh(r))
    yield from (r for r in _merge(reqs, [list(t) for t in plan.tails], allowed) if fresh(r))


@dataclass(frozen=True)
class _Plan:
    """How :func:`walk_chain` walks a lead: the unit walked lazily, the
    groupings it walks alone, and every unit's list for the merge (the big
    unit's last groupings)."""

    big: int
    front: tuple[tuple[int, ...], ...]
    tails: tuple[tuple[Requirement, ...], ...]


@lru_cache(maxsize=4096)
def _plan(lead: Requirement, new_adjacency: bool) -> _Plan | None:
    """The lazy walk's plan for a lead (it depends on the lead's shapes alone),
    or None: list the chain."""
    reqs, _ = _units(lead, new_adjacency)
    sizes = [sum(r) for r in reqs]
    big = max(range(len(reqs)), key=lambda i: sizes[i])
    rest = max((s for i, s in enumerate(sizes) if i != big), default=0)
    if not any(sizes[big] > limit >= rest for limit in (SMALL, LISTED)):
        return None
    unit = reqs[big]
    tails = [_tail(r) if i != big else [] for i, r in enumerate(reqs)]
    groups = list(_partitions_below(unit, max(unit)))
    # The big unit's last groupings, enough for every step where another unit moves.
    need = sum(len(t) for t in tails) + 2
    back: list[Requirement] = []
    cut = len(groups)
    while cut and len(back) < need:
        cut -= 1
        back = _grouping_entries(groups[cut]) + back
    if len(back) < need:  # a short tail after all: list it
        return None
    tails[big] = back
    return _Plan(big, (tuple(sorted(unit, reverse=True)), *groups[:cut]),
                 tuple(tuple(t) for t in tails))


def _front(group: tuple[int, ...], unit: Shape, others: list[Shape], adjacency: bool,
           could_hit: Callable[[Requirement], bool]) -> Iterator[Requirement]:
    """One grouping's requirements for the big unit, the other units whole
    (after the unit's own requirement in its own grouping)."""
    big = [v for v in group if v > 1]
    ones: list[Shape] = [(1,)] * (len(group) - len(big))
    if not big:
        yield tuple(sorted(ones + others, reverse=True))
        return

    def ok(shapes: list[Shape]) -> bool:
        if not adjacency and any(len(s) > 1 for s in shapes):
            return False
        return could_hit(tuple(sorted(shapes + others, reverse=True)))

    own = group == tuple(sorted(unit, reverse=True))
    for part in _kept_partitions(big, ok):
        if own and len(part) == 1:
            continue  # the unit itself, before the tail
        shapes = [tuple(big[i] for i in block) for block in part]
        yield tuple(sorted(shapes + ones + others, reverse=True))
