"""Every maximal arrangement of a hand, and the best one under a rule set.

Jokers are placed on top of the natural engine (:mod:`.islands`).  Split any
maximal arrangement into its *joker melds* G (each holds at least one joker) and
its natural melds F.  Remove G's cards and the cards G uses as jokers from the
hand; what remains is a natural hand on which F is maximal (a leftover that
extended F or formed a natural meld would do the same in the full hand).  So:

1. enumerate the joker-meld groups G (at most one meld per joker),
2. for each, choose which joker-capable cards (printed jokers, wild cards) act
   as its jokers,
3. take every natural-maximal arrangement F of the rest (islands, cached),
4. keep G + F when it is maximal as a whole.

*Maximal* means: no leftover card can join a meld, and no meld can be formed
from leftovers — except that a joker joining a pure run does not count, because
it makes the run impure (which can lose a declaration).  With that definition
every objective here is at least as good on some maximal arrangement as on any
arrangement, so ``best`` can choose among ``combos``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from functools import lru_cache

from engine.cards import SMALL_JOKER

from .grid import RANKS, SUITED, Geometry, Hand, rules_geometry, to_hand
from .islands import natural_arrangements
from .maximal import extend_to_maximal
from .melds import Arrangement, Kind, Meld, meld_ok, meld_ok_spec
from .options import MeldRules, MeldSpec
from .search import best_shape

Shape = tuple[int, tuple[int, ...], int]  # (kind, natural faces, jokers)
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]  # (melds, leftover faces)

HandLike = Hand | str | Iterable[int | str]


def combos(hand: HandLike, rules: MeldRules) -> list[Arrangement]:
    """Every maximal arrangement of ``hand`` (card ids or spellings) under ``rules``."""
    h = to_hand(hand)
    return [materialize(h, s) for s in sorted(arrangement_shapes(h.counts, rules))]


def best(hand: HandLike, rules: MeldRules) -> Arrangement:
    """The best arrangement under the rules' objective; it is one of ``combos``.

    Found by a direct search (:mod:`.search`), not by listing every combo.
    """
    h = to_hand(hand)
    return materialize(h, extend_to_maximal(best_shape(h.counts, rules), rules))


def arrangement_shapes(counts: tuple[int, ...], rules: MeldRules) -> set[ShapeArrangement]:
    """Every maximal arrangement as shapes: copies and jokers interchangeable."""
    geom = rules_geometry(rules)
    nat = list(counts[:SUITED])
    printed = [f for f in (SMALL_JOKER, SMALL_JOKER + 1) for _ in range(counts[f])]
    wild = [] if rules.wild_rank is None else [s * RANKS + rules.wild_rank for s in range(4)]
    capable = len(printed) * rules.printed_jokers + sum(nat[f] for f in wild)
    out: set[ShapeArrangement] = set()
    if not rules.uses_jokers or capable == 0:
        for natural in natural_arrangements(tuple(nat), geom):
            out.add(_shape(tuple((k, f, 0) for k, f in natural), nat, printed))
        return out
    pool_printed = printed if rules.printed_jokers else []
    dead = [] if rules.printed_jokers else printed
    candidates = joker_melds(nat, min(capable, rules.max_jokers), rules, geom)
    spec = rules.meld_spec
    for group, used in _groups(candidates, nat, capable):
        need = sum(m[2] for m in group)
        # A joker meld that could take one more joker forbids spare jokers: every
        # joker-capable card must then act as a joker or sit in a natural meld.
        hungry = any(_growth(m, spec)[1] for m in group)
        if hungry and need < len(pool_printed):
            continue
        rest = list(nat)
        for f, c in used.items():
            rest[f] -= c
        for acting in _acting_jokers(pool_printed, {f: rest[f] for f in wild if rest[f]}, need):
            left_printed = list(pool_printed)
            after = list(rest)
            for f in acting:
                if f >= SMALL_JOKER:
                    left_printed.remove(f)
                else:
                    after[f] -= 1
            if hungry and (left_printed or any(
                after[f] and not _meldable(after, f, geom) for f in wild
            )):
                continue
            # a card no natural meld can use is left over whatever F is: it must
            # not fit a joker meld
            if any(
                after[f] and not _meldable(after, f, geom)
                for m in group
                for f in _growth(m, spec)[0]
            ):
                continue
            for natural in natural_arrangements(tuple(after), geom):
                left = list(after)
                for _, faces in natural:
                    for f in faces:
                        left[f] -= 1
                spare = len(left_printed) + sum(left[f] for f in wild)
                if _maximal(group, natural, left, spare, rules, geom, spec):
                    melds = group + tuple((k, f, 0) for k, f in natural)
                    out.add((tuple(sorted(melds)), _leftover(left, left_printed + dead)))
    return out


def _meldable(counts: list[int], face: int, geom: Geometry) -> bool:
    """Whether a natural card could sit in some natural meld of ``counts``."""
    suit, rank = divmod(face, RANKS)
    if sum(1 for s in range(4) if counts[s * RANKS + rank]) >= geom.set_min:
        return True
    base = suit * RANKS
    return any(
        rank in window and all(counts[base + r] for r in window)
        for window in geom.windows(geom.run_min)
    )


def _shape(melds: tuple[Shape, ...], nat: list[int], extra: list[int]) -> ShapeArrangement:
    left = list(nat)
    for _, faces, _ in melds:
        for f in faces:
            left[f] -= 1
    return tuple(sorted(melds)), _leftover(left, extra)


def _leftover(left: list[int], extra: list[int]) -> tuple[int, ...]:
    return tuple(sorted([f for f in range(SUITED) for _ in range(left[f])] + extra))


def joker_melds(nat: list[int], kmax: int, rules: MeldRules, geom: Geometry) -> list[Shape]:
    """Every meld shape with 1..kmax jokers whose naturals the hand holds."""
    out: set[Shape] = set()
    if kmax <= 0:
        return []
    if rules.jokers_in_sets:
        for r in range(RANKS):
            faces = [s * RANKS + r for s in range(4) if nat[s * RANKS + r]]
            for n in range(1, len(faces) + 1):
                for sub in itertools.combinations(faces, n):
                    for k in range(1, kmax + 1):
                        if meld_ok(Kind.SET, sub, k, rules):
                            out.add((int(Kind.SET), sub, k))
    if rules.jokers_in_runs:
        for s in range(4):
            for length in range(geom.run_min, RANKS + 1):
                for window in geom.windows(length):
                    present = [s * RANKS + r for r in window if nat[s * RANKS + r]]
                    for n in range(max(1, length - kmax), min(len(present), length - 1) + 1):
                        for sub in itertools.combinations(present, n):
                            out.add((int(Kind.RUN), tuple(sorted(sub)), length - n))
    return sorted(out)


def _groups(
    candidates: list[Shape], nat: list[int], capable: int
) -> Iterator[tuple[tuple[Shape, ...], dict[int, int]]]:
    """Multisets of joker melds that the hand's naturals and jokers can supply."""
    used: dict[int, int] = {}
    chosen: list[Shape] = []

    def rec(i: int, jokers: int) -> Iterator[tuple[tuple[Shape, ...], dict[int, int]]]:
        yield tuple(chosen), dict(used)
        for j in range(i, len(candidates)):
            _, faces, k = candidates[j]
            if k > jokers or any(used.get(f, 0) >= nat[f] for f in faces):
                continue
            for f in faces:
                used[f] = used.get(f, 0) + 1
            chosen.append(candidates[j])
            yield from rec(j, jokers - k)
            chosen.pop()
            for f in faces:
                used[f] -= 1

    yield from rec(0, capable)


def _acting_jokers(
    printed: list[int], wild: dict[int, int], need: int
) -> Iterator[tuple[int, ...]]:
    """Which joker-capable faces act as the ``need`` jokers (as multisets)."""
    supply = {f: printed.count(f) for f in set(printed)} | wild
    faces = sorted(supply)
    for takes in itertools.product(*(range(supply[f] + 1) for f in faces)):
        if sum(takes) == need:
            yield tuple(f for f, t in zip(faces, takes, strict=True) for _ in range(t))


@lru_cache(maxsize=1 << 16)
def _growth(shape: Shape, spec: MeldSpec) -> tuple[tuple[int, ...], bool]:
    """What can join a meld: the natural faces, and whether one more joker."""
    kind, faces, k = shape
    if kind == Kind.SET:
        rank = faces[0] % RANKS
        others = [s * RANKS + rank for s in range(4)]
    else:
        suit = faces[0] // RANKS
        others = [suit * RANKS + r for r in range(RANKS)]
    joins = tuple(
        f
        for f in others
        if f not in faces and meld_ok_spec(kind, tuple(sorted((*faces, f))), k, spec)
    )
    return joins, meld_ok_spec(kind, faces, k + 1, spec)


def _maximal(
    group: tuple[Shape, ...],
    natural: tuple[tuple[int, tuple[int, ...]], ...],
    left: list[int],
    spare: int,
    rules: MeldRules,
    geom: Geometry,
    spec: MeldSpec,
) -> bool:
    """Whether G + F (F already natural-maximal) is maximal with its leftovers."""
    for meld in group:
        joins, takes_joker = _growth(meld, spec)
        if (spare and takes_joker) or any(left[f] for f in joins):
            return False
    if not spare:
        return True
    for kind, faces in natural:
        if kind == Kind.SET and meld_ok_spec(Kind.SET, faces, 1, spec):
            return False
    return not _leftovers_meld_with_jokers(left, spare, rules, geom)


def _leftovers_meld_with_jokers(
    left: list[int], spare: int, rules: MeldRules, geom: Geometry
) -> bool:
    """Whether leftover naturals plus ``spare`` joker-capable leftovers make a meld."""
    cap = min(spare, rules.max_jokers)
    wild = rules.wild_rank
    if rules.jokers_in_sets:
        for r in range(RANKS):
            suits = sum(1 for s in range(4) if left[s * RANKS + r])
            for n in range(1, min(suits, rules.set_max) + 1):
                k = rules.set_min - n
                supply = min(cap, spare - (n if r == wild else 0))
                if 0 < k <= supply:
                    return True
    if rules.jokers_in_runs:
        for s in range(4):
            for window in geom.windows(geom.run_min):
                m = sum(1 for r in window if left[s * RANKS + r])
                w = sum(1 for r in window if r == wild and left[s * RANKS + r])
                k = geom.run_min - m
                if m and 0 < k <= min(cap, spare - w):
                    return True
    return False


def materialize(hand: Hand, shape: ShapeArrangement) -> Arrangement:
    """Turn a shape arrangement into card ids of ``hand``.

    Natural cards take the lowest unused id of their face; the leftover takes
    its faces next; whatever joker-capable cards remain act as the melds' jokers.
    """
    melds_shape, leftover_faces = shape
    ids = {f: list(v) for f, v in hand.ids_by_face().items()}
    naturals: list[list[int]] = []
    for _, faces, _ in melds_shape:
        naturals.append([ids[f].pop(0) for f in faces])
    leftover = tuple(ids[f].pop(0) for f in leftover_faces)
    jokers = sorted(c for v in ids.values() for c in v)
    melds = []
    for (kind, faces, k), nat_ids in zip(melds_shape, naturals, strict=True):
        acting = tuple(jokers[:k])
        del jokers[:k]
        melds.append(Meld(Kind(kind), faces, k, (*nat_ids, *acting)))
    if jokers:
        raise ValueError("arrangement does not use the hand's cards exactly")
    return Arrangement(tuple(melds), leftover)
