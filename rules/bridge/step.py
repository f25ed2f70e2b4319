"""Bridge's commonest steps acted directly: a legal card (a trick won included)
and a canonical call that does not end the auction.

Random-legal self-play and bot searches repeat these at every action, so they
copy the state's fields with one dict union instead of ``evolve``'s keyword
packing and build no ``Move``.  They answer exactly what validate then apply
would (the self-play pins check the whole streams); anything else (the opening
lead and its dummy, the board's last card, an alert, an illegal action) gets
None here and takes the general path in ``BridgeGame.act``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import PUBLIC, Event
from engine.game import Action
from rules.bridge import play
from rules.bridge.auction import DOUBLE, PASS, Bid, Call, call_options
from rules.bridge.shared import CALLED, FACE_OF, PARSED, PLAYED, TRUMP
from rules.bridge.state import BridgeState

Stepped = tuple[BridgeState, list[Event]]

_new, _set = object.__new__, object.__setattr__
_play = play.play


def _copy(cls: type[BridgeState], fields: dict[str, object]) -> BridgeState:
    """A state from ``fields`` (a union of a state's dict and known field names),
    past the frozen ``__setattr__``: ``evolve`` without its name check."""
    after = _new(cls)
    _set(after, "__dict__", fields)
    return after


def card(state: BridgeState, seat: int, action: Action) -> Stepped | int | None:
    """The state and events after ``action``, a legal card of the seat on turn in
    the play, when it is neither the opening lead nor the board's last card;
    for those the card's face (the caller plays it on the general path); None
    when ``action`` is not a legal, canonically spelt card of ``seat``."""
    trick = state.trick
    leader = state.leader
    player = (leader + len(trick)) % 4
    contract = state.contract
    assert contract is not None
    declarer = contract.declarer
    text = action.get("card")
    if seat != (declarer if player == (declarer + 2) % 4 else player) or type(text) is not str:
        return None
    f = FACE_OF.get(text)
    if f is None:
        return None
    # Checked and played in one call: None if the card may not be played.
    stepped = _play(state.hands, player, trick, state.played, f, TRUMP[contract.strain], True)
    if stepped is None:
        return None
    hands, trick, played, won = stepped
    if won < 0:
        if len(played) == 1:
            return f  # the opening lead: the dummy is faced
        return _copy(type(state), state.__dict__ | {
            "hands": hands, "trick": trick, "played": played}), [PLAYED[player][f]]
    if len(played) == 52:
        return f  # the board ends
    winner = (leader + won) % 4
    ns, ew = state.tricks
    if winner % 2:
        ew += 1
    else:
        ns += 1
    won_event = _new(Event)
    _set(won_event, "__dict__", {"kind": "trick", "data": {"winner": winner, "tricks": [ns, ew]},
                                 "visibility": PUBLIC})
    return _copy(type(state), state.__dict__ | {
        "hands": hands, "trick": (), "played": played, "leader": winner, "tricks": (ns, ew),
        "last_trick": trick, "last_leader": leader}), [PLAYED[player][f], won_event]


def _passed(call: Call) -> bool:
    # Passes are strings: the type first keeps Bid's dataclass __eq__ out.
    return type(call) is str and call == PASS


def call(state: BridgeState, seat: int, action: Action,
         auction: Sequence[tuple[int, Call]]) -> Stepped | Call | None:
    """The state and events after ``action``, a canonically spelt call without an
    alert, legal for the seat on turn, when it does not end the auction; a pass
    that may end it is handed back parsed (the caller ends the auction on the
    general path); None when ``action`` is not such a call.  ``auction``: the
    state's calls parsed (``BridgeGame._calls``)."""
    text = action.get("call")
    if type(text) is not str:
        return None
    parsed = PARSED.get(text)
    calls = state.calls
    if parsed is None or seat != (state.dealer + len(calls)) % 4 or "alert" in action:
        return None
    if type(parsed) is str and parsed == PASS:
        # Only a pass can end the auction, and only a third pass in a row: such a
        # pass goes the general path, where is_over decides.
        if len(auction) >= 3 and _passed(auction[-1][1]) and _passed(auction[-2][1]):
            return parsed
    else:
        double, redouble, first = call_options(auction, seat)
        if isinstance(parsed, Bid):
            if parsed.rank < first:
                return None
        elif not (double if parsed == DOUBLE else redouble):
            return None
    return _copy(type(state), state.__dict__ | {
        "calls": (*calls, (seat, text)), "auction": (*auction, (seat, parsed))}), \
        [CALLED[seat][text]]
