"""Melds, arrangements, their validity and their cost under a rule set.

A meld is described by what matters for the rules: its kind, the faces of its
natural cards and how many jokers it holds.  Where in a run a joker sits is not
part of a meld (any placement that makes the run valid will do; :meth:`Meld.layout`
shows one), and jokers are interchangeable: printed jokers and wild cards used as
jokers all stand in for a missing card and all count ``joker_points``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from engine.cards import SMALL_JOKER, face_of, format_face

from .grid import RANKS, run_span_ok
from .options import AceRule, MeldRules, MeldSpec, Objective, face_cost, joker_face


class Kind(IntEnum):
    """Run (same suit, consecutive ranks) or set (same rank, distinct suits)."""

    RUN = 0
    SET = 1


def is_joker_face(face: int, rules: MeldRules) -> bool:
    """Whether a card of ``face`` can stand in as a joker under ``rules``."""
    return joker_face(face, rules.printed_jokers, rules.wild_rank)


def meld_ok(kind: Kind, naturals: Sequence[int], jokers: int, rules: MeldRules) -> bool:
    """Whether natural faces plus ``jokers`` jokers form a valid meld.

    ``naturals`` are suited faces used as themselves; at least one is required.
    """
    return meld_ok_spec(int(kind), tuple(naturals), jokers, rules.meld_spec)


@lru_cache(maxsize=1 << 18)
def meld_ok_spec(kind: int, naturals: tuple[int, ...], jokers: int, spec: MeldSpec) -> bool:
    """``meld_ok`` on plain values (kind as int, rules as ``MeldRules.meld_spec``), cached."""
    run_min, ace, set_min, set_max, uses_jokers, in_runs, in_sets, max_jokers = spec
    n = len(naturals)
    if n == 0 or jokers < 0 or any(f >= SMALL_JOKER for f in naturals):
        return False
    if jokers and (jokers > max_jokers or not uses_jokers):
        return False
    size = n + jokers
    if kind == Kind.SET:
        if jokers and not in_sets:
            return False
        rank = naturals[0] % RANKS
        suits = {f // RANKS for f in naturals}
        return (
            set_min <= size <= set_max
            and len(suits) == n
            and all(f % RANKS == rank for f in naturals)
        )
    if jokers and not in_runs:
        return False
    suit = naturals[0] // RANKS
    if size < run_min or any(f // RANKS != suit for f in naturals):
        return False
    return run_span_ok(tuple(sorted(f % RANKS for f in naturals)), size, ace)


def card_points(face: int, rules: MeldRules) -> int:
    """What one card left out of melds costs."""
    return face_cost(face, rules.points, rules.printed_jokers, rules.wild_rank,
                     rules.joker_points)


@dataclass(frozen=True, order=True)
class Meld:
    """One meld: kind, natural faces (sorted), joker count, and the card ids used.

    ``cards`` are the natural card ids followed by the joker card ids.
    """

    kind: Kind
    naturals: tuple[int, ...]
    jokers: int
    cards: tuple[int, ...] = ()

    @property
    def pure(self) -> bool:
        """A run with no joker (a wild card in its natural place is natural)."""
        return self.kind is Kind.RUN and self.jokers == 0

    @property
    def shape(self) -> tuple[int, tuple[int, ...], int]:
        """What identifies the meld regardless of which copies it uses."""
        return (int(self.kind), self.naturals, self.jokers)

    def layout(self, rules: MeldRules) -> list[int | None]:
        """One valid order of the meld's places: faces, with None for a joker."""
        if self.kind is Kind.SET:
            return [*self.naturals, *([None] * self.jokers)]
        size = len(self.naturals) + self.jokers
        suit = self.naturals[0] // RANKS
        ranks = {f % RANKS for f in self.naturals}
        lines = [[12, *range(12)]]  # ace low
        if rules.ace is AceRule.LOW_OR_HIGH:
            lines.append(list(range(13)))  # ace high
        elif rules.ace is AceRule.WRAP:
            lines += [[(12 + i + k) % 13 for i in range(13)] for k in range(1, 13)]
        for line in lines:
            for start in range(len(line) - size + 1):
                window = line[start : start + size]
                if ranks <= set(window):
                    return [suit * RANKS + r if r in ranks else None for r in window]
        raise ValueError("not a valid run")

    def __str__(self) -> str:
        parts = [format_face(f) for f in self.naturals] + ["*"] * self.jokers
        return ("run " if self.kind is Kind.RUN else "set ") + " ".join(parts)


@dataclass(frozen=True)
class Arrangement:
    """Disjoint melds of a hand plus the cards left over (the deadwood)."""

    melds: tuple[Meld, ...]
    leftover: tuple[int, ...]

    @property
    def key(self) -> tuple[tuple[tuple[int, tuple[int, ...], int], ...], tuple[int, ...]]:
        """Identity up to swapping copies of a face and swapping jokers between melds."""
        return (
            tuple(sorted(m.shape for m in self.melds)),
            tuple(sorted(face_of(c) for c in self.leftover)),
        )

    def __str__(self) -> str:
        left = " ".join(format_face(face_of(c)) for c in self.leftover)
        return " | ".join([*(str(m) for m in self.melds), f"left {left}"])


def deadwood(leftover: Iterable[int], rules: MeldRules) -> int:
    """Points of the cards (ids) left out of melds, uncapped."""
    return sum(card_points(face_of(c), rules) for c in leftover)


def runs_ok(melds: Iterable[Meld], rules: MeldRules) -> bool:
    """Whether the melds hold the runs the rules ask for (e.g. 2 runs, 1 pure)."""
    runs = [m for m in melds if m.kind is Kind.RUN]
    return len(runs) >= rules.runs_required and (
        sum(m.pure for m in runs) >= rules.pure_runs_required
    )


def declaration_ok(arrangement: Arrangement, rules: MeldRules) -> bool:
    """Whether the hand may declare with this arrangement.

    All cards but the ones to be discarded (hand size minus ``declare_size``)
    must be melded, with the required runs.
    """
    spare = max(0, len(arrangement.leftover) + _melded(arrangement) - rules.declare_size)
    return runs_ok(arrangement.melds, rules) and len(arrangement.leftover) <= spare


def counted_points(arrangement: Arrangement, rules: MeldRules) -> int:
    """Points charged for the arrangement, before any cap.

    Without the required runs every card counts; otherwise only the leftover.
    """
    dead = deadwood(arrangement.leftover, rules)
    if runs_ok(arrangement.melds, rules):
        return dead
    return dead + sum(meld_points(m, rules) for m in arrangement.melds)


def points_charged(arrangement: Arrangement, rules: MeldRules) -> int:
    """Counted points after the rules' cap (Indian rummy: at most 80)."""
    points = counted_points(arrangement, rules)
    return points if rules.points_cap is None else min(points, rules.points_cap)


def meld_points(meld: Meld, rules: MeldRules) -> int:
    """What the meld's cards would cost if they were not melded."""
    return sum(card_points(f, rules) for f in meld.naturals) + meld.jokers * rules.joker_points


def objective_key(arrangement: Arrangement, rules: MeldRules) -> tuple[int, ...]:
    """Smaller is better: what ``best`` minimises under the rules' objective."""
    dead = deadwood(arrangement.leftover, rules)
    if rules.objective is Objective.DEADWOOD:
        return (dead,)
    return (
        0 if declaration_ok(arrangement, rules) else 1,
        counted_points(arrangement, rules),
        dead,
    )


def _melded(arrangement: Arrangement) -> int:
    return sum(len(m.naturals) + m.jokers for m in arrangement.melds)
