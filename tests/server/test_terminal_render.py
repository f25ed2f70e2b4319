"""The terminal client's pure formatting: menus, card input, views.  The words it
prints (labels, event lines, hints) are the games' presentations', as the server
sends them in every frame."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from clients.terminal import views
from clients.terminal.render import (
    build_menu,
    hand_line,
    match_input,
    menu_lines,
    result_text,
    seat_names,
)
from rules.bridge.game import BridgeGame
from rules.poker.game import PokerGame
from rules.registry import get_game

NAMES = ["North", "East", "South", "West"]


def plays(*cards: str) -> list[dict[str, str]]:
    return [{"type": "play", "card": c} for c in cards]


def test_menu_lists_card_plays_in_hand_order_with_suit_symbols() -> None:
    menu = build_menu(plays("2D", "AS", "TH", "KS", "3C"))
    assert [m.label for m in menu] == ["A♠", "K♠", "10♥", "3♣", "2♦"]
    assert menu[2].action == {"type": "play", "card": "TH"}
    assert menu_lines(menu) == ["  1) A♠   2) K♠   3) 10♥  4) 3♣   5) 2♦"]


def test_a_card_may_be_typed_in_any_common_spelling() -> None:
    menu = build_menu(plays("TH", "AS"))
    for typed in ("10h", "TH", "th", "10♥", " T♥ "):
        assert match_input(typed, menu) == {"type": "play", "card": "TH"}
    assert match_input("2", menu) == {"type": "play", "card": "TH"}  # menu: A♠, 10♥


def test_input_that_names_no_legal_action_says_why() -> None:
    menu = build_menu(plays("TH", "AS"))
    assert match_input("3", menu) == "3 is not on the menu (1-2)"
    assert match_input("QC", menu) == "Q♣ is not a legal play now"
    assert "matches no legal action" in str(match_input("banana", menu))
    assert match_input("", menu) == "type a number 1-2 or a card"
    assert "not valid JSON" in str(match_input("{oops", menu))


def test_a_raw_json_action_is_passed_through_for_the_server_to_judge() -> None:
    assert match_input('{"type": "play", "card": "ZZ"}', build_menu(plays("AS"))) == {
        "type": "play",
        "card": "ZZ",
    }


def test_other_games_actions_keep_server_order_and_match_by_label_or_type() -> None:
    legal: list[dict[str, Any]] = [
        {"type": "fold"},
        {"type": "call", "amount": 20},
        {"type": "raise", "amount": 60},
    ]
    menu = build_menu(legal)
    assert [m.label for m in menu] == ["fold", "call amount=20", "raise amount=60"]
    assert match_input("FOLD", menu) == {"type": "fold"}
    assert match_input("call", menu) == {"type": "call", "amount": 20}
    assert match_input("raise amount=60", menu) == {"type": "raise", "amount": 60}
    meld: list[dict[str, Any]] = [{"type": "meld", "cards": ["7H", "7S", "7D"]}, {"type": "pass"}]
    cards = build_menu(meld)
    assert match_input("7s 7d 7h", cards) == {"type": "meld", "cards": ["7H", "7S", "7D"]}


def test_menus_take_the_servers_labels_and_fold_long_numbered_runs() -> None:
    legal = [*plays("AS"), *({"type": "claim", "tricks": n} for n in range(8))]
    labels = ["Play A♠", *(f"Claim {n}" for n in range(8))]
    menu = build_menu(legal, labels)
    # Eight claims are one entry, the largest; a smaller one may be typed.
    assert [m.label for m in menu] == ["Play A♠", "Claim 7"]
    assert views.match_input("claim 3", menu) == {"type": "claim", "tricks": 3}
    assert views.match_input("play a♠", menu) == {"type": "play", "card": "AS"}


def test_a_hand_is_grouped_by_suit_high_to_low() -> None:
    hand = ["2C", "AS", "TD", "KH", "7S", "QD", "BJ"]
    assert hand_line(hand) == "♠ A 7   ♥ K   ♣ 2   ♦ Q 10   BJ"


def test_whist_view_shows_trump_trick_scores_and_hand() -> None:
    view = {
        "game": "whist",
        "deal": 1,
        "deals": 2,
        "dealer": 0,
        "trump": "7D",
        "leader": 1,
        "trick": ["TH", "2H"],
        "last_trick": ["AS", "3S", "4S", "5S"],
        "last_leader": 0,
        "hand_sizes": [12, 11, 11, 12],
        "tricks": [1, 0],
        "score": [0, 0],
        "hand": ["QH", "2C"],
    }
    hints = {"teams": ["North/South", "East/West"]}
    text = "\n".join(views.render_view(view, hints, NAMES, 3, [3]))
    assert "trump 7♦" in text and "dealer North" in text
    assert "Trick:      East 10♥  South 2♥" in text
    assert "Last trick: North A♠  East 3♠  South 4♠  West (you) 5♠" in text
    assert "Your hand:  ♥ Q   ♣ 2" in text
    assert "To act:     West (you)" in text


def test_unknown_games_show_their_fields() -> None:
    view = {"game": "holdem", "board": ["AS", "KD"], "pot": 40, "hand": ["QS", "JC"]}
    lines = views.render_view(view, {}, ["Seat 0", "Seat 1"], 1, [0])
    assert lines == ["board   A♠ K♦", "pot     40", "hand    ♠ Q   ♣ J", "to act  Seat 0"]


def test_result_and_seat_names() -> None:
    info = {"seats": [{"seat": i, "name": n} for i, n in enumerate(NAMES)]}
    assert seat_names(info) == NAMES
    assert seat_names(None, 2) == ["Seat 0", "Seat 1"]
    res = {"summary": "partnership 0-2 wins 1-0", "scores": [1, 0, 1, 0]}
    assert result_text(res, NAMES) == (
        "partnership 0-2 wins 1-0 (scores: North 1, East 0, South 1, West 0)"
    )
    assert result_text(None, NAMES) == "no result recorded"


def test_integral_scores_print_as_integers() -> None:
    # Games keep scores as floats (poker's chips, bridge's totals): -653.0 reads -653.
    res = {"summary": "board 1", "scores": [-653.0, 653.0, -653.0, 0.5]}
    assert result_text(res, NAMES) == (
        "board 1 (scores: North -653, East 653, South -653, West 0.5)"
    )
    assert result_text({"scores": [2.0, -2.0]}, ["A", "B"]) == "scores: A 2, B -2"
    view = {"game": "x", "score": -653.0, "totals": [10.0, -10.0]}
    assert views.render_view(view, {}, NAMES, 0, []) == ["score   -653", "totals  10 -10"]


# ---------------------------------------------------------------- poker and bridge
# Views and events come straight from the games: new() plus a few apply() calls.

POKER_NAMES = ["Seat 1", "Seat 2", "Seat 3"]
POKER = PokerGame()
BRIDGE = BridgeGame()


def _poker(*moves: tuple[int, dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """Seed 7, three seats: seat 0 is the button and first to act (2♥ 4♥)."""
    state = POKER.new(POKER.parse_config({"seats": 3, "hands": 2}), 7)
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        state, more = POKER.act(state, seat, action)
        events += [e.to_json() for e in more]
    return state, events


def _bridge(*moves: tuple[int, dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """Board 1 (dealer North, nobody vulnerable), seed 1."""
    state = BRIDGE.new(BRIDGE.parse_config({}), 1)
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        state, more = BRIDGE.act(state, seat, action)
        events += [e.to_json() for e in more]
    return state, events


def _call(seat: int, call: str) -> tuple[int, dict[str, Any]]:
    return seat, {"type": "call", "call": call}


ONE_NT_BY_NORTH = [_call(0, "1NT"), _call(1, "P"), _call(2, "P"), _call(3, "P")]


def _screen(game: Any, state: Any, viewer: int, names: list[str]) -> str:
    view = game.view(state, viewer)
    hints = game.presentation.hints(view)
    return "\n".join(views.render_view(view, hints, names, viewer, list(game.to_act(state))))


def _lines(game: str, events: list[dict[str, Any]], names: list[str], me: int) -> list[str]:
    said = get_game(game).presentation.narration({}, events, me, names)
    return [line for line in said if line is not None]


def _menu(game: Any, state: Any, seat: int) -> tuple[list[views.MenuItem], dict[str, Any]]:
    view = game.view(state, seat)
    legal = game.legal(state, seat)
    return views.build_menu(legal, game.presentation.labels(view, legal)), view


POKER_SCREENS: list[tuple[str, Callable[[], tuple[Any, list[dict[str, Any]]]], list[str]]] = [
    (
        "preflop: blinds posted, markers, your cards, the raise range",
        lambda: _poker(),
        [
            "Hand 1/2 · blinds 1/2 · preflop",
            "Board: -                    Pot 3",
            "  Seat 1 (you)  stack   200            [D]",
            "  Seat 2        stack   199  bet    1  [SB]",
            "  Seat 3        stack   198  bet    2  [BB]",
            "Your cards: 2♥ 4♥",
            "You may raise to 4..200 (type 'raise N'; 'all in' for 200)",
        ],
    ),
    (
        "the flop: a folded seat, the pot collected, whose turn",
        lambda: _poker(
            (0, {"type": "raise", "to": 12}), (1, {"type": "call"}), (2, {"type": "fold"})
        ),
        ["· flop", "Board: A♥ 2♦ 4♠", "Pot 26", "[BB]     folded", "Seat 2        stack   188"],
    ),
    (
        "showdown: shown cards with the hand's name, the mucked loser, the winnings",
        lambda: _poker(
            (0, {"type": "raise", "to": 12}),
            (1, {"type": "call"}),
            (2, {"type": "fold"}),
            (1, {"type": "check"}),
            (0, {"type": "bet", "to": 188}),
            (1, {"type": "call"}),
        ),
        [
            "hand over",
            "shows 2♥ 4♥ — Two pair, fours and twos",
            "busted     mucked",
            "Won:   Seat 1 (you) 402",
        ],
    ),
]


@pytest.mark.parametrize(
    ("build", "expected"), [c[1:] for c in POKER_SCREENS], ids=[c[0] for c in POKER_SCREENS]
)
def test_poker_table_screens(
    build: Callable[[], tuple[Any, list[dict[str, Any]]]], expected: list[str]
) -> None:
    state, _ = build()
    text = _screen(POKER, state, 0, POKER_NAMES)
    for part in expected:
        assert part in text, f"{part!r} not in\n{text}"


def test_a_stack_the_history_did_not_know_reads_as_a_question_mark() -> None:
    # docs/formats.md: a PHH stack of inf is played as a covering stack, never shown.
    config = POKER.parse_config(
        {"seats": 3, "hands": 1, "stacks": [500, 500, 500], "unknown_stacks": [1]}
    )
    text = _screen(POKER, POKER.new(config, 7), 0, POKER_NAMES)
    assert re.search(r"Seat 2\s+stack\s+\?", text), text
    assert "500" in text  # the known stacks are shown


def test_poker_events_read_as_table_talk() -> None:
    _, events = _poker(
        (0, {"type": "raise", "to": 12}),
        (1, {"type": "call"}),
        (2, {"type": "fold"}),
        (1, {"type": "check"}),
        (0, {"type": "bet", "to": 188}),
        (1, {"type": "call"}),
    )
    assert _lines("poker", events, POKER_NAMES, 1) == [
        "Seat 1 raises to 12",
        "You call 11",
        "Seat 3 folds",
        "Flop: A♥ 2♦ 4♠",
        "You check",
        "Seat 1 bets 188 (all in)",
        "You call 188 (all in)",
        "Turn: A♥ 2♦ 4♠ 8♠",
        "River: A♥ 2♦ 4♠ 8♠ 10♣",
        "Seat 1 shows 2♥ 4♥ — Two pair, fours and twos",
        "You muck",
        "Seat 1 wins 402",
        "Hand 1 over",
    ]
    posts = [{"kind": "post", "seat": 2, "blind": "big", "chips": 2}]
    assert _lines("poker", posts, POKER_NAMES, 0) == ["Seat 3 posts the big blind (2)"]


def test_poker_menu_reads_call_raise_to_and_all_in_and_takes_typed_amounts() -> None:
    state, _ = _poker()
    menu, view = _menu(POKER, state, 0)
    assert [m.label for m in menu] == [
        "Fold", "Call 2", "Raise to 4", "Raise to 7", "All in (200)", "Sit out",
    ]  # fmt: skip
    cases = {
        "raise 37": {"type": "raise", "to": 37},
        "raise to 37": {"type": "raise", "to": 37},
        "bet 50": {"type": "raise", "to": 50},  # bet and raise are one word to the player
        "all in": {"type": "raise", "to": 200},
        "call": {"type": "call"},
        "raise to 7": {"type": "raise", "to": 7},
        "2": {"type": "call"},
    }
    for typed, action in cases.items():
        assert views.match_input(typed, menu, view) == action, typed
    # On the flop, first to act bets rather than raises.
    state, _ = _poker((0, {"type": "call"}), (1, {"type": "call"}), (2, {"type": "check"}))
    seat = POKER.to_act(state)[0]
    menu, view = _menu(POKER, state, seat)
    assert [m.label for m in menu][:3] == ["Check", "Bet 2", "Bet 3"]
    assert views.match_input("raise 9", menu, view) == {"type": "bet", "to": 9}


BRIDGE_SCREENS: list[tuple[str, list[tuple[int, dict[str, Any]]], int, list[str]]] = [
    (
        "the auction opens: board, dealer, vulnerability, empty grid, the hand",
        [],
        0,
        [
            "Board 1 · dealer North (you) · vulnerable: none · auction",
            "  North     East      South     West",
            "Your hand:  ♠ A Q 10 6 5 3   ♥ 10 9 8 6   ♣ A 3 2",
        ],
    ),
    (
        "the auction as a grid under the compass seats",
        [_call(0, "1C"), _call(1, "X"), _call(2, "1H")],
        3,
        [
            "  1♣        Double    1♥",
            "  North 1♣: 1C opening: 12–21 HCP, 0–4 spades, 0–4 hearts, 3+ clubs",
            "  East Double: takeout double: 12+ HCP, 3+ spades, 3+ hearts, 3+ diamonds, "
            "0–2 clubs",
            "  South 1♥: contested H: 10+ HCP, 5+ hearts",
            "To act:     West (you)",
        ],
    ),
    (
        "declarer to play dummy's card: the contract, the trick, dummy's hand",
        [*ONE_NT_BY_NORTH, (1, {"type": "play", "card": "AD"})],
        0,
        [
            "Contract: 1NT by North (you) · dummy South · tricks NS 0 – EW 0",
            "Trick:      East A♦",
            "Dummy (South): ",
            "To act:     North (you) (for dummy South)",
        ],
    ),
]


@pytest.mark.parametrize(
    ("moves", "viewer", "expected"),
    [c[1:] for c in BRIDGE_SCREENS],
    ids=[c[0] for c in BRIDGE_SCREENS],
)
def test_bridge_table_screens(
    moves: list[tuple[int, dict[str, Any]]], viewer: int, expected: list[str]
) -> None:
    state, _ = _bridge(*moves)
    text = _screen(BRIDGE, state, viewer, NAMES)
    for part in expected:
        assert part in text, f"{part!r} not in\n{text}"


def test_bridge_menu_offers_calls_and_takes_typed_calls() -> None:
    state, _ = _bridge(_call(0, "1C"))
    menu, view = _menu(BRIDGE, state, 1)
    labels = [m.label for m in menu]
    assert labels[:4] == ["Pass", "Double", "Bid 1♦", "Bid 1♥"] and labels[-1] == "Bid 7NT"
    cases: dict[str, dict[str, Any] | str] = {
        "1nt": {"type": "call", "call": "1NT"},
        "2c": {"type": "call", "call": "2C"},  # a bid, not the two of clubs
        "4♠": {"type": "call", "call": "4S"},
        "pass": {"type": "call", "call": "P"},
        "x": {"type": "call", "call": "X"},
        "xx": "xx is not a legal call now",
        "1c": "1c is not a legal call now",
    }
    for typed, expected in cases.items():
        assert views.match_input(typed, menu, view) == expected, typed


def test_bridge_declarer_plays_from_dummy_and_may_claim() -> None:
    state, _ = _bridge(*ONE_NT_BY_NORTH, (1, {"type": "play", "card": "AD"}))
    menu, view = _menu(BRIDGE, state, 0)
    dummy = {f"Play {views.render.card_text(c)} from dummy" for c in view["dummy_hand"]}
    cards = [m.label for m in menu if m.action["type"] == "play"]
    assert cards and set(cards) <= dummy  # the legal cards are dummy's, not North's
    assert menu[-1].label == "Claim 13 more tricks"
    assert views.match_input("claim 9", menu, view) == {"type": "claim", "tricks": 9}


def test_bridge_defender_claims_or_concedes_and_the_claim_shows_faced_cards() -> None:
    """A defender on turn may claim or concede (``claim 0``); while the claim is
    answered every screen shows the claimer's faced cards and who must answer."""
    state, _ = _bridge(*ONE_NT_BY_NORTH)
    menu, view = _menu(BRIDGE, state, 1)  # East is on lead
    assert menu[-1].label == "Claim 13 more tricks"
    assert views.match_input("claim 0", menu, view) == {"type": "claim", "tricks": 0}
    assert BRIDGE.presentation.labels(view, [{"type": "claim", "tricks": 0}]) == [
        "Concede all the remaining tricks"
    ]
    state, more = BRIDGE.act(state, 1, {"type": "claim", "tricks": 5})
    screen = _screen(BRIDGE, state, 3, NAMES)
    east = views.render.hand_line(BRIDGE.view(state, 1)["hand"])
    assert "claims 5 of the remaining 13 tricks" in screen
    assert f"Faced:      {east}" in screen
    assert "Answering:" in screen and "To act:" in screen
    lines = _lines("bridge", [e.to_json() for e in more], NAMES, 3)
    assert any("claims 5 of the remaining 13" in line for line in lines)


def test_bridge_events_read_as_table_talk() -> None:
    moves = [*ONE_NT_BY_NORTH, (1, {"type": "play", "card": "AD"})]
    state, events = _bridge(*moves)
    after_lead = state
    lines = _lines("bridge", events, NAMES, 2)
    assert lines[:6] == [
        "North bids 1NT — 1NT opening: 15–17 HCP, balanced",
        "East passes — pass",
        "You pass — pass 1NT: 0–7 HCP, 0–4 spades, 0–4 hearts",
        "West passes — pass",
        "Contract: 1NT by North",
        "East leads A♦",
    ]
    assert lines[6].startswith("Dummy (South (you)) goes down: ♠ ")
    # Finish the trick: the next cards are plays, not leads, and a side wins it.
    for seat in (0, 3):  # declarer North plays dummy South's card, then West
        legal = BRIDGE.legal(state, seat)
        state, more = BRIDGE.act(state, seat, legal[0])
        events += [e.to_json() for e in more]
    state, more = BRIDGE.act(state, 0, BRIDGE.legal(state, 0)[0])
    events += [e.to_json() for e in more]
    lines = _lines("bridge", events, NAMES, 2)
    # South's card, chosen by the declarer: credited to North, from dummy.
    assert re.fullmatch(r"North plays \S+ from dummy", lines[7])
    assert re.fullmatch(r"West plays \S+", lines[8])
    assert re.fullmatch(r"North plays \S+", lines[9])
    assert re.fullmatch(r"You play \S+ from dummy", _lines("bridge", events, NAMES, 0)[7])
    # Narration that starts from a view mid-play knows who declares.
    play = {"kind": "play", "seat": 2, "card": "2C"}
    line = BRIDGE.presentation.narration(BRIDGE.view(after_lead, 1), [play], 1, NAMES)
    assert line == ["North plays 2♣ from dummy"]
    assert re.fullmatch(r"(North/South|East/West) win the trick \(\w+\)  NS \d – EW \d", lines[10])


def test_a_busted_seat_between_hands_is_offered_a_rebuy_of_any_size() -> None:
    # docs/poker.md: between hands a seat out of chips may rebuy (up to the cap) or sit out.
    state = POKER.new(POKER.parse_config({"seats": 3, "hands": 3, "rebuys": True}), 7)
    for seat, action in [
        (0, {"type": "raise", "to": 12}),
        (1, {"type": "call"}),
        (2, {"type": "fold"}),
        (1, {"type": "check"}),
        (0, {"type": "bet", "to": 188}),
        (1, {"type": "call"}),
    ]:
        state, _ = POKER.act(state, seat, action)
    assert POKER.to_act(state) == (1,)
    menu, view = _menu(POKER, state, 1)
    assert [m.label for m in menu] == ["Rebuy 200", "Sit out"]
    assert views.match_input("rebuy 100", menu, view) == {"type": "rebuy", "chips": 100}
    text = _screen(POKER, state, 1, POKER_NAMES)
    assert "between hands" in text and "busted" in text


def _friends_round(seed: int) -> tuple[Any, Any]:
    """A five-seat Finding Friends round played by random legal moves until a friend
    is revealed; returns the game and the state just after the reveal."""
    from engine.rng import Rng
    from rules.tractor.game import TractorGame

    game = TractorGame()
    # Version 3's draw (every seat that could declare was asked): the seeds below
    # were chosen for what its random play gives.
    s = game.new(game.parse_config({"version": 3, "finding_friends": True, "seats": 5,
                                    "rounds": 1}), seed)
    rng = Rng(seed)
    while not any(by is not None for by in s.called_by):
        seat = rng.choice(game.to_act(s))
        s, _ = game.act(s, seat, rng.choice(game.legal(s, seat)))
    return game, s


def test_finding_friends_screen_names_the_calls_and_the_side_so_far() -> None:
    game, s = _friends_round(3)
    names = list(game.seat_names(s.config))
    assert names == ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5"]
    landlord = s.landlord
    text = _screen(game, s, 0, names)
    # Seed 3: Seat 3 declares, and answers its own call (a wasted call: no friend).
    assert landlord == 2 and s.landlord_side == {2}
    assert "\nLandlord: Seat 3; side so far: Seat 3; friends called: the 1st 10♦ (Seat 3)\n" in text
    assert "\nLevels: Seat 1 2 · Seat 2 2 · Seat 3 2 · Seat 4 2 · Seat 5 2" in text
    call = {"kind": "friends_called", "seat": landlord,
            "calls": [{"card": "AS", "nth": 1}]}
    friend = {"kind": "friend", "seat": 2, "call": 0, "card": "AS", "nth": 1, "wasted": False}
    said = _lines("tractor", [call, friend], names, 0)
    assert said[0].endswith("for friends: the 1st A♠")
    assert said[1] == "Seat 3 is a friend of the landlord, playing the 1st A♠"


def test_the_turn_clock_reads_as_time_left_and_bank() -> None:
    from clients.terminal.render import clock_line

    clock = {"seats": [0], "turn_left": 12.4, "banks": [45, 30, 0, 0]}
    # Whole seconds rounded up, as a countdown: 0s only when the time is gone.
    assert clock_line(clock, NAMES, 0) == "Clock: North (you) 13s + bank 45s"
    # Seconds after the frame: the turn's time runs out first, then the bank pays.
    assert clock_line(clock, NAMES, 0, elapsed=2.4) == "Clock: North (you) 10s + bank 45s"
    assert clock_line(clock, NAMES, 0, elapsed=20.4) == "Clock: North (you) 0s + bank 37s"
    short = {"seats": [0], "turn_left": 0.998, "banks": [1, 1, 0, 0]}
    assert clock_line(short, NAMES, 0) == "Clock: North (you) 1s + bank 1s"
    both = {"seats": [0, 1], "turn_left": 75, "banks": [0, 130, 0, 0]}
    assert clock_line(both, NAMES, 2) == "Clock: North 1m15s + bank 0s · East 1m15s + bank 2m10s"
    # No bank at the table: the turn's time only.
    plain = {"seats": [3], "turn_left": 30, "banks": [0, 0, 0, 0]}
    assert clock_line(plain, NAMES, 0) == "Clock: West 30s"
    assert clock_line(plain, NAMES, 0, banked=True) == "Clock: West 30s + bank 0s"
    assert clock_line({"seats": [], "turn_left": 0, "banks": []}, NAMES, 0) is None
    assert clock_line(None, NAMES, 0) is None


def test_a_move_made_for_a_seat_out_of_time_is_told_apart() -> None:
    from clients.terminal.render import ran_out

    clock = {"seats": [0], "turn_left": 10.0, "banks": [5.0, 0, 0, 0]}
    ours = [{"kind": "play", "seat": 0, "card": "AS"}]
    assert ran_out(clock, 0, 14.5, ours)  # all but gone when the move came
    assert not ran_out(clock, 0, 3, ours)  # plenty left: another client of ours moved
    assert not ran_out(clock, 0, 14.5, [{"kind": "play", "seat": 1, "card": "AS"}])
    assert not ran_out(clock, 1, 14.5, [{"kind": "play", "seat": 1, "card": "AS"}])  # untimed
    assert not ran_out(None, 0, 5, ours)
    assert not ran_out(clock, None, 5, ours)  # a spectator


def test_counts_of_one_are_singular_in_tractor_and_rummy() -> None:
    names = ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    failed = {"kind": "throw_failed", "seat": 1, "forced": ["3S"], "attempted": 1, "penalty": 1}
    assert _lines("tractor", [{"kind": "buried", "seat": 1, "count": 1}, failed], names, 0) == [
        "Seat 2 buries 1 card",
        "Throw failed: Seat 2 must play 3♠ (tried 1 card; 1 point penalty)",
    ]
    rummy = [{"kind": "drop", "seat": 1, "points": 1}, {"kind": "reshuffle", "cards": 1}]
    assert _lines("rummy", rummy, names, 0) == [
        "Seat 2 drops out of the deal (1 point)",
        "The stock ran out: the discard pile is shuffled into a new stock (1 card)",
    ]
    arrangement = {"melds": [{"kind": "run", "cards": ["2S", "3S", "4S"], "jokers": 0}],
                   "leftover": ["AH"], "deadwood": 1, "counted": 1, "valid": False}  # fmt: skip
    hints = get_game("rummy").presentation.hints({"variant": "indian", "arrangement": arrangement})
    assert hints["summary"] == "1 meld (1 run, 1 pure) · would be charged 1"


def test_an_imported_hands_amounts_read_in_its_files_money() -> None:
    # docs/poker.md, "Amounts": a history in dollars and cents keeps exact cents as
    # chips; the table shows them as the file wrote them, like the pot and the talk.
    config = POKER.parse_config({"seats": 2, "hands": 1, "stacks": [5000, 4975],
                                 "small_blind": 25, "big_blind": 50, "decimals": 2})
    text = _screen(POKER, POKER.new(config, 7), 0, POKER_NAMES)
    assert "blinds 0.25/0.50" in text, text
    # After the blinds: 50.00 - 0.25 and 49.75 - 0.50.
    assert re.search(r"stack 49\.75\s+bet 0\.25", text), text
    assert re.search(r"stack 49\.25\s+bet 0\.50", text), text
