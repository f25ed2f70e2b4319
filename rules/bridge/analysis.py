"""Double-dummy analysis of bridge boards: the table and par of a deal, and the
score of every legal card in a position of play.

Pure functions, but CPU-heavy (a full table can take tens of seconds): callers
that serve users run them off their event loop.
"""

from __future__ import annotations

from typing import Any

from engine.cards import format_face
from engine.dds import Solver, dd_table, make_deal, par, solve_position
from engine.dds.par import STRAIN_LETTER
from rules.bridge.boards import SEATS
from rules.bridge.state import BridgeState, Phase

JSON = dict[str, Any]


def board_analysis(
    deal: str, vulnerability: str, dealer: int, *, solver: Solver | None = None
) -> JSON:
    """The double-dummy table of ``deal`` (PBN) and its par for the board's
    ``vulnerability`` (``None``/``NS``/``EW``/``All``) and ``dealer`` (0..3):
    ``{"dd_table": {strain: {declarer: tricks}}, "par": {...}}``."""
    table = dd_table(deal, solver=solver)
    result = par(table, vulnerability, SEATS[dealer])
    contracts = [
        {
            "contract": f"{c.level}{STRAIN_LETTER[c.strain]}" + ("X" if c.doubled else ""),
            "declarers": "".join(SEATS[int(s)] for s in c.declarers),
            "doubled": c.doubled,
            "tricks": c.tricks,
        }
        for c in result.contracts
    ]
    return {
        "dd_table": table,
        "par": {"score_ns": result.score, "contracts": contracts, "text": str(result)},
    }


def card_scores(state: BridgeState, *, solver: Solver | None = None) -> dict[str, int]:
    """Every legal card of the player to move (the dummy's when it is the dummy's
    turn) -> the tricks that player's side takes from here with best play by
    both sides, the trick on the table included. Empty outside the play phase."""
    if state.phase is not Phase.PLAY or state.contract is None:
        return {}
    return dict(_position(state, solver).scores)


def play_analysis(state: BridgeState, card: str, *, solver: Solver | None = None) -> JSON | None:
    """How ``card`` (canonical spelling) compares with the other legal cards of the
    player to move in ``state``: the scores, the best, what ``card`` cost."""
    if state.phase is not Phase.PLAY or state.contract is None:
        return None
    pos = _position(state, solver)
    if card not in pos.scores:
        return None
    side = int(pos.to_move) % 2
    return {
        "seat": int(pos.to_move),
        "scores": dict(pos.scores),
        "best": pos.best,
        "played": card,
        "cost": pos.best - pos.scores[card],
        # Tricks the side to move already won this board: best + taken is its total.
        "taken": pos.taken_ns if side == 0 else pos.taken_ew,
    }


def _position(state: BridgeState, solver: Solver | None) -> Any:
    contract = state.contract
    assert contract is not None
    return solve_position(
        make_deal(state.dealt),
        contract.strain,
        SEATS[(contract.declarer + 1) % 4],
        [format_face(c) for c in state.played],
        solver=solver,
    )
