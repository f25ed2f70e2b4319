"""An exhaustive brute-force arranger, written independently of rules.rummy's engine.

It tries every way to play every card: each copy of the lowest remaining natural
card is either left over or the lowest natural of some meld, built from any
subset of the higher cards of its suit (runs) or rank (sets) plus any number of
jokers, and checked by laying the meld out on every possible window of the rank
line.  Wild cards choose up front whether they act as jokers.  Shapes are
``(kind, natural faces, jokers)`` with kind 0 = run, 1 = set, like the engine's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rules.rummy.options import AceRule, MeldRules, Objective, PointScheme

Shape = tuple[int, tuple[int, ...], int]
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]


def rank_lines(ace: AceRule) -> list[list[int]]:
    """Every line of ranks a run may be laid on (2 = rank 0 ... A = rank 12)."""
    if ace is AceRule.LOW:
        return [[12, *range(12)]]
    if ace is AceRule.LOW_OR_HIGH:
        return [[12, *range(12)], list(range(13))]
    return [[(start + i) % 13 for i in range(13)] for start in range(13)]


_VALID: dict[tuple[int, tuple[int, ...], int, int], bool] = {}
_RULES: dict[int, MeldRules] = {}
_BY_RULES: dict[int, dict[tuple[int, tuple[int, ...], int], bool]] = {}


def valid(kind: int, faces: tuple[int, ...], jokers: int, rules: MeldRules) -> bool:
    """Run: same suit, consecutive on some line; set: same rank, distinct suits."""
    _RULES.setdefault(id(rules), rules)  # keeps ``rules`` alive, so its id stays unique
    k = (kind, faces, jokers, id(rules))
    hit = _VALID.get(k)
    if hit is None:
        hit = _VALID[k] = _valid(kind, faces, jokers, rules)
    return hit


def _valid(kind: int, faces: tuple[int, ...], jokers: int, rules: MeldRules) -> bool:
    if not faces or any(f >= 52 for f in faces) or len(set(faces)) != len(faces):
        return False
    if jokers:
        allowed = rules.jokers_in_runs if kind == 0 else rules.jokers_in_sets
        has_jokers = rules.printed_jokers or rules.wild_rank is not None
        cap = rules.max_jokers_per_meld
        if not (allowed and has_jokers) or (cap is not None and jokers > cap):
            return False
    size = len(faces) + jokers
    if kind == 1:
        return (len({f % 13 for f in faces}) == 1 and rules.set_min <= size <= rules.set_max)
    if len({f // 13 for f in faces}) != 1 or size < rules.run_min or size > 13:
        return False
    ranks = {f % 13 for f in faces}
    for line in rank_lines(rules.ace):
        for start in range(len(line) - size + 1):
            if ranks <= set(line[start : start + size]):
                return True
    return False


def joker_capable(face: int, rules: MeldRules) -> bool:
    if face >= 52:
        return rules.printed_jokers
    return rules.wild_rank is not None and face % 13 == rules.wild_rank


def all_arrangements(counts: tuple[int, ...], rules: MeldRules) -> Iterator[ShapeArrangement]:
    """Every arrangement (maximal or not) of a hand given as 54 face counts."""
    wild = [f for f in range(52) if counts[f] and joker_capable(f, rules)]
    printed = [f for f in (52, 53) for _ in range(counts[f])]
    for roles in itertools.product(*(range(counts[f] + 1) for f in wild)):
        nat = list(counts[:52])
        pool = list(printed) if rules.printed_jokers else []
        dead = [] if rules.printed_jokers else list(printed)
        for f, j in zip(wild, roles, strict=True):
            nat[f] -= j
            pool += [f] * j
        yield from _arrange(nat, 0, len(pool), [], [], pool, dead, rules)


def _arrange(nat, f, jokers, melds, left, pool, dead, rules):  # type: ignore[no-untyped-def]
    while f < 52 and nat[f] == 0:
        f += 1
    if f == 52:
        used = sum(m[2] for m in melds)
        # which joker-capable cards sit out is a choice when the pool mixes faces
        for out in set(itertools.combinations(sorted(pool), len(pool) - used)):
            yield tuple(sorted(melds)), tuple(sorted(left + list(out) + dead))
        return
    nat[f] -= 1
    left.append(f)
    yield from _arrange(nat, f, jokers, melds, left, pool, dead, rules)
    left.pop()
    suit, rank = divmod(f, 13)
    same_rank = [s * 13 + rank for s in range(suit + 1, 4) if nat[s * 13 + rank]]
    same_suit = [g for g in range(f + 1, suit * 13 + 13) if nat[g]]
    for kind, others in ((1, same_rank), (0, same_suit)):
        for n in range(len(others) + 1):
            for sub in itertools.combinations(others, n):
                faces = (f, *sub)
                # a meld has at most 13 cards (runs) or set_max (sets): no more jokers
                most = (13 if kind == 0 else rules.set_max) - len(faces)
                for k in range(min(jokers, most) + 1):
                    if valid(kind, faces, k, rules):
                        for g in sub:
                            nat[g] -= 1
                        melds.append((kind, faces, k))
                        yield from _arrange(nat, f, jokers - k, melds, left, pool, dead, rules)
                        melds.pop()
                        for g in sub:
                            nat[g] += 1
    nat[f] += 1


def points(face: int, rules: MeldRules) -> int:
    if face >= 52 or joker_capable(face, rules):
        return rules.joker_points
    rank = face % 13
    if rules.points is PointScheme.GIN:
        return 1 if rank == 12 else min(rank + 2, 10)
    return 10 if rank >= 9 else rank + 2


def key(arr: ShapeArrangement, rules: MeldRules) -> tuple[int, ...]:
    """The objective, written from the rule text (smaller is better)."""
    melds, left = arr
    dead = sum(points(f, rules) for f in left)
    if rules.objective is Objective.DEADWOOD:
        return (dead,)
    runs = [m for m in melds if m[0] == 0]
    pure = [m for m in runs if m[2] == 0]
    has_runs = len(runs) >= rules.runs_required and len(pure) >= rules.pure_runs_required
    size = len(left) + sum(len(m[1]) + m[2] for m in melds)
    declares = has_runs and len(left) <= max(0, size - rules.declare_size)
    total = dead + sum(points(f, rules) for m in melds for f in m[1]) + sum(
        m[2] * rules.joker_points for m in melds)
    return (0 if declares else 1, dead if has_runs else total, dead)


def is_maximal(arr: ShapeArrangement, rules: MeldRules) -> bool:
    """No leftover card joins a meld (a joker never joins a pure run), and no
    meld can be made from leftovers alone."""
    melds, left = arr
    for kind, faces, k in melds:
        for f in set(left):
            if f < 52 and f not in faces and valid(kind, (*faces, f), k, rules):
                return False
            pure_run = kind == 0 and k == 0
            if joker_capable(f, rules) and not pure_run and valid(kind, faces, k + 1, rules):
                return False
    # a meld from leftovers contains one of the smallest size; its naturals share
    # a suit (run) or a rank (set), and the rest are joker-capable leftovers
    naturals = sorted(set(f for f in left if f < 52))
    capable = sum(1 for f in left if joker_capable(f, rules))
    for size, kind, group in ((rules.run_min, 0, 13), (rules.set_min, 1, 1)):
        lines: dict[int, list[int]] = {}
        for f in naturals:  # runs: one suit (f // 13); sets: one rank (f % 13)
            lines.setdefault(f // 13 if group == 13 else f % 13, []).append(f)
        for line in lines.values():
            for n in range(1, min(size, len(line)) + 1):
                for faces in itertools.combinations(line, n):
                    jokers = capable - sum(1 for f in faces if joker_capable(f, rules))
                    if size - n <= jokers and valid(kind, faces, size - n, rules):
                        return False
    return True


def is_arrangement(arr: ShapeArrangement, counts: tuple[int, ...], rules: MeldRules) -> bool:
    """Whether ``arr`` plays exactly the hand's cards in valid melds."""
    melds, left = arr
    if not all(valid(kind, faces, k, rules) for kind, faces, k in melds):
        return False
    used = [0] * 54
    for _, faces, _ in melds:
        for f in faces:
            used[f] += 1
    for f in left:
        used[f] += 1
    jokers = sum(k for _, _, k in melds)
    spare = [counts[f] - used[f] for f in range(54)]
    if any(x < 0 for x in spare):
        return False
    capable = [f for f in range(54) if spare[f] and joker_capable(f, rules)]
    return sum(spare) == jokers and sum(spare[f] for f in capable) == jokers


def brute_best(
    counts: tuple[int, ...], rules: MeldRules, incumbent: ShapeArrangement | None = None
) -> tuple[tuple[int, ...], list[ShapeArrangement]]:
    """The optimal objective value and every optimal arrangement that is maximal.

    Exhaustive with one safe cut: cards already left over only add points and
    count, so a branch whose leftover alone is worse than the best so far is
    dropped (ties are kept, so every optimal arrangement is seen).  A checked
    ``incumbent`` (any legal arrangement of the hand) may seed the best so far.
    """
    size = sum(counts)
    spare = max(0, size - rules.declare_size)
    state: dict[str, object] = {"best": None, "optimal": []}
    if incumbent is not None:
        assert is_arrangement(incumbent, counts, rules), incumbent
        state["best"] = key(incumbent, rules)

    deadwood_only = rules.objective is Objective.DEADWOOD

    def consider(arr: ShapeArrangement) -> None:
        k = key(arr, rules)
        best = state["best"]
        if best is None or k < best:  # type: ignore[operator]
            state["best"], state["optimal"] = k, [arr]
        elif k == best:
            state["optimal"].append(arr)  # type: ignore[attr-defined]

    def prune(dead: int, nleft: int) -> bool:
        """Leftover points and count only grow deeper down: compare them now."""
        best = state["best"]
        if best is None:
            return False
        if deadwood_only:
            return (dead,) > best  # type: ignore[operator]
        return (1 if nleft > spare else 0, dead, dead) > best  # type: ignore[operator]

    _RULES.setdefault(id(rules), rules)
    memo = _BY_RULES.setdefault(id(rules), {})

    def ok(kind: int, faces: tuple[int, ...], jokers: int) -> bool:
        hit = memo.get((kind, faces, jokers))
        if hit is None:
            hit = memo[(kind, faces, jokers)] = _valid(kind, faces, jokers, rules)
        return hit

    wild = [f for f in range(52) if counts[f] and joker_capable(f, rules)]
    printed = [f for f in (52, 53) for _ in range(counts[f])]
    for roles in itertools.product(*(range(counts[f] + 1) for f in wild)):
        nat = list(counts[:52])
        pool = list(printed) if rules.printed_jokers else []
        dead = [] if rules.printed_jokers else list(printed)
        for f, j in zip(wild, roles, strict=True):
            nat[f] -= j
            pool += [f] * j
        value = [points(f, rules) for f in range(52)]
        _search(nat, 0, len(pool), [], list(dead), pool, rules, consider, prune, value, 0, ok)
    best = state["best"]
    optimal: list[ShapeArrangement] = state["optimal"]  # type: ignore[assignment]
    assert best is not None and optimal  # the search always meets the incumbent again
    return best, sorted({a for a in optimal if is_maximal(a, rules)})  # type: ignore[return-value]


def _search(nat, f, jokers, melds, left, pool, rules, consider, prune, value, dead, ok):  # type: ignore[no-untyped-def]
    """Like ``_arrange`` but reporting to ``consider`` and cutting with ``prune``
    (``dead``: points of the natural cards left over so far)."""
    if prune(dead, len(left)):
        return
    while f < 52 and nat[f] == 0:
        f += 1
    if f == 52:
        used = sum(m[2] for m in melds)
        for out in set(itertools.combinations(sorted(pool), len(pool) - used)):
            consider((tuple(sorted(melds)), tuple(sorted(left + list(out)))))
        return
    nat[f] -= 1
    suit, rank = divmod(f, 13)
    same_rank = [s * 13 + rank for s in range(suit + 1, 4) if nat[s * 13 + rank]]
    same_suit = [g for g in range(f + 1, suit * 13 + 13) if nat[g]]
    for kind, others in ((1, same_rank), (0, same_suit)):
        for n in range(len(others) + 1):
            for sub in itertools.combinations(others, n):
                faces = (f, *sub)
                # a meld has at most 13 cards (runs) or set_max (sets): no more jokers
                most = (13 if kind == 0 else rules.set_max) - len(faces)
                for k in range(min(jokers, most) + 1):
                    if ok(kind, faces, k):
                        for g in sub:
                            nat[g] -= 1
                        melds.append((kind, faces, k))
                        _search(nat, f, jokers - k, melds, left, pool, rules, consider, prune,
                                value, dead, ok)
                        melds.pop()
                        for g in sub:
                            nat[g] += 1
    left.append(f)
    _search(nat, f, jokers, melds, left, pool, rules, consider, prune, value, dead + value[f], ok)
    left.pop()
    nat[f] += 1
