"""Gin rummy: knocking, the defender's lay-offs, and a match to a target.

One deck, 10 cards, two players.  The card just taken from the pile may not be
thrown back that turn.  A seat knocks with at most ``knock_limit`` deadwood
while discarding; the defender then lays off onto the knocker's melds (none
after gin) and says ``done``, and the deal is scored (knock, gin, undercut).
A deal with two stock cards left after a discard is void.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.cards import deck, face_of, format_card
from engine.errors import IllegalAction
from engine.events import JSON, Event
from engine.game import Action, Result
from rules.rummy.flow import (
    end_deal,
    face_arg,
    rules_of,
    sorted_cards,
    spell,
    spelled_groups,
    take,
)
from rules.rummy.groups import lay_off, read_meld
from rules.rummy.least import deadwood_after_discards
from rules.rummy.melds import Meld, deadwood
from rules.rummy.options import MeldRules
from rules.rummy.scoring import best_of, gin_deadwood, gin_deal, gin_totals
from rules.rummy.state import DealOutcome, Phase, RummyState
from rules.rummy.variant import Step, VariantRules

VOID_STOCK = 2  # a deal with this many stock cards left after a discard is void


def layoffs(state: RummyState) -> list[Action]:
    """Every lay-off of the defender's hand onto the knocker's melds."""
    rules = rules_of(state)
    hand = state.hands[state.turn]
    out: list[Action] = []
    for f in sorted({face_of(c) for c in hand}):
        card = take(hand, f)
        assert card is not None
        for i, meld in enumerate(state.table):
            m = read_meld(meld, rules)
            if m is not None and lay_off(m, card, rules) is not None:
                out.append({"type": "layoff", "card": format_card(f), "meld": i})
    return out


def check_layoff(
    state: RummyState, hand: Sequence[int], kind: Any, action: Action
) -> tuple[Action, Any]:
    """The canonical ``layoff`` or ``done`` of the defender, or IllegalAction."""
    if kind == "done":
        return {"type": "done"}, None
    if kind != "layoff":
        raise IllegalAction("bad_action", "lay off a card or say done")
    f = face_arg(action)
    card = take(hand, f)
    if card is None:
        raise IllegalAction("not_in_hand", "that card is not in your hand")
    index = action.get("meld")
    if not isinstance(index, int) or isinstance(index, bool) or not (
        0 <= index < len(state.table)
    ):
        raise IllegalAction("bad_meld", "meld must be the index of one of the knocker's melds")
    rules = rules_of(state)
    meld = read_meld(state.table[index], rules)
    if meld is None or lay_off(meld, card, rules) is None:
        raise IllegalAction("does_not_fit", "that card does not fit that meld")
    return {"type": "layoff", "card": format_card(card), "meld": index}, (card, index)


class GinRules(VariantRules):
    """The gin variant's policy."""

    deck: ClassVar[tuple[int, ...]] = tuple(deck())
    hand_size: ClassVar[int] = 10
    cuts_wild: ClassVar[bool] = False
    can_drop: ClassVar[bool] = False
    finish: ClassVar[str] = "knock"
    actions: ClassVar[frozenset[str]] = frozenset({"knock", "layoff", "done"})

    def banned_face(self, state: RummyState) -> int | None:
        # The card just taken from the discard pile may not be thrown back this turn.
        return face_of(state.taken) if state.taken is not None else None

    def finishes(self, state: RummyState, hand: Sequence[int], faces: Sequence[int],
                 banned: int | None, rules: MeldRules) -> list[Action]:
        limit = state.config.knock_limit
        # One call to the compiled core gives the deadwood after each discard; only
        # a discard that may knock pays for the full arrangement (its groups).
        after = deadwood_after_discards(hand, rules)
        if after is None:
            after = self._after_discards(hand, faces, rules, limit)
        out: list[Action] = []
        for f in faces:
            if f == banned or after.get(f, limit + 1) > limit:
                continue
            card = take(hand, f)
            assert card is not None
            arr = best_of(tuple(sorted(c for c in hand if c != card)), rules)
            if deadwood(arr.leftover, rules) <= limit:
                out.append(
                    {"type": "knock", "card": format_card(f), "groups": spelled_groups(arr)}
                )
        return out

    @staticmethod
    def _after_discards(hand: Sequence[int], faces: Sequence[int], rules: MeldRules,
                        limit: int) -> dict[int, int]:
        """Deadwood after each discard by the general search (no compiled core)."""
        # Leaving a card out of a hand's best arrangement costs at most its points,
        # so the 11-card deadwood bounds every knock from below: skip hopeless hands.
        floor = deadwood(best_of(tuple(sorted(hand)), rules).leftover, rules)
        points = rules.face_points
        out = {}
        for f in faces:
            if floor - points[f] <= limit:
                card = take(hand, f)
                rest = tuple(sorted(c for c in hand if c != card))
                out[f] = deadwood(best_of(rest, rules).leftover, rules)
        return out

    def check_finish(self, state: RummyState, card: int, groups: list[tuple[int, ...]],
                     melds: list[Meld | None], leftover: tuple[int, ...],
                     rules: MeldRules) -> Any:
        if None in melds:
            raise IllegalAction("not_a_meld", "a group you knocked with is not a meld")
        if deadwood(leftover, rules) > state.config.knock_limit:
            raise IllegalAction(
                "knock_too_high",
                f"you may knock with at most {state.config.knock_limit} points of deadwood",
            )
        return card, tuple(groups), leftover

    def apply(self, state: RummyState, seat: int, canonical: Action, arg: Any) -> Step:
        kind = canonical["type"]
        if kind == "knock":
            return self._knock(state, seat, canonical, *arg)
        if kind == "layoff":
            card, index = arg
            table = list(state.table)
            table[index] = sorted_cards((*table[index], card))
            hands = list(state.hands)
            hands[seat] = tuple(c for c in hands[seat] if c != card)
            after = replace(state, hands=tuple(hands), table=tuple(table))
            data = {"seat": seat, "card": format_card(card), "meld": index}
            return after, [Event("layoff", data)]
        return self._score_knock(state)

    def _knock(
        self,
        state: RummyState,
        seat: int,
        canonical: Action,
        card: int,
        groups: tuple[tuple[int, ...], ...],
        leftover: tuple[int, ...],
    ) -> Step:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        dead = deadwood(leftover, rules_of(state))
        after = replace(
            state,
            hands=tuple(hands),
            pile=(*state.pile, card),
            taken=None,
            knocker=seat,
            table=tuple(sorted_cards(g) for g in groups),
            knocker_deadwood=dead,
            phase=Phase.LAYOFF,
            turn=1 - seat,
        )
        events = [
            Event(
                "knock",
                {"seat": seat, "card": canonical["card"], "groups": canonical["groups"],
                 "deadwood": spell(leftover), "points": dead, "gin": dead == 0},
            )
        ]
        if dead == 0:  # gin: no lay-offs
            after, more = self._score_knock(after)
            events += more
        return after, events

    def _score_knock(self, state: RummyState) -> Step:
        defender = 1 - state.knocker
        defender_dw = gin_deadwood(state.hands[defender], rules_of(state))
        how, winner, won = gin_deal(
            state.knocker, state.knocker_deadwood, defender_dw, state.config
        )
        points = [0, 0]
        points[winner] = won
        outcome = DealOutcome(how, winner, (points[0], points[1]))
        return end_deal(self, state, outcome, [])

    def after_discard(self, state: RummyState, events: list[Event]) -> Step:
        if len(state.stock) <= VOID_STOCK:
            return end_deal(self, state, DealOutcome("void", None, (0, 0)), events)
        return state, events

    def standings(self, state: RummyState, points: tuple[int, ...],
                  outcome: DealOutcome) -> tuple[tuple[bool, ...], tuple[int, ...], bool]:
        boxes = state.boxes
        if outcome.winner is not None:
            boxes = tuple(b + (s == outcome.winner) for s, b in enumerate(boxes))
        cfg = state.config
        over = cfg.target == 0 or max(points) >= cfg.target
        return state.eliminated, boxes, over

    def view_fields(self, state: RummyState, rules: MeldRules) -> JSON:
        cfg = state.config
        out: JSON = {
            "knock_limit": cfg.knock_limit,
            "target": cfg.target,
            "boxes": list(state.boxes),
            "knocker": state.knocker,
            "table": [spell(m) for m in state.table],
            "knocker_deadwood": state.knocker_deadwood,
        }
        if state.phase is Phase.LAYOFF:
            out["knocker_hand"] = spell(state.hands[state.knocker])
        return out

    def result(self, state: RummyState) -> Result:
        cfg = state.config
        # Summaries number seats from 1, as the table screens show them to people.
        if cfg.target == 0:
            scores = tuple(float(p) for p in state.points)
            last = state.last
            if last is None or last.winner is None:
                return Result(scores, "void deal")
            return Result(scores, f"Seat {last.winner + 1} wins {max(last.points)} ({last.how})")
        totals = gin_totals(state.points, state.boxes, cfg)
        winner = max(range(2), key=lambda s: state.points[s])
        other = 1 - winner
        if totals[other] > totals[winner]:
            # The totals settle the match (the game winner is paid the difference);
            # the other seat's boxes can outweigh the game bonus.
            return Result(
                tuple(float(t) for t in totals),
                f"Seat {other + 1} ahead {totals[other]}-{totals[winner]} on its boxes "
                f"(seat {winner + 1} reached {cfg.target})",
            )
        return Result(
            tuple(float(t) for t in totals),
            f"Seat {winner + 1} wins the match {totals[0]}-{totals[1]}",
        )
