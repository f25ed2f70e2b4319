"""Bidding in the kitty exchange window (option ``kitty_theft``) and who leads the
first trick (option ``first_leader``).

rbtying/shengji's kitty theft: once the seat holding the kitty has buried, every
seat may override the standing declaration as during the draw (``declare`` or
``pass``; each is asked again only when a new declaration becomes possible).
When nobody can or will declare any more, the seat whose declaration then stands
-- if one was made in this window -- takes the buried kitty into its hand, its
declaration fixes the new trump (the current rank stays the landlord's), and it
buries in turn; then the window opens again.  The landlord stays the landlord.
With no new declaration the round goes on (friend calls, then the first trick).
There is no window when no declaration fixed trump (the kitty was turned up, or
the NT level).
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import SMALL_JOKER
from engine.events import Event, only
from rules.tractor.declarations import undeclined
from rules.tractor.options import FirstLeader
from rules.tractor.order import NT_LEVEL, Trump, rank_name, suit_name
from rules.tractor.phases.base import Step
from rules.tractor.phases.common import sort_hand, spell
from rules.tractor.phases.draw import Draw
from rules.tractor.sides import sides_for
from rules.tractor.state import Phase, TractorState


def first_leader(state: TractorState) -> int:
    """The seat that leads the round's first trick (option ``first_leader``)."""
    assert state.landlord is not None
    policy = state.config.first_leader
    if policy is FirstLeader.EXCHANGER:
        holder = state.kitty_holder
        assert holder is not None
        return holder
    if policy is FirstLeader.TRUMP_DECLARER and state.current is not None:
        return state.current.seat
    return state.landlord


def after_burial(state: TractorState, events: list[Event]) -> Step:
    """The kitty just buried: open the overbid window if the table allows
    stealing it, else go on to the friend calls or the first trick."""
    if (state.config.kitty_theft and state.declarations and not state.kitty_revealed
            and state.rank != NT_LEVEL):
        opened = replace(state, phase=Phase.OVERBID, overbid_mark=len(state.declarations),
                         declined=(frozenset(),) * state.seats)
        return settle(opened, events)
    return _go_on(state, events)


def _go_on(state: TractorState, events: list[Event]) -> Step:
    after = replace(state, phase=sides_for(state.config).after_burial, overbid_mark=None)
    return replace(after, leader=first_leader(after)), events


def settle(state: TractorState, events: list[Event]) -> Step:
    """Close the window once no seat can still declare: a declaration made in it
    takes the kitty; none lets the round go on."""
    if any(undeclined(state, s) for s in range(state.seats)):
        return state, events
    assert state.overbid_mark is not None
    if len(state.declarations) > state.overbid_mark:
        return _take_kitty(state, events)
    return _go_on(state, events)


def _take_kitty(state: TractorState, events: list[Event]) -> Step:
    """The standing declarer picks up the buried kitty under its trump and buries."""
    cur = state.current
    assert cur is not None and state.trump is not None
    seat = cur.seat
    suit = None if cur.face >= SMALL_JOKER else cur.face // 13
    trump = Trump(state.trump.rank, suit)
    kitty = state.kitty
    hands = list(state.hands)
    hands[seat] = (*hands[seat], *kitty)
    events = [
        *events,
        Event("kitty_taken", {"seat": seat, "from": state.kitty_holder, "suit": suit_name(suit)}),
        Event("trump", {"landlord": state.landlord, "rank": rank_name(trump.rank),
                        "suit": suit_name(suit)}),
        Event("kitty", {"seat": seat, "cards": spell(kitty)}, only(seat)),
    ]
    after = replace(state, hands=tuple(sort_hand(h, trump) for h in hands), trump=trump,
                    kitty=(), exchanger=seat, phase=Phase.BURY, overbid_mark=None,
                    declined=(frozenset(),) * state.seats)
    return after, events


class Overbid(Draw):
    """``OVERBID``: declare or pass, as in the draw's last word (nothing to draw)."""

    def settle(self, state: TractorState, events: list[Event]) -> Step:
        return settle(state, events)
