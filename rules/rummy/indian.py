"""Indian points and pool rummy: drops, declarations, penalty points and the pool.

Two decks plus two printed jokers, 13 cards, and a wild card cut each deal.  A
seat may drop instead of drawing (first or middle drop penalty); the seat that
declares a valid hand charges every other seat still in the deal its counted
points; a wrong declaration costs the declarer the penalty.  Pool rummy
eliminates a seat whose total reaches the pool; the last seat in wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.cards import SMALL_JOKER, card_id, deck, format_card
from engine.events import JSON, Event
from engine.game import Action, Result
from rules.rummy.flow import end_deal, next_seat, rules_of, spelled_groups
from rules.rummy.melds import Arrangement, Meld, declaration_ok
from rules.rummy.options import MeldRules, Pool
from rules.rummy.scoring import best_of, indian_charge
from rules.rummy.state import DealOutcome, RummyState
from rules.rummy.variant import Step, VariantRules

# Two decks plus two printed jokers (one per deck).
INDIAN_DECK = (*deck(2), card_id(SMALL_JOKER, 0), card_id(SMALL_JOKER, 1))


def declaration(hand: Sequence[int], rules: MeldRules) -> tuple[int, Arrangement] | None:
    """A valid declaration of a 14-card hand: (card to discard, the 13 grouped)."""
    whole = best_of(tuple(sorted(hand)), rules)
    if not declaration_ok(whole, rules):
        return None
    candidates = list(whole.leftover) or sorted(hand)
    for card in candidates:
        rest = tuple(sorted(c for c in hand if c != card))
        arr = best_of(rest, rules)
        if declaration_ok(arr, rules) and not arr.leftover:
            return card, arr
    return None


class IndianRules(VariantRules):
    """The indian variant's policy."""

    deck: ClassVar[tuple[int, ...]] = INDIAN_DECK
    hand_size: ClassVar[int] = 13
    cuts_wild: ClassVar[bool] = True
    can_drop: ClassVar[bool] = True
    finish: ClassVar[str] = "declare"
    actions: ClassVar[frozenset[str]] = frozenset({"drop", "declare"})

    def finishes(self, state: RummyState, hand: Sequence[int], faces: Sequence[int],
                 banned: int | None, rules: MeldRules) -> list[Action]:
        decl = declaration(hand, rules)
        if decl is None:
            return []
        throw, arr = decl
        return [{"type": "declare", "card": format_card(throw), "groups": spelled_groups(arr)}]

    def check_finish(self, state: RummyState, card: int, groups: list[tuple[int, ...]],
                     melds: list[Meld | None], leftover: tuple[int, ...],
                     rules: MeldRules) -> Any:
        # Any show is allowed; a wrong one is the declarer's 80-point penalty.
        valid = None not in melds and declaration_ok(
            Arrangement(tuple(m for m in melds if m is not None), leftover), rules
        )
        return card, valid

    def apply(self, state: RummyState, seat: int, canonical: Action, arg: Any) -> Step:
        if canonical["type"] == "drop":
            return self._drop(state, seat)
        return self._declare(state, seat, canonical, *arg)

    def _drop(self, state: RummyState, seat: int) -> Step:
        cfg = state.config
        penalty = cfg.middle_drop if state.drawn[seat] else cfg.first_drop
        charges = list(state.charges)
        charges[seat] += penalty
        out = list(state.out)
        out[seat] = True
        after = replace(
            state,
            charges=tuple(charges),
            out=tuple(out),
            turn=next_seat(state, seat, out),
        )
        events = [Event("drop", {"seat": seat, "points": penalty})]
        live = [s for s in range(state.seats) if not out[s]]
        if len(live) == 1:
            return end_deal(self, after, DealOutcome("drops", live[0], after.charges), events)
        return after, events

    def _declare(
        self, state: RummyState, seat: int, canonical: Action, card: int, valid: bool
    ) -> Step:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        after = replace(state, hands=tuple(hands), pile=(*state.pile, card), taken=None)
        charges = list(state.charges)
        rules = rules_of(state)
        if valid:
            for s in range(state.seats):
                if s != seat and not state.out[s]:
                    charges[s] += indian_charge(hands[s], rules)
            outcome = DealOutcome("declare", seat, tuple(charges))
        else:
            charges[seat] += state.config.wrong_declaration
            outcome = DealOutcome("wrong_declaration", None, tuple(charges))
        events = [
            Event(
                "declare",
                {"seat": seat, "card": canonical["card"], "groups": canonical["groups"],
                 "valid": valid},
            )
        ]
        return end_deal(self, after, outcome, events)

    def after_discard(self, state: RummyState, events: list[Event]) -> Step:
        if not state.stock and len(state.pile) <= 1:
            # Nothing left to draw from (cannot happen with two decks and six seats,
            # kept so the deal always ends): nobody is charged beyond drops.
            return end_deal(self, state, DealOutcome("void", None, state.charges), events)
        return state, events

    def standings(self, state: RummyState, points: tuple[int, ...],
                  outcome: DealOutcome) -> tuple[tuple[bool, ...], tuple[int, ...], bool]:
        cfg = state.config
        eliminated = state.eliminated
        over = cfg.pool is Pool.SINGLE
        if not over:
            eliminated = tuple(
                e or p >= cfg.pool for e, p in zip(eliminated, points, strict=True)
            )
            over = sum(not e for e in eliminated) <= 1
        return eliminated, state.boxes, over

    def view_fields(self, state: RummyState, rules: MeldRules) -> JSON:
        assert state.wild_card is not None
        return {
            "wild_card": format_card(state.wild_card),
            "wild_rank": rules.wild_rank,
            "pool": int(state.config.pool),
            "drawn": list(state.drawn),
            "out": list(state.out),
            "eliminated": list(state.eliminated),
            "charges": list(state.charges),
        }

    def result(self, state: RummyState) -> Result:
        # Summaries number seats from 1, as the table screens show them to people.
        scores = tuple(float(-p) for p in state.points)
        if state.config.pool is Pool.SINGLE:
            winner = state.last.winner if state.last else None
            who = f"Seat {winner + 1} wins the deal" if winner is not None else "no winner"
            return Result(scores, f"{who}; points {list(state.points)}")
        alive = [s for s in range(state.seats) if not state.eliminated[s]]
        return Result(scores, f"Seat {alive[0] + 1} wins the pool; points {list(state.points)}")
