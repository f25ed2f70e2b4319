"""Every maximal arrangement of natural cards, island by island.

The algorithm (after the "islands" article docs/rummy.md, "The rules", names):

1. *Islands.*  Cells of the 4×13 grid connect when side by side in a suit row
   (including the ace's places from the ace rule), and all non-zero cells of one
   rank connect.  So an island is a group of whole rank columns; a meld never
   leaves its island, so a hand's arrangements are the product of its islands'.
2. *Membership bits.*  For each cell: can a copy be in a run (R1), can both
   copies be in runs (R2), in a set (S1), in two sets (S2).  The bits
   over-approximate what any arrangement can do with the cell.
3. *Control points.*  A cell with more bits than copies must choose; only those
   branch.  Every other cell gives each role it can play one copy.
4. *Placements.*  Depth-first over the control points' choices (how many copies
   go to runs, how many to sets).
5. *Line passes.*  Each suit row's run copies are cut into runs, each rank
   column's set copies into sets, every way that leaves nothing on that line able
   to extend a run or form a new one (a *line-maximal* cut); copies not used are
   left over.  Line cuts are memoised by the line's profile.
6. *Filter.*  A candidate is kept if it is maximal for the whole island: no
   leftover card extends a meld, and no meld can be formed from leftovers.

Why nothing is missed: take any maximal arrangement.  Give each control point the
placement that covers the copies it uses in runs and in sets (one exists, since
the bits over-approximate); non-control cells already cover theirs.  The extra
copies are left over in the arrangement, so they extend nothing and form nothing,
which makes each row and column of it a line-maximal cut of the profile — and
the passes enumerate all of those.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from .grid import RANKS, Geometry, run_span_ok

# A natural meld inside the engine: (kind, sorted faces); kind 0 = run, 1 = set.
NatMeld = tuple[int, tuple[int, ...]]
NatArrangement = tuple[NatMeld, ...]

_RUN, _SET = 0, 1


def island_ranks(counts: tuple[int, ...], geom: Geometry) -> list[tuple[int, ...]]:
    """The islands of a natural hand, each as its sorted tuple of ranks.

    Bit tricks: a rank is present if any suit holds it; ranks r and r+1 join
    when one suit holds both (``mask & mask >> 1``); the ace joins the deuce
    (and the king, unless aces are low only) the same way.
    """
    masks = [0, 0, 0, 0]
    for s in range(4):
        m = 0
        base = s * RANKS
        for r in range(RANKS):
            if counts[base + r]:
                m |= 1 << r
        masks[s] = m
    present = masks[0] | masks[1] | masks[2] | masks[3]
    if not present:
        return []
    link = 0  # bit r: ranks r and r+1 are joined
    ace_low = False
    for m in masks:
        link |= m & (m >> 1)
        ace_low = ace_low or bool(m >> 12 & 1 and m & 1)
    if len(geom.seq) == RANKS and not geom.circular:
        link &= ~(1 << 11)  # aces low only: the king does not touch the ace
    groups: list[list[int]] = []
    for r in range(RANKS):
        if present >> r & 1:
            if groups and r > 0 and link >> (r - 1) & 1:
                groups[-1].append(r)
            else:
                groups.append([r])
    if ace_low and len(groups) > 1 and groups[0][0] == 0 and groups[-1][-1] == 12:
        groups[0] = groups.pop() + groups[0]
    return [tuple(sorted(g)) for g in groups]


def natural_arrangements(counts: tuple[int, ...], geom: Geometry) -> list[NatArrangement]:
    """Every maximal arrangement of the natural cards ``counts`` (52 entries).

    The result is the product of the islands' maximal arrangements.
    """
    key = (geom, counts)
    hit = _HAND_CACHE.get(key)
    if hit is None:
        per_island = [island_arrangements(_island_key(counts, ranks), geom)
                      for ranks in island_ranks(counts, geom)]
        hit = [tuple(m for part in combo for m in part) for combo in itertools.product(*per_island)]
        if len(_HAND_CACHE) > _CACHE_LIMIT // 5:
            _HAND_CACHE.clear()
        _HAND_CACHE[key] = hit
    return hit


def _island_key(counts: tuple[int, ...], ranks: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(
        (s * RANKS + r, counts[s * RANKS + r])
        for s in range(4)
        for r in ranks
        if counts[s * RANKS + r]
    )


_HAND_CACHE: dict[tuple[Geometry, tuple[int, ...]], list[NatArrangement]] = {}
_ISLAND_CACHE: dict[tuple[Geometry, tuple[tuple[int, int], ...]], tuple[NatArrangement, ...]] = {}
_ROW_CACHE: dict[tuple[Geometry, tuple[int, ...]], tuple[tuple[tuple[int, ...], ...], ...]] = {}
_COL_CACHE: dict[tuple[int, int, tuple[int, ...]], tuple[tuple[tuple[int, ...], ...], ...]] = {}
# Memoisation only (results never depend on it); cleared when full to bound memory.
_CACHE_LIMIT = 50_000


def island_arrangements(
    cells: tuple[tuple[int, int], ...], geom: Geometry
) -> tuple[NatArrangement, ...]:
    """Maximal arrangements of one island, given as ``(face, count)`` cells."""
    key = (geom, cells)
    hit = _ISLAND_CACHE.get(key)
    if hit is None:
        hit = tuple(sorted(set(_enumerate_island(cells, geom))))
        if len(_ISLAND_CACHE) > _CACHE_LIMIT:
            _ISLAND_CACHE.clear()
        _ISLAND_CACHE[key] = hit
    return hit


def membership(cells: tuple[tuple[int, int], ...], geom: Geometry) -> dict[int, tuple[int, int]]:
    """Per face: how many copies could sit in runs, and how many in sets.

    ``(runs, sets)`` with each 0..2: the R1/R2 and S1/S2 bits as counts.
    """
    count = dict(cells)
    out: dict[int, tuple[int, int]] = {}
    runnable: set[int] = set()
    for s in range(4):
        for window in geom.windows(geom.run_min):
            if all(count.get(s * RANKS + r, 0) for r in window):
                runnable.update(s * RANKS + r for r in window)
    for f, c in cells:
        rank = f % RANKS
        at_rank = [count.get(s * RANKS + rank, 0) for s in range(4)]
        suits = sum(1 for x in at_rank if x)
        runs = min(c, 2) if f in runnable else 0
        sets = 0
        if suits >= geom.set_min:
            sets = 2 if c >= 2 and sum(min(x, 2) for x in at_rank) >= 2 * geom.set_min else 1
        out[f] = (runs, sets)
    return out


def control_points(cells: tuple[tuple[int, int], ...], geom: Geometry) -> list[int]:
    """Faces with more possible memberships than copies (they branch the search)."""
    bits = membership(cells, geom)
    return [f for f, c in cells if sum(bits[f]) > c]


def _placements(
    cells: tuple[tuple[int, int], ...], geom: Geometry
) -> Iterator[dict[int, tuple[int, int]]]:
    """Depth-first over the control points' choices: copies to runs / to sets."""
    bits = membership(cells, geom)
    fixed: dict[int, tuple[int, int]] = {}
    choices: list[tuple[int, list[tuple[int, int]]]] = []
    for f, c in cells:
        runs, sets = bits[f]
        if runs + sets <= c:
            fixed[f] = (runs, sets)
        else:  # a control point: its copies must pick among its roles
            picks = [(r, c - r) for r in range(c + 1) if r <= runs and c - r <= sets]
            choices.append((f, picks))
    for combo in itertools.product(*(opts for _, opts in choices)):
        placement = dict(fixed)
        for (f, _), pick in zip(choices, combo, strict=True):
            placement[f] = pick
        yield placement


def _enumerate_island(
    cells: tuple[tuple[int, int], ...], geom: Geometry
) -> Iterator[NatArrangement]:
    if sum(c for _, c in cells) < min(geom.run_min, geom.set_min):
        yield ()
        return
    count = dict(cells)
    for placement in _placements(cells, geom):
        rows: list[list[tuple[NatMeld, ...]]] = []
        for s in range(4):
            caps = tuple(placement.get(s * RANKS + r, (0, 0))[0] for r in range(RANKS))
            if any(caps):
                rows.append([tuple((_RUN, tuple(sorted(s * RANKS + r for r in run))) for run in cut)
                             for cut in row_cuts(caps, geom)])
        ranks = sorted({f % RANKS for f in count})
        cols: list[list[tuple[NatMeld, ...]]] = []
        for r in ranks:
            caps = tuple(placement.get(s * RANKS + r, (0, 0))[1] for s in range(4))
            if any(caps):
                cols.append([tuple((_SET, tuple(s * RANKS + r for s in st)) for st in cut)
                             for cut in column_cuts(caps, geom.set_min, geom.set_max)])
        for parts in itertools.product(*rows, *cols):
            melds: tuple[NatMeld, ...] = tuple(sorted(m for part in parts for m in part))
            if natural_maximal(melds, count, geom):
                yield melds


def row_cuts(caps: tuple[int, ...], geom: Geometry) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Line-maximal cuts of one suit row into runs.

    ``caps[rank]`` copies are available for runs; each cut is a tuple of runs
    (rank tuples in run order).  Runs starting at one place are taken in
    non-decreasing length so each multiset of runs appears once.
    """
    key = (geom, caps)
    hit = _ROW_CACHE.get(key)
    if hit is not None:
        return hit
    seq, n, circ = geom.seq, len(geom.seq), geom.circular
    rem = list(caps)
    runs: list[tuple[int, int]] = []
    out: list[tuple[tuple[int, ...], ...]] = []

    def place(p: int, i: int) -> int:
        return seq[(p + i) % n] if circ else seq[p + i]

    def leaf() -> None:
        for p, length in runs:  # a leftover copy next to a run would extend it
            if length < RANKS:
                if circ:
                    before, after = (p - 1) % n, (p + length) % n
                else:
                    before, after = p - 1, (p + length if p + length < n else -1)
                if (before >= 0 and rem[seq[before]]) or (after >= 0 and rem[seq[after]]):
                    return
        starts = range(n) if circ else range(n - geom.run_min + 1)
        for p in starts:  # leftovers must not hold a run of their own
            if all(rem[place(p, i)] for i in range(geom.run_min)):
                return
        out.append(tuple(tuple(place(p, i) for i in range(length)) for p, length in runs))

    def at(p: int) -> None:
        if p == n:
            leaf()
            return
        pick(p, geom.run_min)

    def pick(p: int, min_len: int) -> None:
        at(p + 1)
        limit = RANKS if circ else min(RANKS, n - p)
        for length in range(min_len, limit + 1):
            ranks = [place(p, i) for i in range(length)]
            if any(rem[r] == 0 for r in ranks):
                break  # every longer run covers the same empty place
            for r in ranks:
                rem[r] -= 1
            runs.append((p, length))
            pick(p, length)
            runs.pop()
            for r in ranks:
                rem[r] += 1

    at(0)
    result = tuple(out)
    if len(_ROW_CACHE) > _CACHE_LIMIT:
        _ROW_CACHE.clear()
    _ROW_CACHE[key] = result
    return result


_SUIT_SETS = {
    (lo, hi): tuple(
        st for size in range(lo, hi + 1) for st in itertools.combinations(range(4), size)
    )
    for lo in range(2, 5)
    for hi in range(lo, 5)
}


def column_cuts(
    caps: tuple[int, ...], set_min: int, set_max: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Line-maximal cuts of one rank column into sets of distinct suits."""
    key = (set_min, set_max, caps)
    hit = _COL_CACHE.get(key)
    if hit is not None:
        return hit
    options = _SUIT_SETS[(set_min, set_max)]
    rem = list(caps)
    chosen: list[tuple[int, ...]] = []
    out: list[tuple[tuple[int, ...], ...]] = []

    def leaf() -> None:
        if sum(1 for x in rem if x) >= set_min:
            return
        for st in chosen:
            if len(st) < set_max and any(rem[s] for s in range(4) if s not in st):
                return
        out.append(tuple(chosen))

    def rec(i: int) -> None:
        leaf()
        for j in range(i, len(options)):
            st = options[j]
            if all(rem[s] for s in st):
                for s in st:
                    rem[s] -= 1
                chosen.append(st)
                rec(j)
                chosen.pop()
                for s in st:
                    rem[s] += 1

    rec(0)
    result = tuple(out)
    _COL_CACHE[key] = result
    return result


def natural_maximal(melds: tuple[NatMeld, ...], count: dict[int, int], geom: Geometry) -> bool:
    """No leftover card extends a meld, and leftovers hold no meld."""
    left = dict(count)
    for _, faces in melds:
        for f in faces:
            left[f] -= 1
    for kind, faces in melds:
        if kind == _SET:
            if len(faces) < geom.set_max:
                rank = faces[0] % RANKS
                if any(left.get(s * RANKS + rank) and s * RANKS + rank not in faces
                       for s in range(4)):
                    return False
        else:
            ranks = {f % RANKS for f in faces}
            if len(ranks) < RANKS and _extends(ranks, faces[0] // RANKS, left, geom):
                return False
    return not leftovers_hold_meld(left, geom)


def _extends(ranks: set[int], suit: int, left: dict[int, int], geom: Geometry) -> bool:
    for r in range(RANKS):
        if r not in ranks and left.get(suit * RANKS + r):
            grown = tuple(sorted((*ranks, r)))
            if run_span_ok(grown, len(grown), geom.ace):
                return True
    return False


def leftovers_hold_meld(left: dict[int, int], geom: Geometry) -> bool:
    """Whether natural leftovers alone make a run or a set."""
    for r in range(RANKS):
        if sum(1 for s in range(4) if left.get(s * RANKS + r)) >= geom.set_min:
            return True
    for s in range(4):
        for window in geom.windows(geom.run_min):
            if all(left.get(s * RANKS + r) for r in window):
                return True
    return False
