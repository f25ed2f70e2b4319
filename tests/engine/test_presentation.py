"""The base presentation (engine/presentation.py): how any game reads without its own
words, the shared word helpers, and the card scan that reads cards as people write them."""

from __future__ import annotations

from engine.presentation import Presentation, plural, verb
from engine.secrecy import faces_shown

NAMES = ["North", "East", "South", "West"]
P = Presentation()


def test_events_read_generically() -> None:
    events = [
        {"kind": "play", "seat": 1, "card": "TH"},
        {"kind": "play", "seat": 2, "cards": ["AS", "KS"]},
        {"kind": "hand", "seat": 2, "cards": ["AS"] * 13},
        {"kind": "hand", "seat": 3, "cards": ["AS"] * 13},
        {"kind": "bet", "seat": 3, "amount": 40},
        {"kind": "shuffle"},
        {"kind": "game_over", "summary": "North/South win"},
    ]
    assert P.narration(None, events, 2, NAMES) == [
        "East plays 10♥",
        "You play A♠ K♠",
        "You are dealt 13 cards",
        None,
        "West: bet amount 40",
        "shuffle",
        "Game over: North/South win",
    ]


def test_actions_read_generically() -> None:
    legal = [{"type": "play", "card": "AS"}, {"type": "meld", "cards": ["7H", "7S"]},
             {"type": "raise", "to": 12}, {"type": "sit_out"}]  # fmt: skip
    assert P.labels({}, legal) == ["Play A♠", "Meld 7♥ 7♠", "Raise to 12", "Sit out"]
    assert P.labels({}, None) is None
    assert P.step_label({}, {"type": "bury", "hidden": True}) == "Bury (withheld)"
    assert P.seat_names(3) == ["Seat 1", "Seat 2", "Seat 3"]


def test_words() -> None:
    assert [verb(w, False) for w in ("play", "pass", "bury", "match", "draw")] == [
        "plays", "passes", "buries", "matches", "draws",
    ]  # fmt: skip
    assert verb("bury", True) == "bury"
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"


def test_cards_are_found_in_any_spelling_but_not_in_bids() -> None:
    assert faces_shown("You play A♠ and 10♥; North bids 1♣") == {51, 34}
    assert faces_shown({"text": "AS", "contract": "4♥"}, frozenset({"contract"})) == {51}
    # A doubled or redoubled contract is no card, whatever its strain and level.
    assert faces_shown("Contract: 2♦X by East; 3♠XX by West") == set()
