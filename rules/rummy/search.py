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
answers every step).  The compiled core ``_arrange`` (``_arrange.c``) runs the
same search with the same move order and tie-breaks, so both give the same
arrangement; this module is its fallback and reference.  The winner is then
extended to a maximal arrangement (:mod:`.maximal`; adding cards never makes an
objective worse), so ``best`` always returns one of ``combos``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any, NamedTuple

from .grid import RANKS, SUITED
from .moves import (
    COLUMN,
    ROW,
    ROW_MASK,
    SHIFT_RANK,
    UNIT,
    candidate_tables,
    single_run_of,
    statuses_of,
)
from .options import AceRule, MeldRules, Objective

Shape = tuple[int, tuple[int, ...], int]
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]
# Per status: the least leftover points.
Table = dict[int, int]


def _load_core() -> Any:
    try:
        return importlib.import_module("rules.rummy._arrange")
    except ImportError:
        return None  # not built: the search below answers (docs/rummy.md, "How `best` works")


_CORE = _load_core()


class _Plan(NamedTuple):
    """What one search needs, read off the hand and the rules."""

    supply: int  # printed jokers that act as jokers
    held: int  # every joker-capable card
    wild: int | None
    run_cap: int
    set_cap: int
    shape: tuple[int, int, int, int]  # status space: runs, pure runs, cards left, jokers left
    declaration: bool
    spare_ok: int  # cards that may stay out of melds in a declaration


def _plan(counts: tuple[int, ...], rules: MeldRules) -> _Plan:
    uses_jokers = rules.uses_jokers
    wild = rules.wild_rank if uses_jokers else None
    printed = counts[52] + counts[53]
    supply = printed if rules.printed_jokers and uses_jokers else 0
    held = supply + (sum(counts[s * RANKS + wild] for s in range(4)) if wild is not None else 0)
    # candidate lists are cached per joker cap; a state takes those within its means
    cap = min(held, rules.max_jokers) if uses_jokers else 0
    declaration = rules.objective is Objective.DECLARATION
    spare_ok = max(0, sum(counts) - rules.declare_size)
    if declaration:
        n_runs, n_pure, n_left = rules.runs_required + 1, rules.pure_runs_required + 1, spare_ok + 2
    else:  # the deadwood objective needs one status
        n_runs = n_pure = n_left = 1
    # jokers left over are counted exactly (melds above may still take them), and
    # only when they matter: they count as cards left, or they cost points
    n_jokers = held + 1 if declaration or rules.joker_points else 1
    return _Plan(
        supply, held, wild,
        cap if rules.jokers_in_runs else 0, cap if rules.jokers_in_sets else 0,
        (n_runs, n_pure, n_left, n_jokers), declaration, spare_ok,
    )


def best_shape(
    counts: tuple[int, ...], rules: MeldRules, compiled: bool = True
) -> ShapeArrangement:
    """An optimal arrangement (as shapes) of a hand given as 54 face counts.

    ``compiled=False`` forces the Python search (the tests compare both)."""
    plan = _plan(counts, rules)
    steps = _compiled_steps(counts, plan, rules) if compiled and _CORE is not None else None
    if steps is None:
        steps = _python_steps(counts, plan, rules)
    return _finish(steps, counts, plan.supply)


# The core's search space per rule set, joker cap and status space (built once).
_SPACES: dict[tuple[int, int, AceRule, int, int, int, tuple[int, int, int, int]], Any] = {}
_ACE_CODE = {AceRule.LOW: 0, AceRule.LOW_OR_HIGH: 1, AceRule.WRAP: 2}
_MAX_STATUSES = 256  # the core's limit (a 14-card indian hand needs at most 198)
_MISSING = object()


def _space(plan: _Plan, rules: MeldRules) -> Any:
    key = (plan.run_cap, rules.run_min, rules.ace, plan.set_cap, rules.set_min, rules.set_max,
           plan.shape)
    found = _SPACES.get(key, _MISSING)  # None: a space the core does not take
    if found is _MISSING:
        sts = statuses_of(*plan.shape)
        n = len(sts.statuses)
        found = _SPACES[key] = None if n > _MAX_STATUSES else _CORE.new_space(
            sts.statuses,
            sts.after_left,
            sts.after_pure_run,
            sts.after_run,
            sts.after_set,
            [tuple(o for o in range(n) if mask >> o & 1) for mask in sts.dominated_by],
            (plan.run_cap, rules.run_min, _ACE_CODE[rules.ace], plan.set_cap, rules.set_min,
             rules.set_max, *single_run_of(plan.run_cap, rules.run_min)),
        )
    return found


def _compiled_steps(
    counts: tuple[int, ...], plan: _Plan, rules: MeldRules
) -> list[Shape | int] | None:
    """The winning decisions from the compiled core (None: it does not take this space)."""
    space = _space(plan, rules)
    if space is None:
        return None
    steps: list[Shape | int] = _CORE.search(
        space, counts, plan.supply, -1 if plan.wild is None else plan.wild,
        rules.face_points, plan.declaration, rules.runs_required, rules.pure_runs_required,
        plan.spare_ok, rules.joker_points,
    )
    return steps


def _python_steps(counts: tuple[int, ...], plan: _Plan, rules: MeldRules) -> list[Shape | int]:
    """The winning decisions (melds as shapes, leftover cards as faces), in Python."""
    supply, held, wild = plan.supply, plan.held, plan.wild
    points = rules.face_points
    declaration = plan.declaration
    need_runs, need_pure = rules.runs_required, rules.pure_runs_required
    spare_ok = plan.spare_ok
    jp = rules.joker_points
    shape = plan.shape
    n_jokers = shape[3]

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

    sts = statuses_of(*shape)
    statuses, index, after_left = sts.statuses, sts.index, sts.after_left
    dominated_by = sts.dominated_by
    stay = list(range(len(statuses)))
    # the status of a finished hand with ``net`` unused jokers
    at_end = [index[(0, 0, 0, min(net, n_jokers - 1))] for net in range(held + 1)]
    # one memo per joker balance, keyed by the remaining counts (|net| is at most
    # the jokers in hand, so a debt indexes from the end without clashing)
    memos: list[dict[int, Table]] = [{} for _ in range(2 * held + 2)]
    memo_gets = [m.get for m in memos]
    run_cache, run_cands, set_cache, set_cands = candidate_tables(
        plan.run_cap, rules.run_min, rules.ace, plan.set_cap, rules.set_min, rules.set_max, shape
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
            rest = rem - UNIT[f]
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
        shift, rank = SHIFT_RANK[f]
        row = (rest >> shift) & ROW_MASK  # the suit's cards still ahead in the search
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
        column = rest >> (2 * rank) & COLUMN  # the rank's cards still ahead
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
            rest = rem - UNIT[f]
            w = rest & wild_bits
            avail = net + (w & wild_ones).bit_count() + 2 * (w & wild_twos).bit_count()
            yield rest, net + 1, stay, 0, None
        else:
            low = rem & -rem
            f = (low.bit_length() - 1) >> 1
            rest = rem - UNIT[f]
            avail = net
            yield rest, net, after_left, points[f], f
        shift, rank = SHIFT_RANK[f]
        row = (rest >> shift) & ROW_MASK
        runs = run_cache.get(row << 4 | rank)
        for k, delta, moved, ranks in run_cands(rank, row) if runs is None else runs:
            if k > avail:
                break
            faces = tuple(shift // ROW * RANKS + r for r in ranks)
            yield rest - (delta << shift), net - k, moved, 0, (0, faces, k)
        column = rest >> (2 * rank) & COLUMN
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
    total = sum(points[f] * counts[f] for f in range(SUITED)) + (counts[52] + counts[53]) * jp
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
    steps = trace(rem0, supply, best_st, best_value)
    # ``solve`` refers to itself, a cycle that would keep the memo alive until the
    # cyclic garbage collector finds it (hand after hand, making it run often):
    # free the tables now
    for m in memos:
        m.clear()
    return steps


def _finish(steps: list[Shape | int], counts: tuple[int, ...], supply: int) -> ShapeArrangement:
    """The arrangement the decisions make: melds, and leftover cards (idle jokers too)."""
    melds: list[Shape] = []
    leftover: list[int] = [] if supply else [f for f in (52, 53) for _ in range(counts[f])]
    used_jokers = 0
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
