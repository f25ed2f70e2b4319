"""Finding Friends (5-8 seats): deal sizes, friend calls, reveals, dynamic sides,
scoring, level changes, next landlord, views and the bot's call.

The conventions these tests check are the ones docs/tractor.md ("Finding
Friends") records; where the classic rules apply (points, the level table, the
next landlord rule) a test cites docs/tractor.md, "Points, kitty, scoring".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bots.tractor.heuristic import TractorHeuristicBot
from engine.cards import FACES_PER_DECK, RANKS, format_card, parse_face, parse_faces
from engine.errors import IllegalAction
from engine.events import SPECTATOR, Event
from engine.rng import Rng
from rules.tractor.friends import callable_faces, reveal
from rules.tractor.game import TractorGame, sort_hand
from rules.tractor.options import FriendSelection, TractorConfig, deal_sizes
from rules.tractor.order import Trump
from rules.tractor.scoring import level_change, next_landlord, next_landlord_friends
from rules.tractor.state import FriendCall, Phase, TractorState

GAME = TractorGame()
H2 = Trump(0, 2)  # rank 2, hearts trump


def config(seats: int = 5, **options: Any) -> TractorConfig:
    return GAME.parse_config({"finding_friends": True, "seats": seats, **options})


def ids(text: str, taken: set[int]) -> tuple[int, ...]:
    """Card ids for a spelling; a repeated face takes the next free copy (3 decks)."""
    out = []
    for f in parse_faces(text):
        c = next(f + FACES_PER_DECK * k for k in range(3) if f + FACES_PER_DECK * k not in taken)
        taken.add(c)
        out.append(c)
    return tuple(out)


def playing(hands: list[str], *, calls: list[tuple[str, int]], landlord: int = 0,
            leader: int | None = None, kitty: str = "", cfg: TractorConfig | None = None,
            trump: Trump = H2) -> TractorState:
    """A Finding Friends round in trick play, the calls already made."""
    cfg = cfg or config(len(hands))
    taken: set[int] = set()
    hs = tuple(sort_hand(ids(h, taken), trump) for h in hands)
    base = GAME.new(cfg, 7)
    fc = tuple(FriendCall(parse_face(c), n) for c, n in calls)
    return replace(base, phase=Phase.PLAY, stock=(), hands=hs, trump=trump,
                   landlord=landlord, starter=landlord,
                   leader=landlord if leader is None else leader,
                   kitty=ids(kitty, taken) if kitty else (), calls=fc,
                   called_by=(None,) * len(fc))


def act(state: TractorState, seat: int, cards: str) -> tuple[TractorState, list[Event]]:
    return GAME.act(state, seat, {"type": "play", "cards": cards.split()})


def data(events: list[Event], kind: str) -> dict[str, Any]:
    return next(e.data for e in events if e.kind == kind)


# ----------------------------------------------------------------------------
# Options and dealing


@pytest.mark.parametrize(
    ("seats", "decks", "kitty", "hand", "calls"),
    # decks = seats // 2 (shengji's default; quadruples are units at 8 seats);
    # the smallest kitty >= 5 leaving equal hands; seats // 2 - 1 calls so the
    # landlord's side is half the table.
    [(5, 2, 8, 20, 1), (6, 3, 6, 26, 2), (7, 3, 8, 22, 2), (8, 4, 8, 26, 3)],
)
def test_deal_sizes_by_seat_count(seats: int, decks: int, kitty: int, hand: int,
                                  calls: int) -> None:
    cfg = config(seats)
    assert deal_sizes(seats, True) == (decks, kitty)
    assert (cfg.decks, cfg.kitty_size, cfg.friend_calls) == (decks, kitty, calls)
    assert GAME.seat_count(cfg) == seats
    s = GAME.new(cfg, 3)
    assert len(s.stock) == decks * 54 and s.stock_left == seats * hand
    # Draw the whole stock (nobody declares: every seat passes what it could).
    rng = Rng(1)
    while s.phase is Phase.DRAW:
        seat = min(GAME.to_act(s))
        options = GAME.legal(s, seat)
        pick = next((a for a in options if a["type"] in ("draw", "pass")), options[0])
        s, _ = GAME.act(s, seat, pick if rng.below(4) else options[-1])
    assert s.phase is Phase.BURY and s.landlord is not None
    sizes = [len(h) for h in s.hands]
    assert sizes[s.landlord] == hand + kitty
    assert all(n == hand for i, n in enumerate(sizes) if i != s.landlord)


def test_classic_deal_is_unchanged() -> None:
    # "two 54-card decks (108 cards, jokers included), 25 cards each and an 8-card kitty"
    cfg = GAME.parse_config({})
    assert (cfg.decks, cfg.kitty_size, cfg.friend_calls) == (2, 8, 0)


@pytest.mark.parametrize(
    ("options", "ok"),
    [({"finding_friends": True, "seats": 5}, True),
     ({"finding_friends": True, "seats": 8}, True),
     ({"finding_friends": True, "seats": 6, "takeback_allowed": True}, True),
     ({"finding_friends": True, "seats": 4}, False),  # "5+ players"
     ({"finding_friends": True, "seats": 9}, False),
     ({"seats": 6}, False)],  # fixed partnerships: four seats
)
def test_option_validation(options: dict[str, Any], ok: bool) -> None:
    if ok:
        assert GAME.parse_config(options).finding_friends
        return
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config(options)
    assert err.value.code == "bad_option" and "seats" in err.value.message


# ----------------------------------------------------------------------------
# Calling friends


def at_call(seats: int = 6) -> TractorState:
    s = playing([""] * seats, calls=[], cfg=config(seats))
    hand = ids("AS 3C 4C 5D KH", set())
    hands = list(s.hands)
    hands[0] = sort_hand(hand, H2)
    return replace(s, phase=Phase.CALL, hands=tuple(hands), calls=(), called_by=())


def test_the_landlord_calls_after_burying() -> None:
    s = playing(["3C 4C 5C 6C 7C 8C 9C TC JC", "2D", "3D", "4D", "5D"], calls=[])
    s = replace(s, phase=Phase.BURY, calls=(), called_by=())
    kitty = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"]
    s, _ = GAME.act(s, 0, {"type": "bury", "cards": kitty})
    assert s.phase is Phase.CALL and GAME.to_act(s) == (0,)
    legal = GAME.legal(s, 0)
    assert legal and all(a["type"] == "call" and len(a["calls"]) == 1 for a in legal)
    s2, ev = GAME.act(s, 0, legal[0])
    assert s2.phase is Phase.PLAY and len(s2.calls) == 1 and s2.called_by == (None,)
    called = next(e for e in ev if e.kind == "friends_called")
    assert called.visibility.seats is None  # the calls are public


def test_legal_calls_prefer_missing_side_suit_aces() -> None:
    s = at_call()
    first = GAME.legal(s, 0)[0]["calls"]
    # Hearts are trump and AS is held: the missing side-suit aces AC, AD.
    assert first == [{"card": "AC", "nth": 1}, {"card": "AD", "nth": 1}]
    for action in GAME.legal(s, 0):
        GAME.validate(s, 0, action)


@pytest.mark.parametrize(
    ("calls", "code"),
    [
        ([{"card": "AD", "nth": 1}], "wrong_count"),  # 6 seats: two calls
        ([{"card": "AD", "nth": 1}, {"card": "AH", "nth": 1}], "bad_call"),  # trump suit
        ([{"card": "AD", "nth": 1}, {"card": "2S", "nth": 1}], "bad_call"),  # rank card
        ([{"card": "AD", "nth": 1}, {"card": "BJ", "nth": 1}], "bad_call"),  # joker
        ([{"card": "AD", "nth": 1}, {"card": "AC", "nth": 4}], "bad_call"),  # 3 decks
        ([{"card": "AD", "nth": 1}, {"card": "AC", "nth": 0}], "bad_call"),
        ([{"card": "AD", "nth": 1}, {"card": "AD", "nth": 1}], "bad_call"),  # same copy
        ([{"card": "AD", "nth": 1}, {"card": "ZZ", "nth": 1}], "bad_card"),
        ("AD", "bad_action"),
    ],
)
def test_bad_calls_are_refused(calls: Any, code: str) -> None:
    s = at_call()
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, 0, {"type": "call", "calls": calls})
    assert err.value.code == code
    # Error messages never name a card (a rejection must not hint at a hand).
    assert "AD" not in err.value.message and "AC" not in err.value.message


def test_a_held_card_and_two_copies_of_one_face_may_be_called() -> None:
    s = at_call()
    ok = [{"card": "AS", "nth": 2}, {"card": "AD", "nth": 3}]
    call = {"type": "call", "calls": ok}
    assert GAME.validate(s, 0, call).action == call
    both = [{"card": "AD", "nth": 1}, {"card": "AD", "nth": 2}]
    GAME.validate(s, 0, {"type": "call", "calls": both})


# ----------------------------------------------------------------------------
# Reveals and sides


FIVE = ["3C 4C", "AC 6C", "7C 8C", "9C TC", "JC QC"]


def test_playing_the_called_copy_reveals_a_friend() -> None:
    s = playing(FIVE, calls=[("AC", 1)])
    s, _ = act(s, 0, "3C")
    assert s.landlord_side == {0}
    s, ev = act(s, 1, "AC")
    assert data(ev, "friend") == {"seat": 1, "call": 0, "card": "AC", "nth": 1,
                                  "wasted": False}
    assert next(e for e in ev if e.kind == "friend").visibility.seats is None
    assert s.called_by == (1,) and s.landlord_side == {0, 1}
    view = GAME.view(s, 3)
    assert view["calls"] == [{"card": "AC", "nth": 1, "seat": 1}]
    assert view["landlord_side"] == [0, 1] and view["decks"] == 2 and view["friend_calls"] == 1


def test_the_nth_copy_counts_every_play_in_order() -> None:
    # "the 2nd AC": seat 1 plays the first AC (nothing), seat 3 the second (friend).
    s = playing(["3C 4C", "AC 6C", "7C 8C", "AC TC", "JC QC"], calls=[("AC", 2)])
    s, _ = act(s, 0, "3C")
    s, ev = act(s, 1, "AC")
    assert s.called_by == (None,) and not [e for e in ev if e.kind == "friend"]
    s, _ = act(s, 2, "7C")
    s, ev = act(s, 3, "AC")
    assert s.called_by == (3,) and data(ev, "friend")["seat"] == 3


def test_the_landlord_playing_the_called_copy_wastes_the_call() -> None:
    s = playing(["AC 4C", "3C 6C", "7C 8C", "9C TC", "JC QC"], calls=[("AC", 1)])
    s, ev = act(s, 0, "AC")
    assert data(ev, "friend")["wasted"] is True
    assert s.called_by == (0,) and s.landlord_side == {0}


def test_a_pair_holding_the_called_copy_reveals() -> None:
    s = playing(["3C 3C", "AC AC", "7C 8C", "9C TC", "JC QC"], calls=[("AC", 2)])
    s, _ = act(s, 0, "3C 3C")
    s, _ = act(s, 1, "AC AC")  # the 1st and the 2nd AC
    assert s.called_by == (1,)


def test_returned_cards_of_a_failed_throw_do_not_count() -> None:
    # Seat 1 throws QC KC; seat 2's AC beats either single, so only QC is played.
    s = playing(["3C 4C", "QC KC", "AC 8C", "9C TC", "JC 5C"], calls=[("KC", 1)],
                leader=1)
    s, ev = act(s, 1, "QC KC")
    assert data(ev, "throw_failed")["forced"] == ["QC"]
    assert s.called_by == (None,)  # the KC went back to the hand


def test_reveal_counts_the_cards_before_the_play() -> None:
    calls = (FriendCall(parse_face("AS"), 2), FriendCall(parse_face("KS"), 1))
    before = ids("AS 3S", set())
    assert reveal(calls, (None, None), before, 4, ids("AS KS", set())) == (4, 4)
    assert reveal(calls, (None, 2), (), 4, ids("AS", set())) == (None, 2)


def test_a_friend_s_points_won_before_the_reveal_count_for_the_landlords() -> None:
    # "Only points won by the attacking team count" -- with the sides as they end.
    s = playing(["3C 5D", "KC 6C", "4C 7C", "8C 9C", "AC AD"], calls=[("AD", 1)])
    for seat, card in [(0, "3C"), (1, "KC"), (2, "4C"), (3, "8C"), (4, "AC")]:
        s, ev = act(s, seat, card)
    # Seat 4 is not known to be a friend yet: its 10 points count for now.
    assert data(ev, "trick") == {"winner": 4, "points": 10, "attacker_points": 10}
    assert s.seat_points == (0, 0, 0, 0, 10) and s.leader == 4
    s, ev = act(s, 4, "AD")  # the called card: seat 4 joins, its points go with it
    assert s.called_by == (4,) and s.points == 0
    for seat, card in [(0, "5D"), (1, "6C"), (2, "7C"), (3, "9C")]:
        s, ev = act(s, seat, card)
    end = data(ev, "round_end")
    assert end["attacker_points"] == 0 and end["attackers_win"] is False
    assert end["levels_up"] == 3 and end["seats_up"] == [0, 4]
    assert s.levels == (3, 0, 0, 0, 3)  # ranks per player
    # "If the landlords held, the landlord's partner": the next side member.
    assert end["next_landlord"] == 4


@pytest.mark.parametrize(
    ("points", "decks", "attackers_win", "levels"),
    [
        # The classic two-deck table (docs/tractor.md, "Points, kitty, scoring") ...
        (0, 2, False, 3), (35, 2, False, 2), (75, 2, False, 1), (80, 2, True, 0),
        (155, 2, True, 1), (160, 2, True, 2), (200, 2, True, 3),
        # ... scaled to three decks: 20 points per deck per step (60).
        (0, 3, False, 3), (55, 3, False, 2), (60, 3, False, 1), (115, 3, False, 1),
        (120, 3, True, 0), (179, 3, True, 0), (180, 3, True, 1), (240, 3, True, 2),
        (300, 3, True, 3),
    ],
)
def test_level_table_scales_with_the_decks(points: int, decks: int, attackers_win: bool,
                                           levels: int) -> None:
    change = level_change(points, decks)
    assert (change.attackers_win, change.levels) == (attackers_win, levels)


@pytest.mark.parametrize(
    ("landlord", "side", "attackers_win", "seats", "expected"),
    [
        (0, {0, 3}, False, 6, 3),  # held: the next side member after the landlord
        (4, {4, 1, 2}, False, 6, 1),  # wraps around the table
        (2, {2}, False, 5, 2),  # alone (calls wasted or unanswered): keeps it
        (0, {0, 1}, True, 6, 2),  # lost: the next attacker after the landlord
        (5, {5, 6}, True, 7, 0),  # skips the side, wraps around
    ],
)
def test_next_landlord(landlord: int, side: set[int], attackers_win: bool, seats: int,
                       expected: int) -> None:
    # "Next landlord: if the landlords held, the landlord's partner; otherwise
    # the next attacker after the landlord."
    assert next_landlord_friends(landlord, side, attackers_win, seats) == expected


def test_next_landlord_agrees_with_the_classic_rule_on_fixed_partnerships() -> None:
    for landlord in range(4):
        side = {landlord, (landlord + 2) % 4}
        for win in (False, True):
            assert next_landlord_friends(landlord, side, win, 4) == next_landlord(landlord, win)


@pytest.mark.parametrize(
    ("kitty", "points", "attackers_win", "seats_up", "levels", "next_landlord"),
    [
        # 25 in the trick + (15 kitty points x 2): 55, the lone landlord holds +1,
        # and +1 more: its side is smaller than planned (bonus_level, default on).
        ("KD 5S", 55, False, [0], (2, 1, 2, 3, 4), 0),
        # 25 + 45 x 2 = 115 >= 80: the four attackers take over (+0), and the
        # next landlord is "the next attacker after the landlord".
        ("KD KD TD TD 5S", 115, True, [1, 2, 3, 4], (0, 1, 2, 3, 4), 1),
    ],
)
def test_round_end_with_an_unanswered_call(kitty: str, points: int, attackers_win: bool,
                                           seats_up: list[int], levels: tuple[int, ...],
                                           next_landlord: int) -> None:
    # Nobody plays the called AC (it is not dealt): the landlord plays alone.
    s = playing(["3C", "KC", "TC", "5C", "4C"], calls=[("AC", 1)], kitty=kitty)
    s = replace(s, levels=(0, 1, 2, 3, 4))
    for seat, card in [(0, "3C"), (1, "KC"), (2, "TC"), (3, "5C"), (4, "4C")]:
        s, ev = act(s, seat, card)
    end = data(ev, "round_end")
    assert end["attacker_points"] == points and end["attackers_win"] is attackers_win
    assert end["seats_up"] == seats_up and s.levels == levels
    assert end["next_landlord"] == next_landlord


def test_the_match_ends_when_a_seat_passes_the_maximum_rank() -> None:
    s = playing(["3C", "KC", "TC", "5C", "4C"], calls=[("AC", 1)],
                cfg=config(5, max_rank="3"))
    s = replace(s, levels=(1, 1, 0, 0, 0))
    for seat, card in [(0, "3C"), (1, "KC"), (2, "TC"), (3, "5C"), (4, "4C")]:
        s, _ev = act(s, seat, card)
    assert s.phase is Phase.OVER and s.champions == (0,)
    result = GAME.result(s)
    # +2 and the bonus level: the landlord played alone.
    assert result is not None and result.scores == (3.0, 0.0, 0.0, 0.0, 0.0)
    assert result.summary.startswith("seat 1 wins after 1 round: seat 1 at 3, seat 2 at 3")


def test_views_show_only_the_viewers_hand() -> None:
    s = playing(FIVE, calls=[("AC", 1)])
    for v in range(5):
        view = GAME.view(s, v)
        assert view["hand"] == [format_card(c) for c in s.hands[v]]
        assert "hands" not in view and view["hand_sizes"] == [2] * 5
    assert "hand" not in GAME.view(s, SPECTATOR)
    # The called face is public, who holds it is not: the rest of that hand is
    # secret and the call shows no seat until the copy is played.
    assert parse_face("6C") in GAME.secrets(s, 0)
    assert GAME.view(s, 0)["calls"] == [{"card": "AC", "nth": 1, "seat": None}]


# ----------------------------------------------------------------------------
# The bot


def test_the_bot_calls_a_missing_side_suit_ace() -> None:
    s = at_call()
    action = TractorHeuristicBot().decide(GAME.view(s, 0), GAME.legal(s, 0), 0, 1, 1.0)
    assert action == {"type": "call", "calls": [{"card": "AC", "nth": 1},
                                                {"card": "AD", "nth": 1}]}
    GAME.validate(s, 0, action)


@pytest.mark.parametrize("seats", [5, 6, 7, 8])
def test_bots_play_a_round_legally(seats: int) -> None:
    bot = TractorHeuristicBot()
    s = GAME.new(config(seats, rounds=1), seats)
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal(s, seat)
        action = bot.decide(GAME.view(s, seat), legal, seat, 1, 1.0)
        s, _ = GAME.act(s, seat, action)  # raises if the bot's action is illegal
    assert s.phase is Phase.OVER and len(s.calls) == seats // 2 - 1


# ----------------------------------------------------------------------------
# Friend selection and multiple joins (docs/tractor.md, "Finding Friends")


@pytest.mark.parametrize(
    ("policy", "rank", "verdicts"),
    [
        # rbtying/shengji's table: trump spades, landlord at 7 (or A).
        ("unrestricted", "7", {"KC": True, "3S": False, "3C": True, "AC": True}),
        ("point_card_not_allowed", "7", {"KC": False, "3S": False, "3C": True, "AC": True}),
        ("point_card_not_allowed", "A", {"KC": True, "3S": False, "3C": True, "AC": False}),
        ("highest_card_not_allowed", "7", {"KC": True, "3S": False, "3C": True, "AC": False}),
        ("highest_card_not_allowed", "A", {"KC": False, "3S": False, "3C": True}),
        ("trumps_included", "7", {"KC": True, "3S": True, "3C": True, "AC": True}),
    ],
)
def test_friend_selection_policies(policy: str, rank: str, verdicts: dict[str, bool]) -> None:
    """Option ``friend_selection``: which cards may be called."""
    trump = Trump(RANKS.index(rank), 3)
    faces = set(callable_faces(trump, FriendSelection(policy)))
    for card, ok in verdicts.items():
        assert (parse_face(card) in faces) is ok, (policy, rank, card)


def test_no_double_join_keeps_the_call_open() -> None:
    """Option ``multiple_join`` = ``no_double_join``: a called copy played by a seat
    already on the landlord's side (the landlord here) leaves the call open, and
    the next copy played by another seat answers it."""
    calls = (FriendCall(parse_face("AC"), 1),)
    ac = [parse_face("AC"), parse_face("AC") + 54]
    # Unrestricted: the landlord's own first copy answers (wastes) the call.
    assert reveal(calls, (None,), [], 0, ac[:1]) == (0,)
    # No double join: it stays open, and seat 3's copy answers it.
    side = frozenset({0})
    assert reveal(calls, (None,), [], 0, ac[:1], side) == (None,)
    assert reveal(calls, (None,), ac[:1], 3, ac[1:], side) == (3,)


def test_friend_count_option() -> None:
    """Option ``friend_count``: how many friends the landlord calls (default seats // 2 - 1)."""
    assert config(6).friend_calls == 2
    assert config(6, friend_count=1).friend_calls == 1
    with pytest.raises(IllegalAction):
        GAME.parse_config({"friend_count": 1})
