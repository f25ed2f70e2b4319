"""Claims: a claim of ``n`` of the remaining tricks cannot fail when, with all four
hands known, the declarer's side takes at least ``n`` of them against any defence —
exactly what the double-dummy solver answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def claim_holds(state: BridgeState, tricks: int) -> bool:
    """Whether a declarer's claim of ``tricks`` of the remaining tricks cannot fail."""
    return dd_tricks_for_declarer(state) >= tricks
