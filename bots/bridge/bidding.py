"""The bots' bidding: the natural system (documented in docs/bridge_bidding.md).

The mechanism (how a rule matches an auction and a hand and yields a call, and
how an auction is read back) is ``rulebook.py``; the system's table of rules
is ``natural.py``.  These functions bid and read by that table.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.bridge.auction import PASS, Call, CallError, check_call
from rules.bridge.system.hand import HandInfo
from rules.bridge.system.natural import RULES
from rules.bridge.system.rulebook import (
    Calls,
    Choices,
    Ctx,
    Known,
    Rule,
    choices,
    choose,
    read,
)

__all__ = [
    "RULES", "Ctx", "Rule", "SeatCalls", "bids_as_made", "calls_by_seat", "choose_call",
    "explain", "infer",
]

# One seat's calls, each with what the system would have called there by hand.
SeatCalls = tuple[tuple[Choices, Call], ...]


def infer(calls: Calls) -> Known:
    """The constraints each seat's calls have shown, reading the auction by the system."""
    return read(calls, RULES)


def calls_by_seat(calls: Calls) -> tuple[SeatCalls, SeatCalls, SeatCalls, SeatCalls]:
    """Each seat's calls with the system's choices where it made them: a hand the
    system would have bid differently with did not make this auction."""
    return _calls_by_seat(tuple(calls))


@lru_cache(maxsize=64)  # the auction is fixed for the whole play of a board
def _calls_by_seat(
    calls: tuple[tuple[int, Call], ...],
) -> tuple[SeatCalls, SeatCalls, SeatCalls, SeatCalls]:
    out: list[list[tuple[Choices, Call]]] = [[], [], [], []]
    for i, (seat, call) in enumerate(calls):
        out[seat].append((choices(calls[:i], seat, RULES), call))
    return (tuple(out[0]), tuple(out[1]), tuple(out[2]), tuple(out[3]))


def bids_as_made(seat_calls: SeatCalls, hand: HandInfo) -> bool:
    """Whether the system, holding ``hand``, makes every one of ``seat_calls``."""
    return all(ch.pick(hand)[1] == call for ch, call in seat_calls)


def explain(calls: Calls, seat: int, hand: HandInfo) -> tuple[Rule, Call]:
    """The rule the system uses for ``seat`` now, and its call."""
    return choose(calls, seat, hand, RULES)


def choose_call(calls: Calls, seat: int, cards: Sequence[int]) -> Call:
    """The system's call for ``seat`` holding ``cards`` after ``calls``; always legal."""
    _, call = explain(calls, seat, HandInfo.of(cards))
    try:
        check_call(list(calls), seat, call)
    except CallError:
        return PASS
    return call
