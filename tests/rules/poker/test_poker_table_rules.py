"""No-limit hold'em table rules, each test citing the rule it checks
(docs/poker.md, "Table rules (no-limit hold'em)" and "No-limit hold'em table")."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from engine.cards import parse_face
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR
from rules.poker.betting import deal_hand
from rules.poker.game import PokerGame
from rules.poker.options import OddChip, PokerConfig
from rules.poker.pots import build_pots
from rules.poker.state import Phase, PokerState
from tests.conformance import faces_named

GAME = PokerGame()


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_face(text[i : i + 2]) for i in range(0, len(text), 2))


def start(stacks: list[int], holes: list[str], board: str = "", **options: Any) -> PokerState:
    """A hand with chosen cards: seat i holds ``holes[i]``; the players are seats
    0..n-1 from the left of the button, so the button is the last seat."""
    n = len(stacks)
    config = PokerConfig(**{"seats": n, "hands": 1, "starting_stack": max(stacks), **options})
    hole_ids = [ids(h) for h in holes]
    used = {c for h in hole_ids for c in h} | set(ids(board))
    rest = [c for c in range(52) if c not in used]
    b = list(ids(board))
    # Burn one before each street: burn, flop, burn, turn, burn, river.
    stub = [rest.pop(), *b[:3], rest.pop(), *b[3:4], rest.pop(), *b[4:5], *rest]
    hand, after, _ = deal_hand(config, stacks, tuple(range(n)), 1, hole_ids, stub)
    return PokerState(
        config=config,
        seed=0,
        phase=Phase.BETTING,
        stacks=after,
        bought_in=tuple(stacks),
        sitting_out=(False,) * n,
        pending=(),
        hands_played=0,
        hand=hand,
    )


def play(state: PokerState, *moves: tuple[int, dict[str, Any]]) -> tuple[PokerState, list[Any]]:
    events = []
    for seat, action in moves:
        state, evs = GAME.act(state, seat, action)
        events += [e.to_json() for e in evs]
    return state, events


CALL = {"type": "call"}
CHECK = {"type": "check"}
FOLD = {"type": "fold"}


def raise_to(n: int) -> dict[str, Any]:
    return {"type": "raise", "to": n}


def bet(n: int) -> dict[str, Any]:
    return {"type": "bet", "to": n}


def check_down(state: PokerState) -> tuple[PokerState, list[Any]]:
    events = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, evs = GAME.act(state, seat, CHECK)
        events += [e.to_json() for e in evs]
    return state, events


# ----------------------------------------------------------------- blinds and order


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after():
    """Rule: heads-up: button posts small blind and acts first preflop (and the big
    blind acts first on the later streets)."""
    config = PokerConfig(seats=2, hands=1)
    for seed in range(20):
        state = GAME.new(config, seed)
        hand = state.hand
        assert hand is not None
        assert hand.small_blind_seat == hand.button
        assert hand.bets[hand.button] == 1 and hand.bets[hand.big_blind_seat] == 2
        assert GAME.to_act(state) == (hand.button,)
        state, _ = play(state, (hand.button, CALL), (hand.big_blind_seat, CHECK))
        assert state.hand is not None and state.hand.street == 1
        assert GAME.to_act(state) == (hand.big_blind_seat,)


@pytest.mark.parametrize("seats", [3, 6, 10])
def test_blinds_left_of_button_and_first_to_act_left_of_big_blind(seats: int):
    """Rule: small blind left of the button, big blind next; preflop action starts
    left of the big blind, later streets with the first live seat left of the button."""
    state = start([100] * seats, [h for h in _holes(seats)])
    hand = state.hand
    assert hand is not None
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.button) == (0, 1, seats - 1)
    first = 2 % seats
    assert GAME.to_act(state) == (first,)
    moves = [(s % seats, CALL) for s in range(2, seats)] + [(0, CALL), (1, CHECK)]
    state, _ = play(state, *moves)
    assert GAME.to_act(state) == (0,)


def _holes(n: int) -> list[str]:
    faces = "2C3C4C5C6C7C8C9CTCJCQCKCACADKDQDJDTD9D8D"
    return [faces[4 * i : 4 * i + 4] for i in range(n)]


def test_ante_is_taken_from_everyone_before_the_blinds():
    """Rule: optional ante, paid by every player dealt in."""
    state = start([100, 100, 100], _holes(3), ante=5)
    assert state.hand is not None
    assert list(state.hand.contributed) == [5 + 1, 5 + 2, 5]
    assert list(state.stacks) == [94, 93, 95]


# ------------------------------------------------------------------- raise sizes


@pytest.mark.parametrize(
    ("moves", "actor", "min_to"),
    [
        ([], 2, 4),  # facing the big blind: raise by at least a big blind
        ([(2, raise_to(6))], 0, 10),  # raise of 4: the next is at least 4 more
        ([(2, raise_to(6)), (0, raise_to(20))], 1, 34),  # raise of 14 sets 14
        ([(2, raise_to(7)), (0, raise_to(12))], 1, 17),  # a 5-chip re-raise of a 5 raise
    ],
)
def test_minimum_raise_is_the_last_full_raise(moves: list[Any], actor: int, min_to: int):
    """Rule: minimum raise = last full raise (and never less than the big blind)."""
    state, _ = play(start([500] * 3, _holes(3)), *moves)
    assert GAME.to_act(state) == (actor,)
    opts = GAME.options(state)
    assert opts is not None and opts.min_to == min_to and opts.max_to == 500
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, actor, raise_to(min_to - 1))
    assert err.value.code == "raise_too_small"
    GAME.act(state, actor, raise_to(min_to))  # exactly the minimum is fine


def test_first_bet_after_the_flop_is_at_least_the_big_blind():
    """Rule: no-limit: the smallest bet is the big blind; anything up to all-in."""
    state, _ = play(start([100, 100], _holes(2)), (1, CALL), (0, CHECK))
    opts = GAME.options(state)
    assert opts is not None and (opts.min_to, opts.max_to) == (2, 98)
    assert GAME.validate(state, 0, {"type": "raise", "to": 37}).action == bet(37)  # canonical word
    assert GAME.validate(state, 0, {"type": "all_in"}).action == bet(98)


def test_short_all_in_does_not_reopen_betting_for_players_who_already_acted():
    """Rule: an all-in short raise does not reopen betting to players who already
    acted; a player who has not acted yet may raise."""
    # Seats: 0 small blind (30 chips), 1 big blind, 2 button.
    state = start([30, 500, 500], _holes(3))
    state, _ = play(state, (2, raise_to(20)), (0, {"type": "all_in"}))  # 30: 10 more, short
    assert GAME.to_act(state) == (1,)
    opts = GAME.options(state)
    assert opts is not None and opts.min_to == 30 + 18  # the big blind has not acted
    state, _ = play(state, (1, CALL))
    opts = GAME.options(state)
    assert GAME.to_act(state) == (2,) and opts is not None
    assert opts.min_to is None and opts.to_call == 10
    assert {a["type"] for a in GAME.legal(state, 2)} == {"fold", "call", "sit_out"}
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, 2, raise_to(60))
    assert err.value.code == "cannot_raise"


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    """Rule (as pokerkit and TDA): consecutive short all-ins that together make a full
    raise reopen the betting."""
    # 4 seats: 0 SB (26 chips), 1 BB (33 chips), 2 UTG, 3 button.
    state = start([26, 33, 500, 500], _holes(4))
    state, _ = play(state, (2, raise_to(20)), (3, CALL))  # a raise of 18
    state, _ = play(state, (0, {"type": "all_in"}))  # to 26: 6 more, short
    assert GAME.options(state).min_to is not None  # type: ignore[union-attr]  # BB not acted
    state, _ = play(state, (1, {"type": "all_in"}))  # to 33: 7 more; 13 < 18, still short
    opts = GAME.options(state)
    assert GAME.to_act(state) == (2,) and opts is not None and opts.min_to is None
    state2 = start([30, 40, 500, 500], _holes(4))
    state2, _ = play(state2, (2, raise_to(20)), (3, CALL), (0, {"type": "all_in"}))
    state2, _ = play(state2, (1, {"type": "all_in"}))  # 10 + 10 = 20 >= 18: reopened
    opts = GAME.options(state2)
    assert opts is not None and opts.min_to == 40 + 18


def test_nobody_may_raise_when_every_opponent_is_all_in():
    """Rule: a raise needs someone left to call it."""
    state, _ = play(start([50, 500], _holes(2)), (1, {"type": "all_in"}))  # button shoves
    opts = GAME.options(state)
    assert opts is not None and opts.min_to is None and opts.to_call == 48


# ----------------------------------------------------------------------- pots


def test_side_pots_with_three_all_ins_and_the_uncalled_bet_returned():
    """Rule: side pots from contribution levels; each pot goes to the best hand among
    its eligible players (the shortest stack holds the best hand, and so on)."""
    # Four players all-in preflop with 50 / 100 / 150 / 300 chips; nobody could call
    # more than 150, so seat 3's all-in is just a call of 150.
    holes = ["AsAh", "KsKh", "QsQh", "2c7d"]
    state = start([50, 100, 150, 300], holes, board="3c4d8h9sJc")
    allin = {"type": "all_in"}
    state, events = play(state, (2, allin), (3, allin), (0, allin), (1, allin))
    hand = state.hand
    assert hand is not None and hand.done
    pots = [(a.amount, a.winners) for a in hand.awards]
    assert pots == [(200, (0,)), (150, (1,)), (100, (2,))]
    assert {"kind": "action", "seat": 3, "type": "call", "chips": 150} in events
    assert list(state.stacks) == [200, 150, 100, 150]
    assert sum(state.stacks) == 600


def test_the_uncalled_part_of_a_bet_goes_back():
    """Rule: chips nobody matched are returned to the bettor."""
    state = start([100, 500], ["AsAh", "KsKh"], board="3c4d8h9sJc")
    state, events = play(state, (1, raise_to(300)), (0, CALL))
    assert {"kind": "refund", "seat": 1, "chips": 200} in events
    assert state.hand is not None and state.hand.awards[0].amount == 200
    assert list(state.stacks) == [200, 400]


def test_side_pot_won_by_a_player_who_loses_the_main_pot():
    """Rule: each pot goes to the best hand among its eligible players."""
    holes = ["AsAh", "KsKh", "QsQh"]
    state = start([40, 100, 100], holes, board="2c7d9h3sJc")
    allin = {"type": "all_in"}
    state, _ = play(state, (2, allin), (0, allin), (1, allin))
    assert state.hand is not None
    assert [(a.amount, a.winners) for a in state.hand.awards] == [(120, (0,)), (120, (1,))]


@pytest.mark.parametrize("rule", list(OddChip))
def test_split_pot_odd_chip_goes_to_the_first_winner_left_of_the_button(rule: OddChip):
    """Rule: split pots divide evenly, odd chip to the first winner left of the button."""
    # The board is a royal flush, so everyone still in splits.  Pot: four antes and
    # three big blinds (the button folds) = 10 chips for three winners.
    state = start(
        [100] * 4, ["2c3c", "2d3d", "2h3h", "4c5c"], board="AsKsQsJsTs", ante=1, odd_chip=rule
    )
    state, _ = play(state, (2, CALL), (3, FOLD), (0, CALL), (1, CHECK))
    state, _ = check_down(state)
    assert state.hand is not None
    award = state.hand.awards[0]
    assert (award.amount, award.winners) == (10, (0, 1, 2))
    assert dict(award.shares) == {0: 4, 1: 3, 2: 3}


@pytest.mark.parametrize(
    ("rule", "shares"),
    [(OddChip.ONE_EACH, {0: 3, 1: 3, 2: 2}), (OddChip.FIRST_WINNER, {0: 4, 1: 2, 2: 2})],
)
def test_two_odd_chips_by_the_odd_chip_option(rule: OddChip, shares: dict[int, int]):
    """Option ``odd_chip``: with two chips over among three winners, ``one_each`` gives
    one each to the first two winners left of the button, ``first_winner`` both to
    the first."""
    state = start([100] * 4, ["2c3c", "2d3d", "2h3h", "4c5c"], board="AsKsQsJsTs", odd_chip=rule)
    state, _ = play(state, (2, CALL), (3, CALL), (0, CALL), (1, CHECK))  # 8 in the pot
    state, _ = play(state, (0, CHECK), (1, CHECK), (2, CHECK), (3, {"type": "sit_out"}))
    state, _ = check_down(state)
    assert state.hand is not None
    award = state.hand.awards[0]
    assert (award.amount, award.winners) == (8, (0, 1, 2))
    assert dict(award.shares) == shares


# --------------------------------------------------------------- showdown and muck


def _river(state: PokerState, *moves: tuple[int, dict[str, Any]]) -> tuple[PokerState, list[Any]]:
    """Check to the river, then play ``moves`` there."""
    events = []
    while state.hand is not None and state.hand.street < 3:
        seat = GAME.to_act(state)[0]
        opts = GAME.options(state)
        state, evs = GAME.act(state, seat, CALL if opts and opts.to_call else CHECK)
        events += [e.to_json() for e in evs]
    state, more = play(state, *moves)
    return state, events + more


def test_last_aggressor_on_the_river_shows_first_and_a_beaten_hand_mucks():
    """Rule: showdown order: last aggressor of the final round shows first; others may
    muck a losing hand (mucked cards are never shown)."""
    # Seat 1 bets the river with the best hand and shows first; seat 0 calls with a
    # worse hand and mucks it.
    state = start([100, 100], ["7h2d", "AsAd"], board="KcQd5h3s9c")
    state, events = _river(state, (0, CHECK), (1, bet(10)), (0, CALL))
    kinds = [(e["kind"], e.get("seat")) for e in events if e["kind"] in ("show", "muck")]
    assert kinds == [("show", 1), ("muck", 0)]
    hand = state.hand
    assert hand is not None and hand.mucked == (0,)
    mucked = set(ids("7h2d"))
    for viewer in (1, SPECTATOR, OMNISCIENT):
        assert not faces_named(GAME.view(state, viewer)) & mucked
        assert mucked <= GAME.secrets(state, viewer)
        assert not faces_named(events) & mucked
    assert set(ids("7h2d")) <= faces_named(GAME.view(state, 0))  # the owner still sees them


def test_without_a_river_bet_the_first_seat_left_of_the_button_shows_first():
    """Rule: ... else first seat left of the button."""
    state = start([100, 100, 100], ["AsAd", "KsKd", "QsQd"], board="2c7d9h3sJc")
    state, events = _river(state, (0, CHECK), (1, CHECK), (2, CHECK))
    kinds = [(e["kind"], e.get("seat")) for e in events if e["kind"] in ("show", "muck")]
    assert kinds == [("show", 0), ("muck", 1), ("muck", 2)]


def test_a_hand_that_can_still_win_shows_and_with_muck_off_everyone_shows():
    """Rule: only a losing hand may be mucked; with ``muck_losers`` off every hand
    still in is shown."""
    state = start([100, 100, 100], ["QsQd", "KsKd", "AsAd"], board="2c7d9h3sJc")
    state, events = _river(state, (0, CHECK), (1, CHECK), (2, CHECK))
    kinds = [(e["kind"], e.get("seat")) for e in events if e["kind"] in ("show", "muck")]
    assert kinds == [("show", 0), ("show", 1), ("show", 2)]
    state = start([100, 100, 100], ["AsAd", "KsKd", "QsQd"], board="2c7d9h3sJc", muck_losers=False)
    state, events = _river(state, (0, CHECK), (1, CHECK), (2, CHECK))
    assert [e["seat"] for e in events if e["kind"] == "show"] == [0, 1, 2]


def test_uncontested_pot_shows_nothing_and_folded_cards_stay_hidden():
    """Rule: hole cards visible only to their owner until shown at showdown; a folded
    hand is never shown, to anyone, in replays either."""
    state = start([100, 100, 100], ["AsAd", "KsKd", "QsQd"], board="2c7d9h3sJc")
    state, events = play(state, (2, raise_to(10)), (0, FOLD), (1, FOLD))
    hand = state.hand
    assert hand is not None and hand.done and hand.shown == ()
    assert [(a.amount, a.winners) for a in hand.awards] == [(1 + 2 + 2, (2,))]  # 8 back
    for viewer in (SPECTATOR, OMNISCIENT):
        shown = faces_named([GAME.view(state, viewer), events])
        assert not shown & set(ids("AsAdKsKdQsQd"))


def test_hole_cards_are_seen_by_their_owner_only():
    """Rule: hole cards visible only to their owner until shown at showdown."""
    state = start([100, 100, 100], ["AsAd", "KsKd", "QsQd"])
    for seat, cards in enumerate(["AsAd", "KsKd", "QsQd"]):
        seen = faces_named(GAME.view(state, seat))
        assert set(ids(cards)) <= seen
        others = set(ids("AsAdKsKdQsQd")) - set(ids(cards))
        assert not seen & others
    assert not faces_named(GAME.view(state, SPECTATOR)) & set(ids("AsAdKsKdQsQd"))


# --------------------------------------------------------------- between hands


def test_button_moves_to_the_next_seat_in_play_each_hand():
    """Rule: the button moves between hands (one seat clockwise, skipping empty ones)."""
    state = GAME.new(PokerConfig(seats=4, hands=6), 7)
    buttons = []
    while state.phase is not Phase.OVER:
        assert state.hand is not None
        if not buttons or buttons[-1][0] != state.hand.number:
            buttons.append((state.hand.number, state.hand.button))
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        action = next((a for a in legal if a["type"] in ("check", "fold")), legal[0])
        state, _ = GAME.act(state, seat, action)
    seats = [b for _, b in buttons]
    assert len(seats) == 6
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(seats))


def test_sitting_out_folds_skips_hands_and_sitting_in_returns():
    """Rule: sitting out (action): the player leaves the hand and is not dealt in until
    they sit in again; the decision is offered between hands."""
    state = GAME.new(PokerConfig(seats=3, hands=5), 3)
    seat = GAME.to_act(state)[0]
    state, events = GAME.act(state, seat, {"type": "sit_out"})
    assert {"kind": "sit_out", "seat": seat} in [e.to_json() for e in events]
    while state.phase is Phase.BETTING:
        s = GAME.to_act(state)[0]
        opts = GAME.options(state)
        state, _ = GAME.act(state, s, CALL if opts and opts.to_call else CHECK)
    assert state.phase is Phase.BETWEEN and GAME.to_act(state) == (seat,)
    assert {a["type"] for a in GAME.legal(state, seat)} == {"sit_in", "sit_out"}
    state, _ = GAME.act(state, seat, {"type": "sit_out"})
    assert state.hand is not None and seat not in state.hand.players
    while state.phase is Phase.BETTING:
        s = GAME.to_act(state)[0]
        opts = GAME.options(state)
        state, _ = GAME.act(state, s, CALL if opts and opts.to_call else CHECK)
    state, _ = GAME.act(state, seat, {"type": "sit_in"})
    assert state.hand is not None and seat in state.hand.players


def _bust(config: PokerConfig) -> PokerState:
    """Seat 0 all-in with the worst hand until it has no chips."""
    state = GAME.new(config, 11)
    state = replace(state, stacks=(0, *state.stacks[1:]), sitting_out=(True, False, False))
    return state


def test_rebuys_up_to_the_table_maximum_between_hands():
    """Rule: rebuys up to the table maximum, between hands."""
    config = PokerConfig(seats=3, hands=5, starting_stack=100, max_buy_in=150)
    state = replace(_bust(config), phase=Phase.BETWEEN, pending=(0,))
    legal = GAME.legal(state, 0)
    assert {"type": "rebuy", "chips": 150} in legal and {"type": "rebuy", "chips": 100} in legal
    assert {"type": "sit_in"} not in legal  # no chips to sit in with
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, 0, {"type": "rebuy", "chips": 151})
    assert err.value.code == "over_max_buy_in"
    after, _events = GAME.act(state, 0, {"type": "rebuy", "chips": 120})
    assert after.bought_in[0] == 100 + 120 and after.phase is Phase.BETTING
    assert after.hand is not None and 0 in after.hand.players


def test_without_rebuys_a_busted_player_is_out_and_the_session_ends_with_one_left():
    """Rule: the game ends after the configured hands or when fewer than two players
    have chips."""
    config = PokerConfig(seats=2, hands=100, rebuys=False, starting_stack=10)
    state = GAME.new(config, 5)
    while state.phase is not Phase.OVER:
        seat = GAME.to_act(state)[0]
        state, _ = GAME.act(state, seat, {"type": "all_in"})
    assert sorted(state.stacks) == [0, 20]
    result = GAME.result(state)
    assert result is not None and sorted(result.scores) == [-10, 10]


def test_session_ends_after_the_configured_number_of_hands():
    """Rule: ``hands``: how many hands the session lasts."""
    state = GAME.new(PokerConfig(seats=3, hands=4), 2)
    while state.phase is not Phase.OVER:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        state, _ = GAME.act(state, seat, next(a for a in legal if a["type"] in ("check", "fold")))
    assert state.hands_played == 4
    result = GAME.result(state)
    assert result is not None and sum(result.scores) == 0


@pytest.mark.parametrize(
    "options",
    [
        {"seats": 1},
        {"seats": 11},
        {"small_blind": 5, "big_blind": 2},
        {"starting_stack": 100, "max_buy_in": 50},
        {"ante": -1},
        {"hands": 0},
        {"tip": 1},
    ],
)
def test_bad_options_are_rejected(options: dict[str, Any]):
    """Every house rule is an explicit, validated option."""
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config(options)
    assert err.value.code == "bad_option"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "check"}, "cannot_check"),
        ({"type": "raise", "to": "9"}, "bad_amount"),
        ({"type": "raise", "to": 1000}, "raise_too_large"),
        ({"type": "dance"}, "bad_action"),
        ({"type": "rebuy", "chips": 5}, "bad_action"),
    ],
)
def test_illegal_actions_raise_stable_codes(action: dict[str, Any], code: str):
    state = start([100, 100, 100], _holes(3))
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, 2, action)
    assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, 0, CALL)
    assert err.value.code == "not_your_turn"


# ------------------------------------------------------------ pots as pure functions


@pytest.mark.parametrize(
    ("contributed", "live", "pots"),
    [
        # Everyone matched: one pot.
        ([10, 10, 10], [True, True, True], [(30, (0, 1, 2))]),
        # Seat 0 all-in for 5: main pot 15, side pot 10 between seats 1 and 2.
        ([5, 10, 10], [True, True, True], [(15, (0, 1, 2)), (10, (1, 2))]),
        # A folded player's chips stay in the pots up to each level, but it is not
        # eligible; levels come from live players only (no pot at 7).
        ([5, 7, 20], [True, False, True], [(15, (0, 2)), (17, (2,))]),
        # Three all-ins at different levels and a covering stack.
        ([50, 100, 150, 150], [True] * 4, [(200, (0, 1, 2, 3)), (150, (1, 2, 3)), (100, (2, 3))]),
    ],
)
def test_pots_from_contribution_levels(
    contributed: list[int], live: list[bool], pots: list[tuple[int, tuple[int, ...]]]
):
    """Rule: side pots from contribution levels."""
    got = build_pots(contributed, live, list(range(len(contributed))))
    assert [(p.amount, p.eligible) for p in got] == pots
    assert sum(p.amount for p in got) == sum(contributed)
