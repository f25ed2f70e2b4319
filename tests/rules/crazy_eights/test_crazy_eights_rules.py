"""Crazy Eights rules, each test citing the rule it checks (docs/rules/crazy_eights.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.cards import parse_face, rank_of
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR
from rules.crazy_eights import CrazyEightsConfig, CrazyEightsGame, CrazyEightsState
from rules.crazy_eights.scoring import EIGHT, card_points, hand_points
from tests.conformance import check_game

GAME = CrazyEightsGame()


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in text.split())


def position(
    hands: list[str],
    top: str,
    *,
    suit: str | None = None,
    stock: str = "",
    pile: str = "",
    turn: int = 0,
    **changes: Any,
) -> CrazyEightsState:
    """A mid-hand position built directly: hands per seat, the pile (``top`` last)."""
    base = GAME.new(CrazyEightsConfig(seats=len(hands)), 1)
    card = parse_face(top)
    return replace(
        base,
        hands=tuple(ids(h) for h in hands),
        stock=ids(stock),
        pile=(*ids(pile), card),
        suit="CDHS".index(suit) if suit else card // 13,
        turn=turn,
        **changes,
    )


def act(state: CrazyEightsState, seat: int, action: dict[str, Any]) -> tuple[Any, list[Any]]:
    new, events = GAME.act(state, seat, action)
    return new, [e.to_json() for e in events]


def code(state: CrazyEightsState, seat: int, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as exc:
        GAME.validate(state, seat, action)
    return exc.value.code


@pytest.mark.parametrize(
    ("options", "seeds"),
    [({}, range(12)), ({"seats": 2}, range(6)), ({"seats": 5, "hands": 2}, range(3)),
     ({"seats": 3, "target": 60}, range(2))],
    ids=["4-seats", "2-seats", "5-seats-2-hands", "to-a-target"],
)  # fmt: skip
def test_conformance_over_many_seeds(options: dict[str, Any], seeds: range) -> None:
    assert check_game(GAME, GAME.parse_config(options), seeds) > 0


def test_deal_seven_cards_with_two_players_five_with_more():
    """Rule 1, Deal: seven each with two players, else five; the starter is no eight."""
    for seats, size in ((2, 7), (3, 5), (4, 5), (5, 5)):
        for seed in range(20):
            s = GAME.new(CrazyEightsConfig(seats=seats), seed)
            assert [len(h) for h in s.hands] == [size] * seats
            assert len(s.stock) == 52 - 1 - size * seats and len(s.pile) == 1
            assert len({*s.stock, *s.pile, *(c for h in s.hands for c in h)}) == 52
            assert rank_of(s.pile[-1]) != EIGHT
            assert s.turn == (s.dealer + 1) % seats


def test_an_eight_turned_as_starter_goes_back_into_the_stock():
    """Rule 1, Deal: an eight cannot start the pile."""
    turned = [
        seed for seed in range(400)
        if any(rank_of(c) == EIGHT for c in GAME.new(CrazyEightsConfig(), seed).stock[-3:])
    ]  # fmt: skip
    assert turned  # some deal has an eight near the top; none ever starts the pile
    assert all(rank_of(GAME.new(CrazyEightsConfig(), s).pile[-1]) != EIGHT for s in range(400))


def test_match_by_suit_or_rank_only():
    """Rule 2, Playing: the card matches the top card by suit or by rank."""
    s = position(["7H 7C 2S KD", "3C 4C"], "9H", stock="4S")
    assert GAME.legal(s, 0) == [
        {"type": "play", "card": "7H"}, {"type": "draw"},
    ]  # fmt: skip
    s = position(["7H 9C 2S KD", "3C 4C"], "9H", stock="4S")
    assert {a.get("card") for a in GAME.legal(s, 0)} == {"7H", "9C", None}
    assert code(s, 0, {"type": "play", "card": "2S"}) == "does_not_match"
    assert code(s, 0, {"type": "play", "card": "5D"}) == "not_in_hand"
    assert code(s, 1, {"type": "play", "card": "3C"}) == "not_your_turn"


def test_an_eight_is_wild_and_names_the_suit_to_match():
    """Rule 3, Eights are wild: an eight goes on anything and names a suit."""
    s = position(["8S 2D", "3C 4D"], "9H")
    assert [a for a in GAME.legal(s, 0) if a.get("card") == "8S"] == [
        {"type": "play", "card": "8S", "suit": x} for x in "CDHS"
    ]
    assert code(s, 0, {"type": "play", "card": "8S"}) == "name_a_suit"
    assert code(s, 0, {"type": "play", "card": "8S", "suit": "X"}) == "name_a_suit"
    after, events = act(s, 0, {"type": "play", "card": "8s", "suit": "d"})
    assert events == [{"kind": "play", "seat": 0, "card": "8S", "suit": "D"}]
    assert after.suit == 1 and after.turn == 1
    # The next player follows the named suit, not the eight's spades.
    assert GAME.legal(after, 1) == [{"type": "play", "card": "4D"}, {"type": "draw"}]
    t = position(["7H 2D", "3C"], "9H")
    assert code(t, 0, {"type": "play", "card": "7H", "suit": "S"}) == "bad_action"


def test_draw_one_then_play_that_card_or_pass():
    """Rule 4, Drawing: draw one card; play it if it fits, else pass."""
    s = position(["7H 2C", "3C"], "9H", stock="4S 5H")
    after, events = act(s, 0, {"type": "draw"})
    assert after.hands[0] == ids("2C 5H 7H")  # sorted by suit, then rank
    assert events == [
        {"kind": "draw", "seat": 0, "card": "5H"}, {"kind": "draw", "seat": 0},
    ]  # fmt: skip
    assert after.turn == 0 and after.drawn == parse_face("5H")
    # Only the drawn card may be played now (7H fits too, but was not drawn).
    assert GAME.legal(after, 0) == [{"type": "play", "card": "5H"}, {"type": "pass"}]
    assert code(after, 0, {"type": "play", "card": "7H"}) == "play_the_drawn_card"
    assert code(after, 0, {"type": "draw"}) == "already_drawn"
    passed, _ = act(after, 0, {"type": "pass"})
    assert passed.turn == 1 and passed.drawn is None
    # A drawn card that does not fit leaves only the pass.
    s2, _ = act(position(["7H", "3C"], "9H", stock="4S"), 0, {"type": "draw"})
    assert GAME.legal(s2, 0) == [{"type": "pass"}]


def test_no_pass_while_a_card_can_be_drawn_or_played():
    """Rule 4, Drawing: a pass comes after a draw, or with nothing to draw or play."""
    s = position(["2C", "3C"], "9H", stock="4S")
    assert code(s, 0, {"type": "pass"}) == "cannot_pass"
    s = position(["7H", "3C"], "9H")
    assert code(s, 0, {"type": "pass"}) == "cannot_pass"
    assert code(s, 0, {"type": "draw"}) == "stock_empty"


def test_an_empty_stock_is_refilled_from_the_pile_but_its_top():
    """Rule 5, The stock runs out: the pile but its top card is shuffled into a stock."""
    s = position(["2C", "3C"], "9H", pile="4S 5S 6S")
    after, events = act(s, 0, {"type": "draw"})
    assert events[0] == {"kind": "reshuffle", "cards": 3}
    assert after.pile == ids("9H") and len(after.stock) == 2
    assert sorted((*after.stock, *after.hands[0])) == sorted(ids("4S 5S 6S 2C"))


def test_a_hand_nobody_can_play_is_blocked():
    """Rule 6, Blocked hand: every player passes with nothing to draw: the hand ends."""
    s = position(["2C 3C", "4C KD", "5C"], "9H")
    s, _ = act(s, 0, {"type": "pass"})
    s, _ = act(s, 1, {"type": "pass"})
    assert s.turn == 2 and not s.over
    s, events = act(s, 2, {"type": "pass"})
    assert s.over
    end = next(e for e in events if e["kind"] == "hand_end")
    assert end["winner"] is None and end["points"] == [5, 14, 5]


def test_shedding_the_last_card_wins_the_hand_and_others_pay_penalties():
    """Rules 7-9: the first out wins the hand; the others pay for the cards they hold."""
    s = position(["8S", "KC AH 8D", "2C TD"], "9H")
    after, events = act(s, 0, {"type": "play", "card": "8S", "suit": "C"})
    end = next(e for e in events if e["kind"] == "hand_end")
    assert end == {
        "kind": "hand_end", "winner": 0, "points": [0, 61, 12], "penalties": [0, 61, 12],
        "hands": [[], ["KC", "AH", "8D"], ["2C", "TD"]],
    }  # fmt: skip
    assert after.over
    result = GAME.result(after)
    assert result is not None and result.ranks == (1, 3, 2)
    assert result.summary == "Seat 1 wins with 0 penalty points"
    # The game over, every hand is shown and nothing is secret any more.
    assert GAME.view(after, SPECTATOR)["hands"][1] == ["KC", "AH", "8D"]
    assert GAME.secrets(after, 2) == frozenset()


def test_card_points():
    """Rule 8, Scoring: eight 50, court cards 10, ace 1, others their pips."""
    faces = ids("8C KS QH JD TC 9S 2H AC")
    assert [card_points(c) for c in faces] == [50, 10, 10, 10, 10, 9, 2, 1]
    assert hand_points(ids("8C AH")) == 51


def test_a_game_of_several_hands_deals_again_and_adds_up():
    """Rule 9, Game: ``hands`` hands are played; the dealer moves on each hand."""
    config = CrazyEightsConfig(seats=2, hands=2)
    s = replace(
        GAME.new(config, 5), hands=(ids("7H"), ids("KH 2C")), pile=ids("9H"), suit=2, turn=1
    )
    s, events = act(s, 1, {"type": "play", "card": "KH"})
    s, events = act(s, 0, {"type": "play", "card": "7H"})
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["play", "hand_end", "deal"] and not s.over
    assert s.hand_no == 1 and s.dealer == 1 and s.turn == 0 and s.penalties == (0, 2)


def test_a_game_to_a_target_ends_once_someone_reaches_it():
    """Rule 9, Game: with ``target`` hands go on until someone reaches it."""
    config = CrazyEightsConfig(seats=2, target=60)
    s = replace(GAME.new(config, 5), hands=(ids("7H"), ids("8C")), pile=ids("9H"), suit=2, turn=0)
    s, _ = act(s, 0, {"type": "play", "card": "7H"})
    assert not s.over and s.penalties == (0, 50)
    s = replace(s, hands=(ids("7H"), ids("TC")), pile=ids("9H"), suit=2, turn=0)
    s, _ = act(s, 0, {"type": "play", "card": "7H"})
    assert s.over and s.penalties == (0, 60)
    with pytest.raises(IllegalAction) as exc:
        GAME.parse_config({"target": 100, "hands": 3})
    assert exc.value.code == "bad_option"
    # A rule between two options names both, not a field called "options".
    assert exc.value.message == "options: set either hands or target, not both"
    with pytest.raises(IllegalAction):
        GAME.parse_config({"seats": 6})


def test_views_show_each_seat_only_its_own_cards():
    """Views: own hand and drawn card; spectators no hand; omniscient every hand."""
    s = position(["7H 2C", "3C"], "9H", stock="4S 5H")
    s, _ = act(s, 0, {"type": "draw"})
    mine, theirs, watcher = (GAME.view(s, v) for v in (0, 1, SPECTATOR))
    assert mine["hand"] == ["2C", "5H", "7H"] and mine["drawn"] == "5H"
    assert "drawn" not in theirs and theirs["hand"] == ["3C"]
    assert "hand" not in watcher and "hands" not in watcher
    assert watcher["top"] == "9H" and watcher["suit"] == "H" and watcher["stock_size"] == 1
    assert GAME.view(s, OMNISCIENT)["hands"][1] == ["3C"]
    assert GAME.secrets(s, 1) == frozenset(ids("2C 5H 7H 4S"))
