"""A hand history that disagrees with itself or with the rules is refused where it
does, in the file's own words and money, never stored as another hand: each move of
the kind the file names (a check facing a bet is no call), a board dealt three, one
and one, a player's cards the same wherever the file shows them, the board the same
on every street line and in the summary (docs/formats.md, "Poker hand histories").

The hands are the real ones of test_poker_history_checks (a PokerStars side-pot hand
and a WSOP hand in PHH), each changed in one line."""

from __future__ import annotations

import pytest

from rules.poker.phh import PhhError, read_phh
from rules.poker.stars import StarsError, read_stars
from tests.rules.poker.test_poker_history_checks import SIDE_POT, WSOP


def refused(old: str, new: str) -> str:
    assert old in SIDE_POT
    with pytest.raises(StarsError) as caught:
        read_stars(SIDE_POT.replace(old, new, 1))
    return str(caught.value)


def test_the_real_hands_read_as_they_are():
    assert len(read_stars(SIDE_POT)) == 1 and len(read_phh(WSOP)) == 1


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("Vlondril: calls $0.50", "Vlondril: checks",
         "Vlondril checks facing a bet: $0.50 to call"),
        ("Vlondril: calls $0.50", "Vlondril: calls $0.75",
         "Vlondril calls $0.75, but the call is $0.50"),
        ("Vlondril: calls $0.50", "Vlondril: bets $1",
         "Vlondril bets facing a bet of $0.50: a raise"),
        ("dunhill.1983: raises $2.50 to $3", "dunhill.1983: raises $2 to $3",
         "dunhill.1983 raises $2.00 to $3.00, but the bet to raise is $0.50"),
        # The rules' own refusal, in dollars and the player's name, not chips and p4.
        ("dunhill.1983: raises $2.50 to $3", "dunhill.1983: raises $0.25 to $0.75",
         "dunhill.1983: the minimum is to $1.00"),
    ],
)
def test_each_move_is_of_the_kind_the_file_says(old: str, new: str, says: str):
    assert says in refused(old, new)


def test_a_players_cards_are_the_same_wherever_the_file_shows_them():
    said = refused("*** HOLE CARDS ***\n", "*** HOLE CARDS ***\nDealt to MauA6pukocoB [Ah Kh]\n")
    assert "MauA6pukocoB shows [6h 6s], not the cards seen before (Ah Kh)" in said


def test_the_board_is_the_same_on_every_street_and_in_the_summary():
    assert "[Qd 6d 4d] is not the board so far ([Qd 6d 5d])" in refused(
        "*** TURN *** [Qd 6d 5d]", "*** TURN *** [Qd 6d 4d]")
    assert "[Qd 6d 5d 8h 7s] is not the board dealt ([Qd 6d 5d 8h 7c])" in refused(
        "Board [Qd 6d 5d 8h 7c]", "Board [Qd 6d 5d 8h 7s]")


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("'d db ThJc5h'", "'d db ThJc'", "a flop of 2 cards: the flop is 3"),
        # Five board cards in all, the river dealt with the turn.
        ("'d db 6c', 'p1 cc', 'p2 cc', 'p7 cc', 'd db 8s'",
         "'d db 6c8s', 'p1 cc', 'p2 cc', 'p7 cc'", "a turn of 2 cards: the turn is 1"),
    ],
)
def test_a_board_is_dealt_three_one_and_one(old: str, new: str, says: str):
    """A short flop would shift the turn onto the flop and the rules would deal a
    river the file never had."""
    assert old in WSOP
    with pytest.raises(PhhError) as caught:
        read_phh(WSOP.replace(old, new, 1))
    assert says in str(caught.value)


@pytest.mark.parametrize("field", ["players", "seats"])
def test_a_phh_list_per_player_must_name_every_player(field: str):
    value = "['a', 'b']" if field == "players" else "[1, 2]"
    with pytest.raises(PhhError) as caught:
        read_phh(WSOP.replace("players = [", "_was = [") + f"{field} = {value}\n")
    assert f"{field}: 2 entries for 8 players" in str(caught.value)


def test_a_card_dealt_twice_is_named():
    with pytest.raises(PhhError) as caught:
        read_phh(WSOP.replace("'d dh p3 Qh3h'", "'d dh p3 QdJd'"))
    assert "a card is dealt twice: Jd Qd" in str(caught.value)
