"""Bridge's words (rules/bridge/presentation.py): the shared presentation check on random
boards, calls and claims as labels, the declarer credited with dummy's cards."""

from __future__ import annotations

from typing import Any

import pytest

from engine.events import SPECTATOR
from rules.bridge.game import BridgeGame
from rules.bridge.presentation import board_result_text
from tests.presentation import check_presentation

GAME = BridgeGame()
NAMES = ["North", "East", "South", "West"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_label_line_and_hint_of_random_games(seed: int) -> None:
    seen = check_presentation(GAME, GAME.parse_config({}), seed)
    assert seen.narrated == seen.kinds


def test_calls_and_claims_as_labels() -> None:
    legal = [
        {"type": "call", "call": "P"},
        {"type": "call", "call": "X"},
        {"type": "call", "call": "3NT"},
        {"type": "call", "call": "1C"},
        {"type": "claim", "tricks": 1},
        {"type": "accept_claim"},
    ]
    assert GAME.presentation.labels({}, legal) == [
        "Pass",
        "Double",
        "Bid 3NT",
        "Bid 1♣",
        "Claim 1 more trick",
        "Accept the claim",
    ]
    view = {"dummy": 3, "next_player": 3}
    assert GAME.presentation.labels(view, [{"type": "play", "card": "KS"}]) == [
        "Play K♠ from dummy"
    ]


def test_the_first_card_leads_and_dummys_cards_are_the_declarers() -> None:
    # East declares; West is dummy.  The narrator remembers it from the view.
    before = {"contract": "4S", "declarer": 1, "trick": ["2C", "5C"]}
    events = [
        {"kind": "play", "seat": 3, "card": "AC"},
        {"kind": "play", "seat": 0, "card": "3C"},
        {"kind": "trick", "winner": 3, "tricks": [0, 1]},
        {"kind": "play", "seat": 3, "card": "KS"},
    ]
    assert GAME.presentation.narration(before, events, 1, NAMES) == [
        "You play A♣ from dummy",
        "North plays 3♣",
        "East/West win the trick (West)  NS 0 – EW 1",
        "You lead K♠ from dummy",
    ]
    line = GAME.presentation.narration(before, events[:1], SPECTATOR, NAMES)[0]
    assert line == "East plays A♣ from dummy"


def test_hints_read_the_auction_and_vulnerability() -> None:
    view = {
        "vulnerability": "EW",
        "auction": [{"seat": 0, "call": "1H"}, {"seat": 1, "call": "P"}],
        "contract": "4HX",
        "declarer": 0,
        "results": [{"board": 1, "contract": "3NT", "declarer": 2, "tricks": 8, "score_ns": -50}],
    }
    assert GAME.presentation.hints(view) == {
        "vulnerable": "East/West",
        "vulnerable_sides": [False, True],
        "auction": ["1♥", "Pass"],
        "explanations": [
            {"meaning": "1H opening: 12–21 HCP, 0–5 spades, 5+ hearts", "forcing": False,
             "alert": False},
            {"meaning": "pass", "forcing": False, "alert": False},
        ],
        "contract": "4♥X",
        "results": ["Board 1: 3NT by S down 1, NS -50"],
    }


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (
            {"board": 1, "contract": "4S", "declarer": 2, "tricks": 10, "score_ns": 420},
            "Board 1: 4♠ by S made 10, NS +420",
        ),
        (
            {"board": 2, "contract": "3NTX", "declarer": 1, "tricks": 7, "score_ns": 300},
            "Board 2: 3NTX by E down 2, NS +300",
        ),
        (
            {"board": 3, "contract": None, "declarer": None, "tricks": None},
            "Board 3: passed out, NS 0",
        ),
    ],
)
def test_board_results(result: dict[str, Any], line: str) -> None:
    assert board_result_text(result) == line


def test_every_call_is_narrated_with_its_meaning_for_every_viewer() -> None:
    # 1NT, then Stayman (artificial: alerted, forcing) and its answer, as the
    # system reads them; the words are the same whoever watches.
    before = {"auction": [{"seat": 0, "call": "1NT"}, {"seat": 1, "call": "P"}]}
    events = [
        {"kind": "call", "seat": 2, "call": "2C"},
        {"kind": "call", "seat": 3, "call": "P"},
        {"kind": "call", "seat": 0, "call": "2D"},
    ]
    for viewer in (SPECTATOR, 1, 2):
        lines = GAME.presentation.narration(before, events, viewer, NAMES)
        assert [line.split(" — ", 1)[1] for line in lines] == [
            "Stayman: 8+ HCP, 0–4 spades, 0–4 hearts; forcing",
            "pass",
            "Stayman: no major: 0–3 spades, 0–3 hearts",
        ]
        assert "(alert)" in lines[0] and "(alert)" in lines[2] and "(alert)" not in lines[1]
    assert GAME.presentation.narration(before, events[:1], SPECTATOR, NAMES) == [
        "South bids 2♣ (alert) — Stayman: 8+ HCP, 0–4 spades, 0–4 hearts; forcing"
    ]


def test_a_new_board_starts_a_new_auction() -> None:
    before = {"auction": [{"seat": 0, "call": "1NT"}]}
    events = [
        {"kind": "deal", "board": 2, "dealer": 1, "vulnerability": "NS"},
        {"kind": "call", "seat": 1, "call": "1NT"},
    ]
    line = GAME.presentation.narration(before, events, SPECTATOR, NAMES)[1]
    assert line == "East bids 1NT — 1NT opening: 15–17 HCP, balanced"
