"""The best arrangement of a hand, found directly (without listing every combo).

A memoised depth-first search over the hand's face counts: the lowest remaining
natural card is either left over, designated a joker (wild cards only), or the
lowest natural card of a meld made of higher cards of its suit (run) or rank
(set) plus jokers.  Jokers may be borrowed before the wild cards that pay them
back are reached; a branch that ends in debt is dropped.  The state is the
remaining counts (2 bits a face, one int) plus the joker balance, so equal
sub-hands are solved once.

For the ``declaration`` objective the value of a state is a small table: for
each (runs, pure runs, cards left over, jokers left over) from here on, the
first three capped at what the rules ask for, the least points of the natural
cards left over; an entry whose status is no better than another's, with no
fewer points, is dropped.  A meld takes the fewest jokers it needs, and jokers
left over further down are taken into it as the table is built back up (as
many as it has room for; a run without jokers may also stay pure), so a
meld's joker count is never a branch of the search.  Tables hold values only;
the winning decisions are read back afterwards by walking down from the top
and taking, at each state, the first move that reaches the value (the memo
answers every step).  The winner is then extended to a maximal arrangement (:mod:`.maximal`; adding
cards never makes an objective worse), so ``best`` always returns one of ``combos``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .grid import RANKS, SUITED
from .options import AceRule, MeldRules, Objective

Shape = tuple[int, tuple[int, ...], int]
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]
# Per status: the least leftover points.
Table = dict[int, int]
# A run or set candidate: (jokers, the other naturals as 2-bit count fields, ranks or
# faces, how many more jokers it could take).
Candidate = tuple[int, int, tuple[int, ...], int]
# What the search reads: (jokers, the other naturals, how it moves the status,
# ranks or faces).
Move = tuple[int, int, list[int], tuple[int, ...]]

_ROW = 2 * RANKS  # bits per suit row of the state


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
class _Statuses:
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
def _statuses(n_runs: int, n_pure: int, n_left: int, n_jokers: int) -> _Statuses:
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

    return _Statuses(
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
_COLUMN = sum(3 << (_ROW * su) for su in range(4))  # a rank's four count fields
_ROW_MASK = (1 << _ROW) - 1  # a suit's thirteen count fields
_UNIT = [1 << (2 * f) for f in range(SUITED)]  # one card of a face
_SHIFT_RANK = [(_ROW * (f // RANKS), f % RANKS) for f in range(SUITED)]  # a face's row, rank
# a rank column's fields (shifted down to the deuce) -> bitmask of the suits present
_SUITS_PRESENT = {
    sum(n << (_ROW * su) for su, n in enumerate(ns)): sum(1 << su for su, n in enumerate(ns) if n)
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


def _single_run(run_cap: int, run_min: int) -> tuple[int, int]:
    """The jokers and spare room of a run of one natural card (jokers -1: none)."""
    k = run_min - 1
    return (k, min(run_cap, RANKS - 1) - k) if k <= run_cap else (-1, 0)


def _candidate_tables(
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
    single_run = _single_run(run_cap, run_min)
    sts = _statuses(*shape)
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


def best_shape(counts: tuple[int, ...], rules: MeldRules) -> ShapeArrangement:
    """An optimal arrangement (as shapes) of a hand given as 54 face counts."""
    wild = rules.wild_rank if rules.uses_jokers else None
    printed = counts[52] + counts[53]
    supply = printed if rules.printed_jokers and rules.uses_jokers else 0
    dead_printed = [] if supply else [f for f in (52, 53) for _ in range(counts[f])]
    points = rules.face_points
    held = supply + (sum(counts[s * RANKS + wild] for s in range(4)) if wild is not None else 0)
    # candidate lists are cached per joker cap; a state takes those within its means
    cap = min(held, rules.max_jokers) if rules.uses_jokers else 0
    run_cap = cap if rules.jokers_in_runs else 0
    set_cap = cap if rules.jokers_in_sets else 0
    declaration = rules.objective is Objective.DECLARATION
    need_runs, need_pure = rules.runs_required, rules.pure_runs_required
    size = sum(counts)
    spare_ok = max(0, size - rules.declare_size)
    jp = rules.joker_points
    geom_ace, run_min = rules.ace, rules.run_min
    set_min, set_max = rules.set_min, rules.set_max

    # The state holds two bits per face, in face order.  Wild cards are taken
    # first, so whether each acts as itself or as a joker is settled before the
    # plain cards; then the lowest face.
    wild_faces = [] if wild is None else [su * RANKS + wild for su in range(4)]
    wild_ones = sum(1 << (2 * f) for f in wild_faces)  # low bit of each wild field
    wild_twos = wild_ones << 1
    wild_bits = wild_ones | wild_twos
    rem0 = 0
    for f in range(SUITED):
        rem0 |= counts[f] << (2 * f)

    if declaration:
        n_runs, n_pure, n_left = need_runs + 1, need_pure + 1, spare_ok + 2
    else:  # the deadwood objective needs one status
        n_runs = n_pure = n_left = 1
    # jokers left over are counted exactly (melds above may still take them), and
    # only when they matter: they count as cards left, or they cost points
    n_jokers = held + 1 if declaration or jp else 1
    shape = (n_runs, n_pure, n_left, n_jokers)
    sts = _statuses(*shape)
    statuses, index, after_left = sts.statuses, sts.index, sts.after_left
    dominated_by = sts.dominated_by
    stay = list(range(len(statuses)))
    # the status of a finished hand with ``net`` unused jokers
    at_end = [index[(0, 0, 0, min(net, n_jokers - 1))] for net in range(held + 1)]
    # one memo per joker balance, keyed by the remaining counts (|net| is at most
    # the jokers in hand, so a debt indexes from the end without clashing)
    memos: list[dict[int, Table]] = [{} for _ in range(2 * held + 2)]
    memo_gets = [m.get for m in memos]
    run_cache, run_cands, set_cache, set_cands = _candidate_tables(
        run_cap, run_min, geom_ace, set_cap, set_min, set_max, shape
    )

    def solve(rem: int, net: int) -> Table:
        """Per status, the least leftover points from here on; {} if infeasible.
        Callers look in the memo first (``memos[net][rem]``)."""
        table: Table = {}
        memos[net][rem] = table
        w = rem & wild_bits
        if net < 0 and net + (w & wild_ones).bit_count() + 2 * (w & wild_twos).bit_count() < 0:
            return table  # the debt can no longer be paid back
        if rem == 0:  # unused jokers are left over (their points are added at the top)
            table[at_end[net]] = 0
            return table
        get = table.get
        if w:  # a wild card: acts as a joker (unused, it is left over at the end)
            low = w & -w
            f = (low.bit_length() - 1) >> 1
            rest = rem - (1 << (2 * f))
            w = rest & wild_bits
            avail = net + (w & wild_ones).bit_count() + 2 * (w & wild_twos).bit_count()
            sub = memo_gets[net + 1](rest)
            table.update(solve(rest, net + 1) if sub is None else sub)
        else:  # a plain card: left over
            low = rem & -rem
            f = (low.bit_length() - 1) >> 1
            rest = rem - _UNIT[f]
            avail = net
            pts = points[f]
            sub = memo_gets[net](rest)
            if sub is None:
                sub = solve(rest, net)
            for st, dead in sub.items():
                nst = after_left[st]
                old = get(nst)
                if old is None or dead + pts < old:
                    table[nst] = dead + pts
        shift, rank = _SHIFT_RANK[f]
        row = (rest >> shift) & _ROW_MASK  # the suit's cards still ahead in the search
        cands = run_cache.get(row << 4 | rank)
        if cands is None:
            cands = run_cands(rank, row)
        for k, delta, moved, _ in cands:
            if k > avail:
                break  # sorted by jokers
            nxt = rest - (delta << shift)
            sub = memo_gets[net - k](nxt)
            if sub is None:
                sub = solve(nxt, net - k)
            for st, dead in sub.items():
                nst = moved[st]
                old = get(nst)
                if old is None or dead < old:
                    table[nst] = dead
        column = rest >> (2 * rank) & _COLUMN  # the rank's cards still ahead
        cands = set_cache.get(column << 6 | f)
        if cands is None:
            cands = set_cands(f, column)
        for k, delta, moved, _ in cands:
            if k > avail:
                break
            nxt = rest - delta
            sub = memo_gets[net - k](nxt)
            if sub is None:
                sub = solve(nxt, net - k)
            for st, dead in sub.items():
                nst = moved[st]
                old = get(nst)
                if old is None or dead < old:
                    table[nst] = dead
        if len(table) > 1:
            # drop an entry when a status at least as good has no more points
            # (checking against entries already dropped is fine: dominance is
            # transitive)
            items = list(table.items())
            for st, dead in items:
                mask = dominated_by[st]
                for o, d in items:
                    if d <= dead and mask >> o & 1:
                        del table[st]
                        break
        return table

    def moves(rem: int, net: int) -> Iterator[tuple[int, int, list[int], int, Shape | int | None]]:
        """The moves from (rem, net) in ``solve``'s order: (next state, its joker
        balance, status change, points, the meld (its jokers before it takes any
        from below) or the face left over, None for a wild card turned joker)."""
        w = rem & wild_bits
        if w:
            low = w & -w
            f = (low.bit_length() - 1) >> 1
            rest = rem - _UNIT[f]
            w = rest & wild_bits
            avail = net + (w & wild_ones).bit_count() + 2 * (w & wild_twos).bit_count()
            yield rest, net + 1, stay, 0, None
        else:
            low = rem & -rem
            f = (low.bit_length() - 1) >> 1
            rest = rem - _UNIT[f]
            avail = net
            yield rest, net, after_left, points[f], f
        shift, rank = _SHIFT_RANK[f]
        row = (rest >> shift) & _ROW_MASK
        runs = run_cache.get(row << 4 | rank)
        for k, delta, moved, ranks in run_cands(rank, row) if runs is None else runs:
            if k > avail:
                break
            faces = tuple(shift // _ROW * RANKS + r for r in ranks)
            yield rest - (delta << shift), net - k, moved, 0, (0, faces, k)
        column = rest >> (2 * rank) & _COLUMN
        sets = set_cache.get(column << 6 | f)
        for k, delta, moved, faces in set_cands(f, column) if sets is None else sets:
            if k > avail:
                break
            yield rest - delta, net - k, moved, 0, (1, faces, k)

    def trace(rem: int, net: int, st: int, value: int) -> list[Shape | int]:
        """The decisions that reach ``value`` in status ``st`` from (rem, net): the
        first move, in ``solve``'s order, whose sub-table gives it (melds as
        shapes, with the jokers they took from below; leftover cards as faces; a
        wild card turned joker leaves none)."""
        steps: list[Shape | int] = []
        while rem:
            for nxt, nnet, moved, pts, step in moves(rem, net):
                sub = memo_gets[nnet](nxt)
                if sub is None:
                    sub = solve(nxt, nnet)
                for hit, dead in sub.items():
                    if moved[hit] == st and dead + pts == value:
                        break
                else:
                    continue
                if isinstance(step, tuple):
                    kind, naturals, k = step
                    steps.append((kind, naturals, k + statuses[hit][3] - statuses[st][3]))
                elif step is not None:
                    steps.append(step)
                rem, net, st, value = nxt, nnet, hit, value - pts
                break
            else:
                raise AssertionError("no move reaches the value")
        return steps

    top = solve(rem0, supply)
    if not top:
        raise AssertionError("no arrangement found")  # leaving every card over always works
    total = sum(points[f] * counts[f] for f in range(SUITED)) + printed * jp
    best_key: tuple[int, ...] | None = None
    best_st = best_value = 0
    for st, value in top.items():
        runs, pure, nleft, jokers_left = statuses[st]
        nleft += jokers_left
        dead = value + jokers_left * jp
        if declaration:
            ok = runs >= need_runs and pure >= need_pure
            k: tuple[int, ...] = (0 if ok and nleft <= spare_ok else 1, dead if ok else total, dead)
        else:
            k = (dead,)
        if best_key is None or k < best_key:
            best_key, best_st, best_value = k, st, value
    melds: list[Shape] = []
    leftover: list[int] = list(dead_printed)
    used_jokers = 0
    steps = trace(rem0, supply, best_st, best_value)
    # ``solve`` refers to itself, a cycle that would keep the memo alive until the
    # cyclic garbage collector finds it (hand after hand, making it run often):
    # free the tables now
    for m in memos:
        m.clear()
    for step in steps:
        if isinstance(step, int):
            leftover.append(step)
        else:
            melds.append(step)
            used_jokers += step[2]
    # jokers not used in melds: printed ones sit out first, then wild cards
    natural_use = [0] * SUITED
    for _, faces, _ in melds:
        for g in faces:
            natural_use[g] += 1
    for g in leftover:
        if g < SUITED:
            natural_use[g] += 1
    joker_cards = [52] * counts[52] + [53] * counts[53] if supply else []
    for g in range(SUITED):
        joker_cards += [g] * (counts[g] - natural_use[g])
    idle = len(joker_cards) - used_jokers
    leftover += joker_cards[:idle]
    return tuple(sorted(melds)), tuple(sorted(leftover))
