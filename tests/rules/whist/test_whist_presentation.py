"""Whist's words (rules/whist/presentation.py): the shared presentation check on random
games, and the lines a table reads."""

from __future__ import annotations

import pytest

from engine.events import SPECTATOR
from rules.whist.game import WhistGame
from tests.presentation import check_presentation

GAME = WhistGame()
NAMES = ["North", "East", "South", "West"]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_label_line_and_hint_of_random_games(seed: int) -> None:
    seen = check_presentation(GAME, GAME.parse_config({"deals": 1}), seed)
    assert seen.narrated == seen.kinds  # every kind a viewer sees gets a line


def test_plays_and_tricks_read_from_the_viewers_side() -> None:
    p = GAME.presentation
    events = [
        {"kind": "play", "seat": 2, "card": "AS"},
        {"kind": "trick", "winner": 2, "tricks": [3, 1]},
    ]
    assert p.narration({}, events, 2, NAMES) == [
        "You play A♠",
        "You win the trick  (tricks North/South 3 – East/West 1)",
    ]
    assert p.narration({}, events, SPECTATOR, NAMES)[0] == "South plays A♠"
    assert p.labels({}, [{"type": "play", "card": "TH"}]) == ["Play 10♥"]
    assert GAME.seat_names(GAME.parse_config({})) == NAMES
