"""Growing an arrangement until it is maximal (what ``best`` returns, docs/rummy.md,
"Definitions"): leftover naturals join melds, spare jokers join sets and impure runs,
and leftovers that hold a meld form it.  Adding cards never makes an objective
worse, so the search's winner stays optimal and becomes one of ``combos``.
"""

from __future__ import annotations

from functools import lru_cache

from .grid import RANKS, SUITED, Geometry, rules_geometry
from .melds import Kind, meld_ok, meld_ok_spec
from .options import MeldRules

Shape = tuple[int, tuple[int, ...], int]
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]


def extend_to_maximal(arrangement: ShapeArrangement, rules: MeldRules) -> ShapeArrangement:
    """Grow an arrangement until it is maximal, never hurting any objective.

    Leftover naturals join melds, spare jokers join sets and impure runs (never
    a pure run), and leftovers that hold a meld form it; repeat until stuck.
    """
    melds = [(m[0], m[1], m[2]) for m in arrangement[0]]
    left = list(arrangement[1])
    while True:
        if _add_natural(melds, left, rules) or _add_joker(melds, left, rules):
            continue
        new = _new_meld(left, rules)
        if new is None:
            return tuple(sorted(melds)), tuple(sorted(left))
        shape, used = new
        melds.append(shape)
        for g in used:
            left.remove(g)


def _jokers_in(left: list[int], rules: MeldRules) -> list[int]:
    """Joker-capable leftover cards, printed jokers first (wild cards may still
    be useful as themselves)."""
    printed, wild = rules.printed_jokers, rules.wild_rank  # ``is_joker_face``, inlined
    return sorted(
        (g for g in left if (printed if g >= SUITED else wild is not None and g % RANKS == wild)),
        key=lambda g: (g < SUITED, g),
    )


def _add_natural(melds: list[Shape], left: list[int], rules: MeldRules) -> bool:
    spec = rules.meld_spec
    # a set's naturals share a rank and a run's a suit: only a card of that rank or
    # suit can join (checking the others would only find that they cannot)
    lines = [faces[0] % RANKS if kind else faces[0] // RANKS for kind, faces, _ in melds]
    for g in sorted(set(left)):
        if g >= SUITED:
            continue
        rank, suit = g % RANKS, g // RANKS
        for i, (kind, faces, k) in enumerate(melds):
            if lines[i] != (rank if kind else suit) or g in faces:
                continue
            grown = tuple(sorted((*faces, g)))
            if meld_ok_spec(kind, grown, k, spec):
                melds[i] = (kind, grown, k)
                left.remove(g)
                return True
    return False


def _add_joker(melds: list[Shape], left: list[int], rules: MeldRules) -> bool:
    jokers = _jokers_in(left, rules)
    if not jokers:
        return False
    spec = rules.meld_spec
    for i, (kind, faces, k) in enumerate(melds):
        if not (kind == 0 and k == 0) and meld_ok_spec(kind, faces, k + 1, spec):
            melds[i] = (kind, faces, k + 1)
            left.remove(jokers[0])
            return True
    return False


def _new_meld(left: list[int], rules: MeldRules) -> tuple[Shape, list[int]] | None:
    """A smallest meld the leftovers hold: (shape, cards it takes)."""
    present = {g for g in left if g < SUITED}
    capable = _jokers_in(left, rules)
    supply = len(capable)

    def take(chosen: list[int], k: int) -> list[int]:
        spare = list(capable)
        for g in chosen:
            if g in spare:
                spare.remove(g)
        return chosen + spare[:k]

    by_rank: list[list[int]] = [[] for _ in range(RANKS)]  # each in suit order
    per_suit = [0] * 4
    suit_ranks = [0] * 4  # per suit, a bit per rank present
    for g in sorted(present):
        by_rank[g % RANKS].append(g)
        per_suit[g // RANKS] += 1
        suit_ranks[g // RANKS] |= 1 << g % RANKS
    for r in range(RANKS):
        nats = by_rank[r]
        if len(nats) + supply < rules.set_min:
            continue  # not enough jokers for any set of these
        for n in range(min(len(nats), rules.set_max), 0, -1):
            chosen = nats[:n]
            k = max(0, rules.set_min - n)
            own = sum(1 for g in chosen if g in capable)  # wild cards used as themselves
            if k <= supply - own and meld_ok(Kind.SET, tuple(chosen), k, rules):
                return (1, tuple(chosen), k), take(chosen, k)
    geom = rules_geometry(rules)
    for s in range(4):
        if per_suit[s] + supply < rules.run_min:
            continue  # not enough jokers for any run of this suit
        for window, bits in _window_bits(geom, rules.run_min):
            hit = suit_ranks[s] & bits
            # a window needs a natural, and its gaps take more jokers than there are
            # (wild cards used as themselves only lower the supply)
            if not hit or rules.run_min - hit.bit_count() > supply:
                continue
            chosen = sorted({s * RANKS + r for r in window if hit >> r & 1})
            k = rules.run_min - len(chosen)
            own = sum(1 for g in chosen if g in capable)
            if k <= supply - own and meld_ok(Kind.RUN, tuple(chosen), k, rules):
                return (0, tuple(chosen), k), take(chosen, k)
    return None


@lru_cache(maxsize=64)
def _window_bits(geom: Geometry, length: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The run windows of ``length`` places, each with its ranks as a bitmask."""
    return tuple((w, sum(1 << r for r in set(w))) for w in geom.windows(length))
