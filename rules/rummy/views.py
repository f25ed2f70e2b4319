"""What each viewer of a rummy table sees, and which faces are secret from it.

Hands are shown to their seats (with the rules' own best grouping) and to
everyone once the deal is over; the stock is hidden; cards taken from the pile
are public while their holder keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import face_of, format_card
from engine.events import JSON, OMNISCIENT
from engine.game import Result
from rules.rummy.flow import rules_of, spell
from rules.rummy.melds import Kind, counted_points, deadwood, declaration_ok
from rules.rummy.options import MeldRules
from rules.rummy.scoring import best_of
from rules.rummy.state import Phase, RummyState
from rules.rummy.variant import VariantRules


def arrangement_json(hand: Sequence[int], rules: MeldRules) -> JSON:
    """A hand at its best, for views: clients show the rules' own grouping rather
    than search for one themselves.  ``wild``: the cards a meld uses as jokers;
    ``counted``: points charged before the cap; ``valid``: it may declare."""
    arr = best_of(tuple(sorted(hand)), rules)
    return {
        "melds": [
            {
                "kind": "run" if m.kind is Kind.RUN else "set",
                "cards": spell(m.cards),
                "jokers": m.jokers,
                "wild": spell(m.cards[len(m.naturals):]),
            }
            for m in arr.melds
        ],
        "leftover": spell(arr.leftover),
        "deadwood": deadwood(arr.leftover, rules),
        "counted": counted_points(arr, rules),
        "valid": declaration_ok(arr, rules),
    }


def view(state: RummyState, viewer: int, variant: VariantRules, name: str,
         to_act: tuple[int, ...], result: Result | None) -> JSON:
    """``viewer``'s view of the table of game ``name``."""
    cfg = state.config
    rules = rules_of(state)
    out: JSON = {
        "game": name,
        "variant": cfg.variant.value,
        "deal": state.deal_no + 1,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "turn": state.turn,
        "to_act": list(to_act),
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "pile": spell(state.pile),
        "taken": format_card(state.taken) if state.taken is not None else None,
        "known": [spell(k) for k in state.known],
        "points": list(state.points),
        "over": state.over,
    }
    out.update(variant.view_fields(state, rules))
    if state.last is not None:
        out["last_deal"] = {
            "how": state.last.how,
            "winner": state.last.winner,
            "points": list(state.last.points),
        }
    if viewer == OMNISCIENT or state.phase in (Phase.DEAL_OVER, Phase.OVER):
        out["hands"] = [spell(h) for h in state.hands]
        out["arrangements"] = [arrangement_json(h, rules) for h in state.hands]
    if 0 <= viewer < state.seats:
        out["hand"] = spell(state.hands[viewer])
        out["arrangement"] = arrangement_json(state.hands[viewer], rules)
    if result is not None:
        out["result"] = result.to_json()
    return out


def secrets(state: RummyState, viewer: int) -> frozenset[int]:
    """Faces ``viewer`` must not learn now."""
    if viewer == OMNISCIENT or state.phase in (Phase.DEAL_OVER, Phase.OVER):
        return frozenset()
    hidden = {face_of(c) for c in state.stock}
    for s, hand in enumerate(state.hands):
        if s == viewer or (state.phase is Phase.LAYOFF and s == state.knocker):
            continue
        hidden.update(face_of(c) for c in hand if c not in state.known[s])
    # Faces anyone can see are not secret, and with two decks neither is a face
    # the viewer holds itself.
    public = [*state.pile, *(c for k in state.known for c in k)]
    public += [c for m in state.table for c in m]
    if state.wild_card is not None:
        public.append(state.wild_card)
    if 0 <= viewer < state.seats:
        public += state.hands[viewer]
    hidden.difference_update(face_of(c) for c in public)
    return frozenset(hidden)
