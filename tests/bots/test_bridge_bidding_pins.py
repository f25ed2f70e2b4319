"""The natural system bids as pinned: over a fixed seed's deals, the calls it
makes, the rules it names and the constraints it reads from each auction hash
to the value computed on the code it was pinned on.  Some seats call at random
now and then, so competitive sequences are read too.  A change here changes
what the bots bid: fix the code, or re-pin deliberately with the system's docs."""

from __future__ import annotations

import hashlib

from bots.bridge.bidding import choose_call, explain, infer
from engine.cards import deck
from engine.replay import canonical_json
from engine.rng import Rng
from rules.bridge.auction import Call, format_call, is_over, legal_calls
from rules.bridge.system.hand import HandInfo

DEALS = 120
PINNED = "220eba45b029567b6f5858c59035a7ab9ddccbe27ad3773d26f85b7f4df78a85"


def _digest() -> str:
    rng = Rng(20260417)
    digest = hashlib.sha256()
    for board in range(DEALS):
        cards = rng.shuffled(deck())
        hands = [cards[13 * s : 13 * (s + 1)] for s in range(4)]
        calls: list[tuple[int, Call]] = []
        seat = board % 4
        while not is_over(calls) and len(calls) < 40:
            if rng.below(6) == 0:
                # A random low call: the system must read whatever the table does.
                options = legal_calls(calls, seat)[:8]
                call = rng.choice(options)
                name = "random"
            else:
                rule, _ = explain(calls, seat, HandInfo.of(hands[seat]))
                call, name = choose_call(calls, seat, hands[seat]), rule.name
            calls.append((seat, call))
            digest.update(canonical_json([seat, format_call(call), name]).encode())
            seat = (seat + 1) % 4
        digest.update(repr(infer(calls)).encode())
    return digest.hexdigest()


def test_system_bids_as_pinned() -> None:
    assert _digest() == PINNED
