"""Double-dummy analysis of bridge boards: the table and par of a deal (also as the
text `cardtable solve` prints), and the score of every legal card in a position
of play.

Pure functions, but CPU-heavy (a full table can take tens of seconds): callers
that serve users run them off their event loop.
"""

from __future__ import annotations

from typing import Any

from engine.cards import format_face, parse_face
from engine.dds import DDTable, Deal, Solver, dd_table, make_deal, parse_pbn, solve_position
from engine.presentation import card_text, plural
from rules.bridge.boards import SEATS, Vulnerability
from rules.bridge.par import Par, par
from rules.bridge.state import BridgeState, Phase

JSON = dict[str, Any]
ROW_ORDER = ("N", "S", "H", "D", "C")
ROW_LABEL = {"N": "NT", "S": "S", "H": "H", "D": "D", "C": "C"}


def board_analysis(
    deal: str, vulnerability: str, dealer: int, *, solver: Solver | None = None
) -> JSON:
    """The double-dummy table of ``deal`` (PBN) and its par for the board's
    ``vulnerability`` (``None``/``NS``/``EW``/``All``) and ``dealer`` (0..3):
    ``{"dd_table": {strain: {declarer: tricks}}, "par": {...}}``."""
    table = dd_table(deal, solver=solver)
    return {"dd_table": table, "par": par_json(par(table, vulnerability, dealer))}


def par_json(result: Par) -> JSON:
    """The protocol's ``par`` object (docs/protocol.md)."""
    contracts = [
        {
            "contract": c.call,
            "declarers": "".join(SEATS[s] for s in c.declarers),
            "doubled": c.doubled,
            "tricks": c.tricks,
        }
        for c in result.contracts
    ]
    return {"score_ns": result.score, "contracts": contracts, "text": str(result)}


def format_table(table: DDTable) -> str:
    """Tricks by strain (rows NT S H D C) and declarer (columns N E S W)."""
    lines = ["      N   E   S   W"]
    for st in ROW_ORDER:
        row = table[st]
        lines.append(f"{ROW_LABEL[st]:<3}" + "".join(f"{row[d]:>4}" for d in "NESW"))
    return "\n".join(lines)


def report(deal: str | Deal, vulnerability: str | Vulnerability = Vulnerability.NONE,
           dealer: str | int = 0, *, solver: Solver | None = None) -> str:
    """The deal, its double-dummy table and par, as ``cardtable solve`` prints them."""
    d = deal if isinstance(deal, Deal) else parse_pbn(deal)
    table = dd_table(d, solver=solver)
    return f"{d.to_pbn()}\n{format_table(table)}\n{par(table, vulnerability, dealer)}"


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
    cost = pos.best - pos.scores[card]
    return {
        "seat": int(pos.to_move),
        "scores": dict(pos.scores),
        "best": pos.best,
        "played": card,
        "cost": cost,
        # Tricks the side to move already won this board: best + taken is its total.
        "taken": pos.taken_ns if side == 0 else pos.taken_ew,
        "verdict": _verdict(card, cost, pos.best, pos.scores),
    }


def _verdict(card: str, cost: int, best: int, scores: dict[str, int]) -> str:
    """The analysis in one line, as both clients print it."""
    if not cost:
        return f"{card_text(card)} was a best play ({plural(best, 'trick')})"
    best_cards = " ".join(
        card_text(c) for c in sorted(scores, key=lambda c: -parse_face(c)) if scores[c] == best
    )
    return (
        f"{card_text(card)} cost {plural(cost, 'trick')}: {best - cost} instead of {best} "
        f"(best: {best_cards})"
    )


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
