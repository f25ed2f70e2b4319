"""Bridge's act(): the commonest steps acted directly, a legal card (a trick won
included) and a canonical call that does not end the auction.

Random-legal self-play and bot searches repeat these at every action, so they
copy the state's fields with one dict union instead of ``evolve``'s keyword
packing and build no ``Move``.  They answer exactly what validate then apply
would (the self-play pins check the whole streams); anything else (the opening
lead and its dummy, the board's last card, an alert, an illegal action) takes
the general path.  ``BridgeGame.act`` is :func:`act` itself: a method that only
called it would add a Python call to every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.events import PUBLIC, Event
from engine.game import Action
from engine.values import build, evolve
from rules.bridge import play
from rules.bridge.auction import DOUBLE, PASS, Bid, Call, call_options
from rules.bridge.shared import CALLED, FACE_OF, PARSED, PLAYED, TRUMP
from rules.bridge.state import BridgeState, Hands, Phase

Stepped = tuple[BridgeState, list[Event]]


class Rules(Protocol):
    """What act() needs of BridgeGame (named here: importing it would be a circle)."""

    def _validate_then_apply(self, state: BridgeState, seat: int,
                             action: Action) -> Stepped: ...

    def _played(self, state: BridgeState, f: int,
                stepped: tuple[Hands, tuple[int, ...], tuple[int, ...], int]) -> Stepped: ...

    def _call(self, state: BridgeState, seat: int, call: str, parsed_call: Call,
              alert: str | None = None) -> Stepped: ...

    def _calls(self, state: BridgeState) -> Sequence[tuple[int, Call]]: ...


_new, _set = object.__new__, object.__setattr__
_play = play.play
# The phases read once: an enum member read through its class is a descriptor call.
_PLAYING, _BIDDING = Phase.PLAY, Phase.AUCTION


def act(game: Rules, state: BridgeState, seat: int, action: Action) -> Stepped:
    """``BridgeGame.act``: validate, then apply; a legal card or a call that does
    not end the auction directly, anything else as ``Game.act`` does."""
    kind = action.get("type")
    if kind == "play" and state.phase is _PLAYING:
        # The card step inline: a function call more is a few percent of a card.
        leader = state.leader
        player = (leader + len(state.trick)) % 4
        contract = state.contract
        assert contract is not None
        declarer = contract.declarer
        text = action.get("card")
        f = FACE_OF.get(text) if type(text) is str else None
        if f is not None and seat == (declarer if player == (declarer + 2) % 4 else player):
            # Checked and played in one call: None if the card may not be played.
            stepped = _play(state.hands, player, state.trick, state.played, f,
                            TRUMP[contract.strain], True)
            if stepped is not None:
                hands, trick, played, won = stepped
                if won < 0 and len(played) > 1:  # most cards: no trick won, no dummy
                    # evolve() inline (its keyword packing and name check cost a few
                    # percent of a board): the old state's dict with these fields set.
                    after = _new(BridgeState)
                    _set(after, "__dict__", state.__dict__ | {
                        "hands": hands, "trick": trick, "played": played})
                    return after, [PLAYED[player][f]]
                if won < 0 or len(played) == 52:  # the opening lead, the last card
                    return game._played(state, f, stepped)
                return _won(state, player, f, stepped)
    elif kind == "call" and state.phase is _BIDDING:
        auction = state.auction  # game._calls inline: carried, or parsed if stale
        made = call(state, seat, action,
                    auction if len(auction) == len(state.calls) else game._calls(state))
        if isinstance(made, tuple):
            return made
        if made is not None:  # a pass that may end the auction
            return game._call(state, seat, action["call"], made)
    return game._validate_then_apply(state, seat, action)


def _won(state: BridgeState, player: int, f: int,
         stepped: tuple[Hands, tuple[int, ...], tuple[int, ...], int]) -> Stepped:
    """After card ``f`` of ``player`` won a trick that is not the board's last:
    what ``BridgeGame._played`` gives, built directly."""
    hands, trick, played, won = stepped
    leader = state.leader
    winner = (leader + won) % 4
    ns, ew = state.tricks
    if winner % 2:
        ew += 1
    else:
        ns += 1
    # One card in four: the general copy and constructor are cheap enough here.
    won_event = build(Event, kind="trick", data={"winner": winner, "tricks": [ns, ew]},
                      visibility=PUBLIC)
    after = evolve(state, hands=hands, trick=(), played=played, leader=winner,
                   tricks=(ns, ew), last_trick=trick, last_leader=leader)
    return after, [PLAYED[player][f], won_event]


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
        # (Passes are strings: the type first keeps Bid's dataclass __eq__ out.)
        if len(auction) >= 3 and type(last := auction[-1][1]) is str and last == PASS and \
                type(before := auction[-2][1]) is str and before == PASS:
            return parsed
    else:
        double, redouble, first = call_options(auction, seat)
        if isinstance(parsed, Bid):
            if parsed.rank < first:
                return None
        elif not (double if parsed == DOUBLE else redouble):
            return None
    after = _new(BridgeState)
    _set(after, "__dict__", state.__dict__ | {
        "calls": (*calls, (seat, text)), "auction": (*auction, (seat, parsed))})
    return after, [CALLED[seat][text]]
