"""Helpers every tractor phase shares: card spellings, taking named cards from
a hand, the display order of a hand, and the stream for sampling actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import FACES_PER_DECK, CardParseError, format_card, parse_face
from engine.errors import IllegalAction
from engine.rng import Rng
from rules.tractor.order import Trump, tables
from rules.tractor.state import Phase, TractorState


def _order_key(trump: Trump) -> Any:
    t = tables(trump)
    return lambda c: (t.suit[c % FACES_PER_DECK], t.phi[c % FACES_PER_DECK], c)


def sort_hand(cards: Sequence[int], trump: Trump) -> tuple[int, ...]:
    """A hand in display order: natural suits, then trumps, low to high."""
    return tuple(sorted(cards, key=_order_key(trump)))


_SPELLING = tuple(format_card(c) for c in range(4 * FACES_PER_DECK))  # up to 4 decks


def spell(cards: Sequence[int]) -> list[str]:
    """Card ids as their canonical spellings."""
    return [_SPELLING[c] for c in cards]


def display_trump(state: TractorState) -> Trump:
    """The trump to sort and compare by (no trump while the draw is on)."""
    return state.trump if state.trump is not None else Trump(state.rank, None)


def drawing(state: TractorState) -> bool:
    """Whether cards are still to be drawn before the kitty."""
    return state.phase is Phase.DRAW and state.stock_left > 0


def take(hand: Sequence[int], faces: Sequence[int]) -> tuple[int, ...] | None:
    """Card ids of ``hand`` printing ``faces`` (a face twice takes both copies)."""
    left = list(hand)
    out: list[int] = []
    for f in faces:
        c = next((c for c in left if c % FACES_PER_DECK == f), None)
        if c is None:
            return None
        left.remove(c)
        out.append(c)
    return tuple(out)


def parse_cards(action: Mapping[str, Any]) -> list[int]:
    """The faces an action's ``cards`` names, or IllegalAction."""
    raw = action.get("cards")
    # One spelling, as every other game's card lists: a string would be stored as
    # sent and read back character by character by the labels and replays.
    if not isinstance(raw, list | tuple) or not all(isinstance(x, str) for x in raw):
        raise IllegalAction("bad_action", 'expected "cards": a list of cards')
    try:
        return [parse_face(x) for x in raw]
    except CardParseError as exc:
        raise IllegalAction("bad_card", str(exc)) from None


def sample_rng(state: TractorState) -> Rng:
    """A stream for sampling representative actions, fixed by the position."""
    return Rng(state.seed).fork(state.round_no * 4096 + len(state.played)
                                + 128 * len(state.trick))


def reject_takeback(state: TractorState, seat: int, kind: Any) -> None:
    """Refuse ``takeback``/``confirm`` from anyone but the seat whose window is open,
    and anything else from that seat while it is."""
    if kind in ("takeback", "confirm"):
        if state.takeback is None or seat != state.takeback.seat:
            raise IllegalAction("nothing_to_take_back",
                                "only the last player may take back or confirm a play, "
                                "before the next player acts")
    elif state.takeback is not None and seat == state.takeback.seat:
        raise IllegalAction("bad_action", 'take your play back or keep it: '
                            '{"type": "takeback"} or {"type": "confirm"}')


def cards_in_hand(state: TractorState, seat: int, action: Mapping[str, Any],
                  expected: str) -> tuple[int, ...]:
    """The card ids of ``seat``'s hand an ``expected``-type action names, or IllegalAction."""
    if action.get("type") != expected:
        raise IllegalAction("bad_action", f'expected {{"type": "{expected}", "cards": [...]}}')
    cards = take(state.hands[seat], parse_cards(action))
    if cards is None:
        raise IllegalAction("not_in_hand", "you can only use cards from your hand")
    return cards


def in_hand_order(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """``cards`` in the order ``hand`` holds them (the canonical order of an action)."""
    chosen = set(cards)
    return tuple(c for c in hand if c in chosen)
