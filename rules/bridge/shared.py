"""The actions and events bridge hands out shared and frozen (engine/actions.py,
docs/decisions.md, the bullet on shared immutable actions), and the lookups its hot paths
read: legal() lists up to 38 calls or 13 cards and 14 claims at every step of a
random-legal board, and building a dict for each was a large share of the step."""

from __future__ import annotations

from engine.actions import FrozenAction
from engine.cards import format_face
from engine.events import Event
from rules.bridge.auction import DOUBLE, LADDER, PASS, REDOUBLE, STRAINS, Call

# Spellings of the 52 faces and their inverse: a played card's canonical text is a
# lookup, and a canonical spelling parses without the card parser.
SPELLING = tuple(format_face(f) for f in range(52))
FACE_OF = {text: f for f, text in enumerate(SPELLING)}
PLAYS = tuple(FrozenAction(type="play", card=text) for text in SPELLING)  # by face
CLAIMS = tuple(tuple(FrozenAction(type="claim", tricks=n) for n in range(k + 1))
               for k in range(14))  # CLAIMS[k]: every claim with k tricks left
NO_CLAIMS: tuple[tuple[FrozenAction, ...], ...] = ((),) * 14  # right after a rejected claim
CALLS = {text: FrozenAction(type="call", call=text)
         for text in ("P", "X", "XX", *(str(bid) for bid in LADDER))}
BIDS = tuple(CALLS[str(bid)] for bid in LADDER)  # by rank
# Every menu of calls, by (may double, may redouble, lowest bid's rank): a pass, the
# double or redouble, the bids from that rank up.
MENUS = {(double, redouble, first): (CALLS["P"], *((CALLS["X"],) if double else ()),
                                     *((CALLS["XX"],) if redouble else ()), *BIDS[first:])
         for double in (False, True) for redouble in (False, True) for first in range(36)}
ANSWERS = (FrozenAction(type="accept_claim"), FrozenAction(type="reject_claim"))
# The canonical spellings parsed: a call spelt so needs no parser.
PARSED: dict[str, Call] = {"P": PASS, "X": DOUBLE, "XX": REDOUBLE,
                           **{str(bid): bid for bid in LADDER}}
TRUMP = {strain: -1 if strain == "N" else i for i, strain in enumerate(STRAINS)}  # -1: NT
# The "play" event of each seat and card, and the "call" event of each seat and
# call without an alert, shared as the actions are: their data is frozen too, so
# no consumer of one board's events can change another's.
PLAYED = tuple(tuple(Event("play", FrozenAction(seat=seat, card=text)) for text in SPELLING)
               for seat in range(4))
CALLED = tuple({text: Event("call", FrozenAction(seat=seat, call=text)) for text in CALLS}
               for seat in range(4))
