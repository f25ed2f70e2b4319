"""Hold'em's words (rules/poker/presentation.py): the shared presentation check on random
games, menu labels, event lines and the viewer's hand strength."""

from __future__ import annotations

import pytest

from rules.poker.game import PokerGame
from tests.presentation import check_presentation

GAME = PokerGame()
NAMES = ["Seat 1", "Seat 2", "Seat 3"]


@pytest.mark.parametrize("options", [{"seats": 3, "hands": 4}, {"seats": 6, "hands": 3}])
def test_every_label_line_and_hint_of_random_games(options: dict[str, int]) -> None:
    seen = check_presentation(GAME, GAME.parse_config(options), 5)
    assert seen.narrated == seen.kinds
    assert any(line.startswith("Flop: ") for line in seen.lines)


def test_labels_name_amounts_from_the_betting_options() -> None:
    view = {"options": {"to_call": 4, "min_to": 12, "max_to": 200}}
    legal = [
        {"type": "fold"},
        {"type": "call"},
        {"type": "raise", "to": 12},
        {"type": "raise", "to": 200},
        {"type": "sit_out"},
    ]
    assert GAME.presentation.labels(view, legal) == [
        "Fold",
        "Call 4",
        "Raise to 12",
        "All in (200)",
        "Sit out",
    ]


def test_events_and_hints() -> None:
    p = GAME.presentation
    events = [
        {"kind": "action", "seat": 1, "type": "raise", "to": 12, "all_in": False},
        {"kind": "action", "seat": 0, "type": "call", "chips": 8, "all_in": True},
        {"kind": "win", "pot": 1, "chips": 30, "shares": [[0, 30]]},
    ]
    assert p.narration({}, events, 0, NAMES) == [
        "Seat 2 raises to 12",
        "You call 8 (all in)",
        "You win 30 (side pot)",
    ]
    hints = p.hints({"hand": ["AS", "AD"], "board": ["AC", "7H", "7D"], "stacks": [0, 5]})
    assert hints["hand_strength"] == "Full house, aces over sevens"
    assert "hand_strength" not in p.hints({"hand": ["AS", "AD"], "board": []})
