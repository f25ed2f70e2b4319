"""The moves of the best-arrangement search (:mod:`.search`): run and set candidates
per card, and the statuses the declaration objective tracks.

A run or set is tried with the fewest jokers it needs and carries its "spare room"
(how many more jokers it could take); candidate lists are cached per rule set, joker
cap and status space, keyed by the state's own fields, so the search reads them
from plain dicts.  The compiled search (``_arrange.c``) builds the same lists in the
same order from the same definitions.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .grid import RANKS, SUITED
from .options import AceRule

# A run or set candidate: (jokers, the other naturals as 2-bit count fields, ranks or
# faces, how many more jokers it could take).
Candidate = tuple[int, int, tuple[int, ...], int]
# What the search reads: (jokers, the other naturals, how it moves the status,
# ranks or faces).
Move = tuple[int, int, list[int], tuple[int, ...]]

ROW = 2 * RANKS  # bits per suit row of the state


def _run_places(ace: AceRule) -> list[list[int]]:
    """Per line a suit's ranks can lie on for a run, each rank's place on it."""
    low = [(r + 1) % RANKS for r in range(RANKS)]  # ace low: A 2 3 ... K
    if ace is AceRule.LOW:
        return [low]
    if ace is AceRule.LOW_OR_HIGH:
        return [low, [r + 1 for r in range(RANKS)]]  # and 2 3 ... K A
    return [[(r + 1 - s) % RANKS for r in range(RANKS)] for s in range(RANKS)]  # every rotation


@lru_cache(maxsize=8)
def _run_lines(ace: AceRule) -> tuple[tuple[int, ...], ...]:
    """Per line of :func:`_run_places`, its ranks in place order."""
    return tuple(
        tuple(sorted(range(RANKS), key=lambda r: places[r])) for places in _run_places(ace)
    )


def _reach(rank: int, higher: int, cap: int, ace: AceRule) -> int:
    """The ranks of ``higher`` that can share a run with ``rank`` with at most ``cap``
    jokers: on some line, at most ``cap`` empty places lie between them.  Every
    run candidate takes its naturals among these (so they are what it depends on)."""
    keep = 0
    for line in _run_lines(ace):
        at = line.index(rank)
        for step in (1, -1):
            gaps = 0
            i = at + step
            while 0 <= i < RANKS:
                r = line[i]
                if higher >> r & 1:
                    keep |= 1 << r
                else:
                    gaps += 1
                    if gaps > cap:
                        break
                i += step
    return higher & keep


def _least_spans(
    cards: list[tuple[int, int]], base: int, bit: dict[int, int], cap: int, spans: dict[int, int]
) -> None:
    """Record in ``spans`` the least span of every subset of ``cards`` (place, rank),
    in place order, that holds ``cards[base]`` and has at most ``cap`` gaps."""

    def walk(i: int, first: int, n: int, mask: int, has_base: bool) -> None:
        for j in range(i, len(cards) if has_base else base + 1):
            place, r = cards[j]
            lo = place if n == 0 else first
            if place - lo + 1 - (n + 1) > cap:
                break
            sub = mask | bit[r]
            with_base = has_base or j == base
            if with_base:
                span = place - lo + 1
                if spans.get(sub, RANKS + 1) > span:
                    spans[sub] = span
            walk(j + 1, lo, n + 1, sub, with_base)

    walk(0, 0, 0, 0, False)


@lru_cache(maxsize=1 << 14)
def _run_candidates(
    rank: int, higher: int, cap: int, run_min: int, ace: AceRule
) -> tuple[Candidate, ...]:
    """Runs whose first natural (in search order) is of ``rank``, in one suit:
    (jokers, the other naturals as count fields of the suit's row, all ranks, spare
    room), with the fewest jokers that make the run; it could take up to "spare
    room" more.

    ``higher`` is a bitmask of the other ranks of the suit that may join (those
    still ahead in the search); ``cap`` the most jokers one run may take.  Sorted
    by jokers, then by which of ``higher`` are taken (as a bitmask over them).
    Only subsets with at most ``cap`` gaps are visited: along a line, in place
    order, the gaps only grow as cards are added.
    """
    others = [r for r in range(RANKS) if higher >> r & 1 and r != rank]
    bit = {r: 1 << i for i, r in enumerate(others)} | {rank: 0}
    spans: dict[int, int] = {}  # subset (bitmask over others) -> least span in places
    for places in _run_places(ace):
        cards = sorted((places[r], r) for r in (rank, *others))
        base = next(i for i, (_, r) in enumerate(cards) if r == rank)
        _least_spans(cards, base, bit, cap, spans)
    out = []
    for mask, span in spans.items():
        ranks = (rank, *(others[i] for i in range(len(others)) if mask >> i & 1))
        n = len(ranks)
        row = sum(1 << (2 * r) for r in ranks[1:])
        k = max(0, run_min - n, span - n)
        room = min(cap, RANKS - n) - k
        if room >= 0:
            out.append((k, mask, row, tuple(sorted(ranks)), room))
    out.sort(key=lambda c: (c[0], c[1]))
    return tuple((k, row, ranks, room) for k, _, row, ranks, room in out)


@lru_cache(maxsize=1 << 12)
def _set_candidates(
    face: int, higher: int, cap: int, set_min: int, set_max: int, single_run: tuple[int, int]
) -> tuple[Candidate, ...]:
    """Sets whose lowest natural is ``face`` (``higher``: suits above it present):
    (jokers, the other naturals as count fields of the state, faces, spare room),
    with the fewest jokers; it could take up to "spare room" more.

    ``face`` alone is left out when ``single_run`` (the jokers and spare room of
    the run of one card and jokers; jokers -1 when there is none) needs the same
    jokers and has at least the room: that run takes the same cards and counts as
    a run, so the set can never do better."""
    suit, rank = divmod(face, RANKS)
    others = [s for s in range(suit + 1, 4) if higher >> s & 1]
    out = []
    for mask in range(1 << len(others)):
        faces = (face, *(others[i] * RANKS + rank for i in range(len(others)) if mask >> i & 1))
        n = len(faces)
        k = max(0, set_min - n)
        room = min(cap, set_max - n) - k
        if room < 0 or (n == 1 and k == single_run[0] and room <= single_run[1]):
            continue
        out.append((k, sum(1 << (2 * g) for g in faces[1:]), faces, room))
    return tuple(sorted(out, key=lambda c: c[0]))


Status = tuple[int, int, int, int]


@dataclass(frozen=True)
class Statuses:
    """Statuses as small ints: (runs, pure runs, cards left, jokers left), the first
    three capped at what the declaration rule looks at, the last exact; and how
    the moves of the search change them (lists indexed by status)."""

    statuses: list[Status]
    index: dict[Status, int]
    after_left: list[int]  # a natural card left over
    after_pure_run: list[int]  # a run without jokers
    # by spare room (capped at the jokers in hand): a run with jokers, a set; each
    # takes as many of the jokers left over below it as it has room for
    after_run: list[list[int]]
    after_set: list[list[int]]
    # per status, a bitmask of the other statuses at least as good in every
    # respect (more runs, more pure runs, fewer cards and jokers left): an entry
    # that one of them matches or beats on points can never win, because later
    # moves treat both alike
    dominated_by: list[int]


@lru_cache(maxsize=64)
def statuses_of(n_runs: int, n_pure: int, n_left: int, n_jokers: int) -> Statuses:
    statuses = [
        (r, p, lft, j)
        for r in range(n_runs)
        for p in range(n_pure)
        for lft in range(n_left)
        for j in range(n_jokers)
    ]
    index = {st: i for i, st in enumerate(statuses)}

    def shift(dr: int, dp: int, dl: int, room: int) -> list[int]:
        return [
            index[(
                min(r + dr, n_runs - 1), min(p + dp, n_pure - 1), min(lft + dl, n_left - 1),
                max(0, j - room),
            )]
            for r, p, lft, j in statuses
        ]

    return Statuses(
        statuses,
        index,
        shift(0, 0, 1, 0),
        shift(1, 1, 0, 0),
        [shift(1, 0, 0, room) for room in range(n_jokers)],
        [shift(0, 0, 0, room) for room in range(n_jokers)],
        [
            sum(
                1 << o
                for o, (r2, p2, l2, j2) in enumerate(statuses)
                if o != i and r2 >= r and p2 >= p and l2 <= lft and j2 <= j
            )
            for i, (r, p, lft, j) in enumerate(statuses)
        ],
    )


def _compress_table(width: int) -> list[int]:
    """For each ``2 * width``-bit count field, one bit per non-zero count."""
    table = [0] * (1 << (2 * width))
    for x in range(1 << (2 * width)):
        bits = 0
        for i in range(width):
            if x >> (2 * i) & 3:
                bits |= 1 << i
        table[x] = bits
    return table


_PRESENT7 = _compress_table(7)  # ranks 2..8 of a suit
_PRESENT6 = _compress_table(6)  # ranks 9..A
COLUMN = sum(3 << (ROW * su) for su in range(4))  # a rank's four count fields
ROW_MASK = (1 << ROW) - 1  # a suit's thirteen count fields
UNIT = [1 << (2 * f) for f in range(SUITED)]  # one card of a face
SHIFT_RANK = [(ROW * (f // RANKS), f % RANKS) for f in range(SUITED)]  # a face's row, rank
# a rank column's fields (shifted down to the deuce) -> bitmask of the suits present
_SUITS_PRESENT = {
    sum(n << (ROW * su) for su, n in enumerate(ns)): sum(1 << su for su, n in enumerate(ns) if n)
    for ns in itertools.product(range(4), repeat=4)
}
_ABOVE = [sum(1 << su for su in range(s + 1, 4)) for s in range(4)]  # suits above each suit


CandidateTables = tuple[
    dict[int, tuple[Move, ...]],
    Callable[[int, int], tuple[Move, ...]],
    dict[int, tuple[Move, ...]],
    Callable[[int, int], tuple[Move, ...]],
]
_CANDIDATE_TABLES: dict[
    tuple[int, int, AceRule, int, int, int, tuple[int, int, int, int]], CandidateTables
] = {}


def single_run_of(run_cap: int, run_min: int) -> tuple[int, int]:
    """The jokers and spare room of a run of one natural card (jokers -1: none)."""
    k = run_min - 1
    return (k, min(run_cap, RANKS - 1) - k) if k <= run_cap else (-1, 0)


def candidate_tables(
    run_cap: int, run_min: int, ace: AceRule, set_cap: int, set_min: int, set_max: int,
    shape: tuple[int, int, int, int],
) -> CandidateTables:
    """Run and set moves of one rule set, joker cap and status space, as dicts the
    search reads directly, keyed by the state's own fields (a run: the suit's row
    of counts ``<< 4 | rank``; a set: the rank's column of counts ``<< 6 | face``),
    with the functions that fill them.

    A move is (jokers, the other naturals, status change).  A run without jokers
    gives two: as a pure run, and as a run that takes jokers left over below it
    (then no longer pure)."""
    key = (run_cap, run_min, ace, set_cap, set_min, set_max, shape)
    found = _CANDIDATE_TABLES.get(key)
    if found is not None:
        return found
    runs: dict[int, tuple[Move, ...]] = {}
    sets: dict[int, tuple[Move, ...]] = {}
    # the same moves by what they depend on (rank or face, and which ranks or
    # suits are present): a new row or column mostly finds them built already
    runs_by_ranks: dict[int, tuple[Move, ...]] = {}
    sets_by_suits: dict[int, tuple[Move, ...]] = {}
    single_run = single_run_of(run_cap, run_min)
    sts = statuses_of(*shape)
    top = shape[3] - 1  # more room than the jokers in hand is never needed

    def run_cands(rank: int, row: int) -> tuple[Move, ...]:
        if len(runs) > 1 << 16:
            runs.clear()
        higher = (_PRESENT7[row & 0x3FFF] | _PRESENT6[(row >> 14) & 0xFFF] << 7) & ~(1 << rank)
        higher = _reach(rank, higher, run_cap, ace)
        found = runs_by_ranks.get(rank << RANKS | higher)
        if found is None:
            out: list[Move] = []
            for k, delta, ranks, room in _run_candidates(rank, higher, run_cap, run_min, ace):
                if k == 0:
                    out.append((0, delta, sts.after_pure_run, ranks))
                    if room and top:
                        out.append((0, delta, sts.after_run[min(room, top)], ranks))
                else:
                    out.append((k, delta, sts.after_run[min(room, top)], ranks))
            found = runs_by_ranks[rank << RANKS | higher] = tuple(out)
        runs[row << 4 | rank] = found
        return found

    def set_cands(face: int, column: int) -> tuple[Move, ...]:
        if len(sets) > 1 << 16:
            sets.clear()
        higher = _SUITS_PRESENT[column] & _ABOVE[face // RANKS]
        found = sets_by_suits.get(face << 4 | higher)
        if found is None:
            found = sets_by_suits[face << 4 | higher] = tuple(
                (k, delta, sts.after_set[min(room, top)], faces)
                for k, delta, faces, room in _set_candidates(
                    face, higher, set_cap, set_min, set_max, single_run
                )
            )
        sets[column << 6 | face] = found
        return found

    found = _CANDIDATE_TABLES[key] = (runs, run_cands, sets, set_cands)
    return found


