"""The pure double-dummy analysis of boards and positions (rules/bridge/analysis.py)."""

from __future__ import annotations

from engine.dds import dd_table, solve_position
from rules.bridge import BridgeGame, BridgeState
from rules.bridge.analysis import board_analysis, card_scores, play_analysis, report
from rules.bridge.par import par

# Long solid suits: cheap to solve.
DEAL = "N:AKQJT98.AK.AKQ.2 765.QJT98.JT9.43 432.765.8765.765 .432.432.AKQJT98"
# Every suit split so that North's top cards all win (13 tricks for N-S in NT).
GRAND = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def _after_auction() -> tuple[BridgeGame, BridgeState]:
    """3NT by South (East deals)."""
    game = BridgeGame()
    state = game.new(game.parse_config({"deal": DEAL, "dealer": "E", "vulnerable": "EW"}), 3)
    for seat, call in ((1, "P"), (2, "3NT"), (3, "P"), (0, "P"), (1, "P")):
        state, _ = game.act(state, seat, {"type": "call", "call": call})
    return game, state


def test_board_analysis_is_the_solver_table_and_its_par() -> None:
    got = board_analysis(DEAL, "EW", 1)
    table = dd_table(DEAL)
    expected = par(table, "EW", "E")
    assert got["dd_table"] == table
    assert got["par"]["score_ns"] == expected.score
    assert got["par"]["text"] == str(expected)
    assert got["par"]["contracts"] == [
        {"contract": c.call, "declarers": "".join("NESW"[s] for s in c.declarers),
         "doubled": c.doubled, "tricks": c.tricks}
        for c in expected.contracts
    ]


def test_report_is_the_deal_its_table_and_par() -> None:
    """North-South make 7NT: par is the grand slam, vulnerable 2220."""
    lines = report(GRAND, "NS", "E").splitlines()
    assert lines[0] == GRAND
    assert lines[1].split() == list("NESW") and lines[2].split() == ["NT", "13", "0", "13", "0"]
    assert lines[-1] == "Par +2220: 7NT NS ="


def test_card_scores_follow_the_position_through_the_play() -> None:
    game, state = _after_auction()
    assert state.contract is not None and state.contract.declarer == 2
    played: list[str] = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        legal = [a for a in game.legal(state, seat) if a["type"] == "play"]
        scores = card_scores(state)
        # South declares notrump: West leads, in play order from there.
        assert scores == solve_position(DEAL, "N", "W", played).scores
        assert sorted(scores) == sorted(a["card"] for a in legal)
        card = legal[len(played) % len(legal)]["card"]
        info = play_analysis(state, card)
        assert info is not None and info["played"] == card
        assert info["cost"] == info["best"] - scores[card] >= 0
        played.append(card)
        state, _ = game.act(state, seat, {"type": "play", "card": card})
    assert card_scores(state) == {}


def test_no_card_scores_in_the_auction_and_board_end_names_dealer_and_vulnerability() -> None:
    game = BridgeGame()
    state = game.new(game.parse_config({"deal": DEAL, "dealer": "E", "vulnerable": "EW"}), 3)
    assert card_scores(state) == {} and play_analysis(state, "AS") is None
    events = []
    for seat in (1, 2, 3, 0):
        state, ev = game.act(state, seat, {"type": "call", "call": "P"})
        events += ev
    end = next(e for e in events if e.kind == "board_end")
    assert (end.data["deal"], end.data["dealer"], end.data["vulnerability"]) == (DEAL, 1, "EW")
