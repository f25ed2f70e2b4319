"""Poker bots: always legal, sensible equity, and the strength order of the report."""

from __future__ import annotations

import pytest

from bots.arena import derive_seeds, play_game, run
from bots.base import bot_names, make_bot
from bots.poker.equity import estimate_equity
from bots.poker.rule import AIR, DRAW, MEDIUM, MONSTER, STRONG, bucket, chen
from bots.poker.situation import Situation
from engine.cards import parse_face
from rules.poker.game import PokerGame

GAME = PokerGame()


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in text.split())


def test_registry_lists_the_equity_bot_first():
    assert bot_names("poker") == ["equity", "rule", "random"]


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_bots_answer_legally_over_whole_sessions(seats: int):
    """Every answer is accepted by the rules, between hands (rebuys) included."""
    config = GAME.parse_config({"seats": seats, "hands": 6, "starting_stack": 40})
    names = ["equity", "rule", "random"]
    bots = [make_bot("poker", names[i % 3]) for i in range(seats)]
    for seed in range(3):
        _, actions, illegal = play_game(GAME, config, seed, bots, budget=0.5)
        assert illegal == 0 and actions > 0


def _spot(hole: str, board: str = "", opponents: int = 1, history: tuple = ()) -> Situation:
    return Situation(
        seat=0,
        hole=cards(hole),
        board=cards(board),
        street="river" if board else "preflop",
        pot=10,
        to_call=0,
        min_to=2,
        max_to=100,
        current=0,
        my_bet=0,
        stack=100,
        big_blind=2,
        button=1,
        opponents=tuple(range(1, opponents + 1)),
        history=history,
        legal=(),
    )


def test_monte_carlo_equity_is_close_to_the_exact_figures():
    # AA against any two cards: 85.2%; the nut flush on the river against a range
    # wins every time; 72o against two random hands is well below a third.
    assert estimate_equity(_spot("AS AH"), 4000, 1) == pytest.approx(0.852, abs=0.03)
    assert estimate_equity(_spot("AS KS", "QS JS 2S 3D 4C"), 2000, 2) > 0.99
    assert estimate_equity(_spot("7D 2C", opponents=2), 3000, 3) < 0.25


def test_rule_bot_buckets_and_chen_scores():
    assert chen(cards("AS AH")) == 20 and chen(cards("7D 2C")) < 0
    assert bucket(cards("9S 9H"), cards("9C 4D 2S")) == MONSTER
    assert bucket(cards("AS KD"), cards("KC 7D 2S")) == STRONG
    assert bucket(cards("7S 7H"), cards("KC QD 2S")) == MEDIUM
    assert bucket(cards("AS 5S"), cards("KS 7S 2D")) == DRAW
    assert bucket(cards("AC 5D"), cards("KS 7S 2D")) == AIR


def test_bot_strength_order_on_a_small_duplicate_sample():
    """The full report is bench/poker_bots.py (20,000 hands a pairing); here a small
    fixed sample must already order random < rule < equity."""
    config = GAME.parse_config({"seats": 2, "hands": 1})
    seeds = derive_seeds(7, 150)
    for strong, weak in (("rule", "random"), ("equity", "rule")):
        lineup = [(strong, make_bot("poker", strong)), (weak, make_bot("poker", weak))]
        result = run(GAME, config, lineup, seeds, progress=False)
        assert result.standing(strong).mean > 0
