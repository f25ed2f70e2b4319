"""Tractor's words (rules/tractor/presentation.py): the shared presentation check on random
rounds, plays named by their shape, trick points by side, the hand in trump order."""

from __future__ import annotations

import pytest

from engine.events import SPECTATOR
from rules.tractor.game import TractorGame
from tests.presentation import check_presentation

GAME = TractorGame()
NAMES = ["North", "East", "South", "West"]
P = GAME.presentation


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 1, "takeback_allowed": True},
        {"rounds": 1, "finding_friends": True, "seats": 5},
    ],
)
def test_every_label_line_and_hint_of_random_games(options: dict[str, object]) -> None:
    seen = check_presentation(GAME, GAME.parse_config(options), 3)
    # A hundred draws a round: the table shows the stock going down instead.
    assert seen.kinds - seen.narrated <= {"draw", "confirm"}
    assert any("wins the trick" in line for line in seen.lines)


def test_seats_are_named_by_the_compass_at_four() -> None:
    assert GAME.seat_names(GAME.parse_config({})) == NAMES
    five = GAME.parse_config({"finding_friends": True, "seats": 5})
    assert GAME.seat_names(five) == [f"Seat {i}" for i in range(1, 6)]


@pytest.mark.parametrize(
    ("cards", "rank", "shape"),
    [
        (["5S", "5S"], "2", "pair"),
        (["5S", "5S", "6S", "6S"], "2", "tractor of 2 pairs"),
        (["AH", "AH", "2S", "2S", "2H", "2H"], "2", "tractor of 3 pairs"),  # A, off 2, trump 2
        (["AS", "AS", "KS", "3S"], "2", "1 pair + 2 singles"),
        (["QS", "QS", "AS", "AS"], "K", "tractor of 2 pairs"),  # K is the rank: Q, A adjacent
    ],
)
def test_plays_are_named_by_their_shape(cards: list[str], rank: str, shape: str) -> None:
    view = {"rank": rank, "trump_suit": "H", "trick": [{"seat": 0, "cards": ["3C"]}]}
    label = P.labels(view, [{"type": "play", "cards": cards}])
    assert label is not None and label[0].endswith(f"({shape})")


def test_a_lead_of_several_units_is_a_throw_and_trick_points_go_to_a_side() -> None:
    before = {"rank": "2", "trump_suit": "H", "landlord": 0, "trick": [], "hand_sizes": [9] * 4}
    events = [
        {"kind": "play", "seat": 1, "cards": ["AS", "AS", "KS"]},
        {"kind": "play", "seat": 2, "cards": ["5S", "6S", "9S"]},
        {"kind": "play", "seat": 3, "cards": ["TS", "3S", "4S"]},
        {"kind": "play", "seat": 0, "cards": ["2C", "3C", "4C"]},
        {"kind": "trick", "winner": 1, "points": 25, "attacker_points": 40},
        {"kind": "trick", "winner": 2, "points": 5, "attacker_points": 40},
    ]
    assert P.narration(before, events, 0, NAMES) == [
        "East throws A♠ A♠ K♠ (1 pair + 1 single)",
        "South plays 5♠ 6♠ 9♠ (3 singles)",
        "West plays 10♠ 3♠ 4♠ (3 singles)",
        "You play 2♣ 3♣ 4♣",  # 2♣ is a trump: a mixed follow has no shape
        "East wins the trick (+25 points, 40 in all)",
        "South wins the trick (5 points saved)",
    ]
    # The trump declared mid-list is the one the later plays are read with.
    declared = [
        {"kind": "trump", "landlord": 2, "rank": "5", "suit": "S"},
        {"kind": "play", "seat": 2, "cards": ["5H", "5H"]},
    ]
    lines = P.narration({"rank": "2"}, declared, SPECTATOR, NAMES)
    assert lines == ["Trump: ♠ (playing 5s) · landlord South", "South leads 5♥ 5♥ (pair)"]


def test_the_hand_in_trump_order_with_points() -> None:
    view = {
        "rank": "2",
        "trump_suit": "H",
        "hand_sizes": [9, 9, 9, 9],
        "hand": ["3S", "BJ", "2H", "AS", "KD", "2S", "AH", "SJ", "5C"],
        "trick": [{"seat": 1, "cards": ["KH"]}],
    }
    hints = P.hints(view)
    assert [(g["label"], g["cards"], g["points"]) for g in hints["hand"]] == [
        ("trumps", ["BJ", "SJ", "2H", "2S", "AH"], [0, 0, 0, 0, 0]),
        ("♠", ["AS", "3S"], [0, 0]),
        ("♣", ["5C"], [5]),
        ("♦", ["KD"], [10]),
    ]
    assert hints["follow"] == "trumps"  # a heart is a trump
    assert hints["trump"] == {"rank": "2", "suit": "H", "text": "♥"}
    # During the draw the hand is grouped by the winning declaration.
    drawing = {"rank": "2", "declarations": [{"seat": 0, "cards": ["2S"]}], "hand": ["AS"]}
    assert P.hints(drawing)["hand"][0]["label"] == "trumps"


def test_the_result_names_the_teams() -> None:
    result = {"summary": "seats 1 and 3 win the match"}
    assert P.summary(result, NAMES) == "East/West win the match"


def test_a_finding_friends_result_names_the_seats() -> None:
    """The rules number seats from 1 in lower case; the table says their names."""
    names = ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5"]
    assert P.summary({"summary": "seats 1, 3 win after 2 rounds: seat 1 at 4, seat 2 at 2"},
                     names) == "Seat 1, Seat 3 win after 2 rounds: Seat 1 at 4, Seat 2 at 2"
    assert P.summary({"summary": "seats 0 and 2 win after 1 round: seats 0 and 2 at 3"},
                     ["North", "East", "South", "West"]) == (
        "North/South win after 1 round: North/South at 3")
