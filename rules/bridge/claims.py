"""Claims and concessions (Laws of Duplicate Bridge 2017, Laws 68 and 69).

The declarer or a defender (never the dummy: Law 68A and B speak of "declarer or a
defender") may claim ``n`` of the tricks still to be won for their side at any time
in the play, on turn or not, also in the middle of a trick; the rest are conceded
(Law 68B1).  The tricks a claim counts are every trick not yet complete, the one in
progress included: a claim made mid-trick settles that trick too.  A claim must
refer to tricks other than the one in progress (Law 68, preamble), so once the last
trick has begun there is nothing to claim.  The claimer faces their remaining cards
while the claim is answered (Law 68C), and play is suspended (Law 68D): no card is
accepted until the claim is settled.  The claim stands when the players it is put to
agree (Law 69A): the opponents, and, for a defender's claim that concedes tricks,
the claimer's partner, since a defender's concession lapses when partner objects
(Law 68B2).  An objection voids the claim and play resumes where it stopped, as Law
68D2(b) lets the players choose instead of the Director's ruling (Law 70), since no
Director sits at an online table.

A claim of ``n`` tricks cannot fail when, with all four hands known, the claimer's
side takes at least ``n`` of them against any play: what the double-dummy solver
answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import format_face
from engine.dds import make_deal, solve_position

if TYPE_CHECKING:
    from rules.bridge.state import BridgeState


def dd_tricks_for_declarer(state: BridgeState) -> int:
    """Tricks the declarer's side takes from here (the trick on the table included)
    with best play by both sides."""
    contract = state.contract
    assert contract is not None
    pos = solve_position(
        make_deal(state.dealt),
        contract.strain,
        "NESW"[(contract.declarer + 1) % 4],
        [format_face(c) for c in state.played],
    )
    remaining = 13 - pos.taken_ns - pos.taken_ew
    return pos.best if pos.to_move % 2 == contract.declarer % 2 else remaining - pos.best


def remaining_tricks(state: BridgeState) -> int:
    """Tricks still to be won, the one on the table included."""
    return len(state.hands[state.next_player])


def claim_view(state: BridgeState) -> dict[str, Any] | None:
    """A pending claim as every seat sees it, the claimer's cards faced."""
    claim = state.claim
    if claim is None:
        return None
    return {
        "seat": claim.seat,
        "tricks": claim.tricks,
        "remaining": remaining_tricks(state),
        "hand": [format_face(c) for c in state.hands[claim.seat]],
        "answer": sorted(claim.needed),
        "accepted": sorted(claim.accepted),
    }


def claim_allowed(state: BridgeState) -> bool:
    """Whether a claim may be made now: not once the last trick has begun, since a
    claim must concern a trick after the one in progress (Law 68, preamble)."""
    return remaining_tricks(state) > 1 or not state.trick


def claim_holds(state: BridgeState, seat: int, tricks: int) -> bool:
    """Whether ``seat``'s claim of ``tricks`` of the remaining tricks cannot fail."""
    assert state.contract is not None
    declarer_side = dd_tricks_for_declarer(state)
    if seat % 2 == state.contract.declarer % 2:
        return declarer_side >= tricks
    return remaining_tricks(state) - declarer_side >= tricks


def opponents(seat: int, declarer: int) -> frozenset[int]:
    """Who answers for the other side: both defenders against the declarer; the
    declarer (who speaks for the dummy) against a defender."""
    if seat % 2 == declarer % 2:
        return frozenset({(declarer + 1) % 4, (declarer + 3) % 4})
    return frozenset({declarer})


def answerers(seat: int, declarer: int, tricks: int, remaining: int) -> frozenset[int]:
    """Everyone whose agreement settles ``seat``'s claim: the opponents, and a
    defender's partner when the claim concedes any trick (Law 68B2)."""
    out = opponents(seat, declarer)
    if seat % 2 != declarer % 2 and tricks < remaining:
        out |= {(seat + 2) % 4}
    return out
