"""Rummy's words (rules/rummy/presentation.py): the shared presentation check on random
deals, knock labels with the deadwood kept, hands grouped by their best melds."""

from __future__ import annotations

import pytest

from engine.events import OMNISCIENT
from rules.rummy.game import RummyGame
from tests.presentation import check_presentation

GAME = RummyGame()
NAMES = ["Seat 1", "Seat 2"]
P = GAME.presentation


@pytest.mark.parametrize(
    "options",
    [{"variant": "gin", "target": 0}, {"pool": 0, "players": 3}, {"pool": 0, "players": 2}],
)
def test_every_label_line_and_hint_of_random_games(options: dict[str, object]) -> None:
    for seed in (1, 2):
        seen = check_presentation(GAME, GAME.parse_config(options), seed)
        assert seen.narrated == seen.kinds


def test_knocks_name_the_deadwood_they_keep() -> None:
    view = {
        "variant": "gin",
        "hand": ["7S", "8S", "9S", "KC", "KD", "KH", "4C", "2D", "AH", "QS", "3H"],
        "pile": ["JC"],
    }
    melds = [["7S", "8S", "9S"], ["KC", "KD", "KH"]]
    legal = [
        {"type": "knock", "card": "QS", "groups": melds},
        {"type": "draw", "from": "discard"},
        {"type": "discard", "card": "4C"},
    ]
    assert P.labels(view, legal) == [
        "Knock with Q♠ (deadwood 10)",
        "Take J♣ from the discard pile",
        "Discard 4♣",
    ]


def test_hands_are_grouped_runs_first_jokers_last() -> None:
    arrangement = {
        "melds": [
            {"kind": "set", "cards": ["7C", "7D", "3S"], "jokers": 1, "wild": ["3S"]},
            {"kind": "run", "cards": ["AS", "QS", "KS"], "jokers": 0, "wild": []},
        ],
        "leftover": ["2D", "JC", "4S"],
        "deadwood": 16,
        "counted": 16,
        "valid": False,
    }
    hints = P.hints({"variant": "indian", "wild_rank": 1, "hand": [], "arrangement": arrangement})
    assert [(g["label"], g["cards"]) for g in hints["hand"]] == [
        ("pure run", ["QS", "KS", "AS"]),
        ("set", ["7C", "7D", "3S"]),
        ("deadwood · 16", ["4S", "JC", "2D"]),
    ]
    assert hints["summary"] == "2 melds (1 run, 1 pure) · would be charged 16"


def test_a_stock_draw_is_told_once() -> None:
    # The drawer's event names the card; everyone's copy does not.
    events = [
        {"kind": "draw", "seat": 0, "from": "stock", "card": "5H"},
        {"kind": "draw", "seat": 0, "from": "stock"},
    ]
    assert P.narration({}, events, OMNISCIENT, NAMES) == ["Seat 1 draws 5♥ from the stock", None]
    assert P.narration({}, events[1:], 1, NAMES) == ["Seat 1 draws from the stock"]
    assert P.narration({}, events, 0, NAMES) == ["You draw 5♥ from the stock", None]


def test_a_deal_without_a_winner_names_how_it_ended_once() -> None:
    from rules.rummy.presentation import deal_result_text

    names = ["North", "East"]
    void = {"how": "void", "winner": None, "points": [0, 0]}
    wrong = {"how": "wrong_declaration", "winner": None, "points": [80, 0]}
    won = {"how": "declaration", "winner": 1, "points": [45, 0]}
    said = [deal_result_text(r, names, False) for r in (void, wrong, won)]
    assert [s.count("(") for s in said] == [0, 0, 1], said
    assert said[1].endswith("; charged North 80") and "wins (" in said[2]


def test_a_pools_result_names_each_seats_points() -> None:
    """The stored summary keeps the rules' list; the table says it in words."""
    stored = {"summary": "Seat 2 wins the pool; points [144, 20]"}
    assert P.summary(stored, ["Ann", "Bob"]) == "Seat 2 wins the pool; points: Ann 144, Bob 20"
    line = P.narrate({}, {"kind": "game_over", **stored}, 0, ["Ann", "Bob"])
    assert line == "Game over: Seat 2 wins the pool; points: Ann 144, Bob 20"
