"""Whist rules, each test citing the rule it checks (docs/rules/whist.md)."""

from dataclasses import replace

import pytest

from engine.cards import parse_face
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR
from engine.replay import LoggedAction, replay, state_hash
from rules.whist import WhistConfig, WhistGame
from tests.conformance import check_game

GAME = WhistGame()


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in text.split())


def position(hands: list[str], trump: str = "2C", leader: int = 0, trick: str = "") -> object:
    """A mid-deal position built directly: hands per seat, trump card, current trick."""
    base = GAME.new(WhistConfig(), 1)
    return replace(
        base,
        hands=tuple(ids(h) for h in hands),
        trump_card=parse_face(trump),
        leader=leader,
        trick=ids(trick),
    )


def test_deal_gives_thirteen_cards_each_and_dealer_holds_the_trump_card():
    """Rule: 52 cards dealt one at a time from the dealer's left; the last card (the
    dealer's) is turned up and fixes trumps."""
    state = GAME.new(WhistConfig(), 99)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len({c for h in state.hands for c in h}) == 52
    assert state.trump_card in state.hands[state.dealer]
    assert state.leader == (state.dealer + 1) % 4


def test_must_follow_suit_when_able():
    """Rule: a player must follow the suit led if able."""
    s = position(["AS", "2H 3S", "4D", "5C"], leader=0, trick="AS")
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, 1, {"type": "play", "card": "2H"})
    assert err.value.code == "must_follow_suit"
    GAME.act(s, 1, {"type": "play", "card": "3S"})


def test_void_player_may_discard_or_trump():
    """Rule: a player void in the suit led may play any card."""
    s = position(["AS", "2H", "4D", "5C"], leader=0, trick="AS")
    GAME.act(s, 1, {"type": "play", "card": "2h"})


@pytest.mark.parametrize("spelled", ["TS", "10s", "10♠", " ts "])
def test_a_card_is_logged_in_one_spelling_whatever_the_player_wrote(spelled: str) -> None:
    """Protocol: the server accepts other spellings and answers in the canonical one;
    the action logged (and replayed) is canonical too."""
    s = position(["TS", "2H", "4D", "5C"], leader=0)
    assert GAME.validate(s, 0, {"type": "play", "card": spelled}).action == {
        "type": "play", "card": "TS"}


@pytest.mark.parametrize(
    "trick,trump,winner",
    [
        ("2S AS KS 3S", "2C", 1),  # highest of the suit led wins
        ("AS 2C KS 3S", "4C", 1),  # a trump beats the suit led
        ("AS 2C 3C 3S", "4C", 2),  # the highest trump wins
        ("2S AH KD 3S", "4C", 3),  # off-suit discards never win
    ],
)
def test_trick_winner(trick, trump, winner):
    """Rule: the highest trump wins the trick; if none, the highest card of the suit led."""
    cards = trick.split()
    s = position([cards[0], cards[1], cards[2], cards[3]], trump=trump, leader=0)
    for seat, c in enumerate(cards):
        s, events = GAME.act(s, seat, {"type": "play", "card": c})
    assert events[-1].kind in ("trick", "deal_end", "game_over")
    assert s.leader == winner or s.over


def test_out_of_turn_and_missing_cards_are_rejected_without_change():
    s = GAME.new(WhistConfig(), 3)
    before = state_hash(GAME, s)
    other = (s.to_move + 1) % 4
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, other, {"type": "play", "card": "AS"})
    assert err.value.code == "not_your_turn"
    absent = next(f for f in range(52) if f not in s.hands[s.to_move])
    from engine.cards import format_face

    with pytest.raises(IllegalAction) as err:
        GAME.act(s, s.to_move, {"type": "play", "card": format_face(absent)})
    assert err.value.code == "not_in_hand"
    assert "S" not in err.value.message.split()
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, s.to_move, {"type": "play", "card": "ZZ"})
    assert err.value.code == "bad_card"
    assert state_hash(GAME, s) == before


def test_score_is_tricks_over_six():
    """Rule: a partnership scores one point for each trick over six."""
    from rules.whist.scoring import deal_points

    assert deal_points((7, 6)) == (1, 0)
    assert deal_points((13, 0)) == (7, 0)
    assert deal_points((6, 7)) == (0, 1)


def test_views_hide_other_hands():
    s = GAME.new(WhistConfig(), 11)
    assert "hand" in GAME.view(s, 0) and "hands" not in GAME.view(s, 0)
    assert "hand" not in GAME.view(s, SPECTATOR)
    assert len(GAME.view(s, OMNISCIENT)["hands"]) == 4


def test_bad_options_name_the_option():
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config({"deals": 99})
    assert err.value.code == "bad_option" and "deals" in err.value.message
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config({"trumps": "none"})
    assert "trumps" in err.value.message


def test_conformance_over_200_seeds():
    """The spine's Game conformance suite: terminal, replay hash, no leaks."""
    assert check_game(GAME, WhistConfig(), range(200), scan=False) == 200 * 52
    check_game(GAME, WhistConfig(deals=2), range(30))


def test_replay_reaches_the_same_hash():
    from tests.conformance import play_random

    played = play_random(GAME, WhistConfig(), 5)
    again = replay(
        GAME, WhistConfig(), 5, [LoggedAction(e.seq, e.seat, e.action) for e in played.log]
    )
    assert state_hash(GAME, again) == state_hash(GAME, played.state)
