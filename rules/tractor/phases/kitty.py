"""After the draw: the landlord buries the kitty, then (Finding Friends) calls friends.

The landlord holds the kitty with the hand and buries as many cards; the
buried cards stay the secret of the seat that buried them until the round ends
(with ``kitty_theft`` another seat may take the kitty and bury in turn:
``overbid.py``).  Under Finding
Friends the landlord then calls the friend cards, knowing the final hand
(``rules/tractor/friends.py``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import FACES_PER_DECK
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Action
from rules.tractor.friends import call_choices, calls_json, parse_calls
from rules.tractor.order import tables
from rules.tractor.phases.base import PhaseRules, Step, TractorMove
from rules.tractor.phases.common import (
    cards_in_hand,
    in_hand_order,
    reject_takeback,
    sample_rng,
    spell,
)
from rules.tractor.phases.overbid import after_burial
from rules.tractor.scoring import points
from rules.tractor.state import Phase, TractorState


def _landlord(state: TractorState) -> tuple[int, ...]:
    assert state.landlord is not None
    return (state.landlord,)


def _holder(state: TractorState) -> tuple[int, ...]:
    holder = state.kitty_holder
    assert holder is not None
    return (holder,)


def bury_choices(state: TractorState) -> list[tuple[int, ...]]:
    """A representative set of burials: the plainest cards (no trumps, no
    points, lowest first), and a few random ones."""
    holder = state.kitty_holder
    assert holder is not None and state.trump is not None
    hand = state.hands[holder]
    t = tables(state.trump)
    plain = sorted(hand, key=lambda c: (t.suit[c % FACES_PER_DECK] == 4,
                                        points([c]) > 0, t.phi[c % FACES_PER_DECK], c))
    rng = sample_rng(state)
    n = state.config.kitty_size
    choices = [tuple(plain[:n])] + [tuple(rng.shuffled(hand)[:n]) for _ in range(3)]
    return list(dict.fromkeys(tuple(sorted(c)) for c in choices))


class Bury(PhaseRules):
    """``BURY``: the kitty's holder buries as many cards as the kitty held."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        return _holder(state)

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        return [{"type": "bury", "cards": spell(c)} for c in bury_choices(state)]

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        kind = action.get("type")
        reject_takeback(state, seat, kind)
        cards = cards_in_hand(state, seat, action, "bury")
        if len(cards) != state.config.kitty_size:
            raise IllegalAction("wrong_count", f"bury exactly {state.config.kitty_size} cards")
        canonical = in_hand_order(state.hands[seat], cards)
        return TractorMove({"type": "bury", "cards": spell(canonical)}, seat, state,
                           cards=canonical)

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        cards = move.cards
        hands = list(state.hands)
        buried = set(cards)
        hands[seat] = tuple(c for c in hands[seat] if c not in buried)
        after = replace(state, hands=tuple(hands), kitty=cards)
        return after_burial(after, [Event("buried", {"seat": seat, "count": len(cards)})])


class Call(PhaseRules):
    """``CALL`` (Finding Friends): the landlord names the friend cards."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        return _landlord(state)

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        assert state.trump is not None
        choices = call_choices(state.hands[seat], state.trump, state.config.friend_calls,
                               state.config.decks, sample_rng(state),
                               state.config.friend_selection)
        return [{"type": "call", "calls": calls_json(c)} for c in choices]

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        assert state.trump is not None
        if action.get("type") != "call":
            raise IllegalAction("bad_action", 'expected {"type": "call", "calls": [...]}')
        calls = parse_calls(action, state.trump, state.config.friend_calls,
                            state.config.decks, state.config.friend_selection)
        return TractorMove({"type": "call", "calls": calls_json(calls)}, seat, state,
                           calls=calls)

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        assert state.landlord is not None
        calls = move.calls
        after = replace(state, calls=calls, called_by=(None,) * len(calls), phase=Phase.PLAY)
        return after, [Event("friends_called", {"seat": state.landlord,
                                                "calls": calls_json(calls)})]
