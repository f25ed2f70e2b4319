"""Crazy Eights' words (rules/crazy_eights/presentation.py): the shared presentation
check on random games, and the lines a table reads."""

from __future__ import annotations

import pytest

from engine.events import SPECTATOR
from rules.crazy_eights import CrazyEightsGame
from tests.presentation import check_presentation

GAME = CrazyEightsGame()
NAMES = ["Seat 1", "Seat 2", "Seat 3"]


@pytest.mark.parametrize(("options", "seed"), [({"seats": 3}, 1), ({"seats": 2, "hands": 2}, 2)])
def test_every_label_line_and_hint_of_random_games(options: dict[str, int], seed: int) -> None:
    seen = check_presentation(GAME, GAME.parse_config(options), seed)
    assert seen.narrated == seen.kinds  # every kind a viewer sees gets a line


def test_plays_draws_and_the_end_of_a_hand_read_from_the_viewers_side() -> None:
    p = GAME.presentation
    events = [
        {"kind": "play", "seat": 1, "card": "8S", "suit": "H"},
        {"kind": "draw", "seat": 2},
        {"kind": "pass", "seat": 2},
        {"kind": "reshuffle", "cards": 31},
        {"kind": "hand_end", "winner": 1, "points": [12, 0, 50], "penalties": [12, 0, 61],
         "hands": [["TC", "2D"], [], ["8D"]]},
    ]  # fmt: skip
    assert p.narration({}, events, 1, NAMES) == [
        "You play 8♠ and name hearts",
        "Seat 3 draws a card",
        "Seat 3 passes",
        "The discard pile is shuffled into a new stock of 31 cards",
        "You go out; penalty points Seat 1 +12 (12), Seat 2 (you) +0 (0), Seat 3 +50 (61)",
    ]
    assert p.narration({}, [{"kind": "draw", "seat": 0, "card": "TD"}], 0, NAMES) == [
        "You draw 10♦"
    ]
    assert p.narration({}, events[:1], SPECTATOR, NAMES) == ["Seat 2 plays 8♠ and names hearts"]
    legal = [
        {"type": "play", "card": "TH"}, {"type": "play", "card": "8C", "suit": "S"},
        {"type": "draw"}, {"type": "pass"},
    ]  # fmt: skip
    assert p.labels({}, legal) == [
        "Play 10♥", "Play 8♣, name spades", "Draw a card", "Pass",
    ]  # fmt: skip
    assert p.hints({"top": "TH", "suit": "H"}) == {"match": "Match hearts or 10s, or play an eight"}
    assert p.hints({"top": "8C", "suit": "D"}) == {
        "match": "Match diamonds (named with the eight), or play an eight"
    }
