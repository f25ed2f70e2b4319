"""Throws: whether a multi-unit lead stands, and what a failed one plays.

docs/tractor.md, "Units, leads and throws": a throw stands only if no
single unit of it can be beaten by another player's cards in that effective
suit (partners included; trumping in does not count): a higher pair beats a
pair unit, a higher single beats a single unit, a tractor of the same length
starting higher beats a tractor unit.  A failed throw plays only a unit that
can be beaten (option: the smallest, or the first found); the rest returns to
the hand, and the penalty option is charged by the scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import FACES_PER_DECK
from rules.tractor.options import ThrowFailureUnit
from rules.tractor.order import Trump, tables
from rules.tractor.structure import Structure, Unit


@dataclass(frozen=True)
class ThrowOutcome:
    """``stands``: the whole lead is played.  Otherwise ``forced`` is the unit that
    is played instead, ``returned`` the cards that go back to the hand, and
    ``beatable`` every unit some other hand could beat (in template order)."""

    stands: bool
    forced: Unit | None
    returned: tuple[int, ...]
    beatable: tuple[Unit, ...]


def _pair_values(cards: Sequence[int], trump: Trump, suit: int) -> set[int]:
    """Φ values at which ``cards`` hold a pair of the effective suit ``suit``."""
    t = tables(trump)
    seen: set[int] = set()
    values: set[int] = set()
    for c in cards:
        f = c % FACES_PER_DECK
        if t.suit[f] != suit:
            continue
        if f in seen:
            values.add(t.phi[f])
        seen.add(f)
    return values


def can_beat(unit: Unit, hand: Sequence[int], trump: Trump, suit: int) -> bool:
    """Whether ``hand`` holds, in ``suit``, a unit of the same kind that beats ``unit``."""
    t = tables(trump)
    low = t.phi[unit.cards[0] % FACES_PER_DECK]
    if unit.pairs == 0:
        return any(t.suit[c % FACES_PER_DECK] == suit and t.phi[c % FACES_PER_DECK] > low
                   for c in hand)
    values = _pair_values(hand, trump, suit)
    length = unit.pairs
    # A tractor (or pair, length 1) starting higher: `length` consecutive Φ
    # values, each holding some pair, from a bottom above the unit's bottom.
    return any(all(v + i in values for i in range(length)) for v in values if v > low)


def resolve_throw(
    lead: Structure,
    others: Sequence[Sequence[int]],
    trump: Trump,
    choice: ThrowFailureUnit = ThrowFailureUnit.SMALLEST,
    beats: Callable[[Unit, Sequence[int], Trump, int], bool] | None = None,
) -> ThrowOutcome:
    """Decide a lead against the other players' hands (card ids each, in play
    order after the thrower).

    ``beats`` decides whether a hand beats a unit (default :func:`can_beat`;
    the tuple rules pass their own)."""
    if len(lead.units) <= 1:
        return ThrowOutcome(True, None, (), ())
    beat = beats or can_beat
    beatable = tuple(u for u in lead.units
                     if any(beat(u, hand, trump, lead.suit) for hand in others))
    if not beatable:
        return ThrowOutcome(True, None, (), ())
    phi = tables(trump).phi

    def smallest(units: Sequence[Unit]) -> Unit:
        return min(units, key=lambda u: (u.size, phi[u.cards[-1] % FACES_PER_DECK]))

    if choice is ThrowFailureUnit.SMALLEST:
        forced = smallest(beatable)
    elif choice is ThrowFailureUnit.FIRST_BEATER:
        # ``others`` are in play order: the first hand that beats anything decides.
        hand = next(h for h in others if any(beat(u, h, trump, lead.suit) for u in beatable))
        forced = smallest([u for u in beatable if beat(u, hand, trump, lead.suit)])
    else:
        forced = beatable[0]
    returned = tuple(c for u in lead.units if u is not forced for c in u.cards)
    return ThrowOutcome(False, forced, returned, beatable)
