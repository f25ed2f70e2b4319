"""The bots' bidding: the natural system (documented in docs/bridge_bidding.md).

The mechanism (how a rule matches an auction and a hand and yields a call, and
how an auction is read back) is ``rulebook.py``; the system's table of rules
is ``natural.py``.  These functions bid and read by that table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.bridge.auction import PASS, Call, CallError, check_call
from rules.bridge.system.hand import HandInfo
from rules.bridge.system.natural import RULES
from rules.bridge.system.rulebook import Calls, Ctx, Known, Rule, choose, read

__all__ = ["RULES", "Ctx", "Rule", "choose_call", "explain", "infer"]


def infer(calls: Calls) -> Known:
    """The constraints each seat's calls have shown, reading the auction by the system."""
    return read(calls, RULES)


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
