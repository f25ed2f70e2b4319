"""Bridge's analysis hook for servers (``BridgeGame.analysis``): the double-dummy
table and par of each board that ends, and every played card's double-dummy
score in a replay.  The searches are rules/bridge/analysis.py's."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.dds import Solver
from engine.events import JSON, Event
from engine.game import Action, EndedBoard, GameAnalysis
from rules.bridge.analysis import board_analysis, play_analysis
from rules.bridge.state import BridgeState


class BridgeAnalysis(GameAnalysis[BridgeState]):
    def ended_boards(self, events: Sequence[Event], version: int | None) -> list[EndedBoard]:
        return [
            _ended(
                int(e.data["board"]),
                version,
                str(e.data["deal"]),
                int(e.data["dealer"]),
                str(e.data["vulnerability"]),
            )
            for e in events
            if e.kind == "board_end" and e.data.get("deal")
        ]

    def last_ended_board(self, state: BridgeState) -> EndedBoard | None:
        if not state.results:
            return None
        r = state.results[-1]
        return _ended(r.board, None, r.deal, r.dealer, r.vulnerability.value)

    def board(self, ended: EndedBoard) -> JSON:
        facts = ended.facts
        return {
            "board": ended.board,
            "version": ended.version,
            **facts,
            **board_analysis(facts["deal"], facts["vulnerability"], facts["dealer"]),
        }

    def action_analyser(self) -> Callable[[BridgeState, Action], JSON | None]:
        # One solver for the whole replay: positions of one deal share its table.
        solver = Solver()

        def analyse(before: BridgeState, action: Action) -> JSON | None:
            if action.get("type") != "play":
                return None
            return play_analysis(before, str(action["card"]), solver=solver)

        return analyse


def _ended(board: int, version: int | None, deal: str, dealer: int, vul: str) -> EndedBoard:
    return EndedBoard(board, version, {"deal": deal, "dealer": dealer, "vulnerability": vul})
