"""The Tractor Game: draw and live declarations, kitty, throws, tricks, scoring, match.

Each test states the rule of docs/tractor.md ("The rules", "The Game") it checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.cards import FACES_PER_DECK, format_card, parse_face
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR, Event
from engine.rng import Rng
from rules.registry import get_game
from rules.tractor.declarations import kitty_trump_suit
from rules.tractor.game import TractorGame, sort_hand
from rules.tractor.options import TractorConfig
from rules.tractor.order import Trump
from rules.tractor.state import Phase, TractorState
from tests.rules.tractor.tractor_cases import ids

GAME = TractorGame()
STOCK = "6C 6C 7C 7C 8C 8C 9C 9C TC TC"  # two cards to draw, then the kitty
H2 = Trump(0, 2)  # current rank 2, hearts trump


def config(**options: Any) -> TractorConfig:
    return GAME.parse_config(options)


def drawing(
    hands: list[str],
    stock: str,
    *,
    cfg: TractorConfig | None = None,
    drawer: int = 0,
    landlord: int | None = None,
    levels: tuple[int, ...] = (0, 0, 0, 0),
) -> TractorState:
    """A round in the draw with the given hands and stock (first card drawn next)."""
    taken: set[int] = set()
    hs = tuple(sort_hand(ids(h, taken), Trump(levels[landlord or drawer], None)) for h in hands)
    st = ids(stock, taken)
    base = GAME.new(cfg or config(), 7)
    return replace(base, hands=hs, stock=st, drawer=drawer, starter=drawer, landlord=landlord,
                   levels=levels)


def playing(
    hands: list[str],
    *,
    kitty: str = "",
    trump: Trump = H2,
    landlord: int = 0,
    leader: int | None = None,
    cfg: TractorConfig | None = None,
    points: int = 0,
    levels: tuple[int, ...] = (0, 0, 0, 0),
) -> TractorState:
    """A round in trick play with the given hands and buried kitty."""
    taken: set[int] = set()
    hs = tuple(sort_hand(ids(h, taken), trump) for h in hands)
    buried = ids(kitty, taken) if kitty else ()
    base = GAME.new(cfg or config(), 7)
    return replace(base, phase=Phase.PLAY, stock=(), hands=hs, trump=trump, landlord=landlord,
                   starter=landlord, leader=landlord if leader is None else leader,
                   kitty=buried, points=points, levels=levels)


def act(
    state: TractorState, seat: int, kind: str, cards: str = ""
) -> tuple[TractorState, list[Event]]:
    action: dict[str, Any] = {"type": kind}
    if cards:
        action["cards"] = cards.split()
    return GAME.act(state, seat, action)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def event(events: list[Event], kind: str) -> dict[str, Any]:
    return next(e.data for e in events if e.kind == kind)


# ----------------------------------------------------------------------------
# Dealing and declaring


def test_registered_and_any_seat_may_declare_while_cards_are_drawn() -> None:
    """Dealing and declaring: while the cards are drawn one at a time, a player
    may declare by showing a current-rank card, at any time: the drawer is to
    act, and a seat holding a rank card may declare out of turn, with no pass
    to make (a pass would tell everyone it could declare)."""
    assert isinstance(get_game("tractor"), TractorGame)
    s = drawing(["3C", "2H", "4C", "5C"], STOCK)
    assert GAME.to_act(s) == (0,) and GAME.may_act(s) == (0, 1)
    assert GAME.legal(s, 0) == [{"type": "draw"}]
    assert GAME.legal(s, 1) == [{"type": "declare", "cards": ["2H"]}]
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "pass")
    assert err.value.code == "nothing_to_pass"
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "draw")
    assert err.value.code == "not_your_turn"
    s, _ = act(s, 1, "declare", "2H")
    assert s.current is not None and s.current.seat == 1 and GAME.to_act(s) == (0,)


def test_version_3_tables_asked_every_seat_that_could_declare() -> None:
    """Tables stored before options version 4 replay as played: every seat that
    could declare was to act, with declare or pass."""
    s = drawing(["3C", "2H", "4C", "5C"], STOCK, cfg=config(version=3))
    assert GAME.to_act(s) == (0, 1)
    assert GAME.legal(s, 1) == [{"type": "declare", "cards": ["2H"]}, {"type": "pass"}]


def test_a_pass_at_the_last_word_is_the_passers_secret() -> None:
    """Hidden information: only a seat that could declare passes, so a pass would
    tell everyone it holds an undeclared card of the level's rank.  Its event is
    the passer's alone, and a replay shows others neither the pass nor who made it."""
    s = drawing(["3C", "2H", "4C", "5C"], STOCK)
    s, _ = act(s, 0, "draw")
    s, _ = act(s, 1, "draw")
    assert s.stock_left == 0 and GAME.to_act(s) == (1,)  # the last word
    assert GAME.to_act_visible(s, 0) == () and GAME.to_act_visible(s, 1) == (1,)
    after, events = act(s, 1, "pass")
    (passed,) = [e for e in events if e.kind == "pass"]
    assert passed.visibility.seats == frozenset({1})
    assert GAME.action_view(after, 1, {"type": "pass"}, 1) == {"type": "pass"}
    assert GAME.action_view(after, 1, {"type": "pass"}, OMNISCIENT) == {"type": "pass"}
    for other in (0, 2, 3, SPECTATOR):
        assert GAME.action_view(after, 1, {"type": "pass"}, other) is None


def test_drawing_deals_one_card_to_the_drawer_privately() -> None:
    s = drawing(["", "", "", ""], "7D " + STOCK)
    s2, ev = act(s, 0, "draw")
    assert [format_card(c) for c in s2.hands[0]] == ["7D"]
    assert s2.drawer == 1 and s2.stock_left == 2
    drawn = next(e for e in ev if e.kind == "drawn")
    assert drawn.visibility.seats == frozenset({0}) and drawn.data["card"] == "7D"
    assert next(e for e in ev if e.kind == "draw").visibility.seats is None


def test_a_pass_declines_until_a_new_declaration_becomes_possible() -> None:
    """Version 3 (tables stored before version 4)."""
    s = drawing(["3C", "2H", "4C", "5C"], "2S 6C 6C 6D 6D 7C 7C 7D 7D 8C 8C",
                cfg=config(version=3))
    s, _ = act(s, 1, "pass")
    assert GAME.to_act(s) == (0,)
    s, _ = act(s, 0, "draw")  # seat 0 draws 2S
    assert GAME.to_act(s) == (0, 1)  # seat 0 may declare spades; seat 1 stays quiet
    s, _ = act(s, 0, "declare", "2S")
    assert GAME.to_act(s) == (1,)  # drawer is seat 1; its 2H cannot override a single
    assert GAME.legal(s, 1) == [{"type": "draw"}]
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "declare", "2H")
    assert err.value.code == "weak_declaration"


@pytest.mark.parametrize(
    ("first", "second", "ok"),
    [
        # "a pair of identical CR cards overrides a single"
        ("2H", "2S 2S", True),
        # a single never overrides a single, nor a pair another pair
        ("2H", "2S", False),
        ("2H 2H", "2S 2S", False),
        # "a pair of jokers (small < big) declares no-trump and overrides suit pairs"
        ("2H 2H", "SJ SJ", True),
        ("SJ SJ", "BJ BJ", True),
        ("BJ BJ", "SJ SJ", False),
    ],
)
def test_declaration_overrides(first: str, second: str, ok: bool) -> None:
    s = drawing(["3C", first, "4C", second], STOCK)
    s, _ = act(s, 1, "declare", first)
    if ok:
        s, ev = act(s, 3, "declare", second)
        assert s.current is not None and s.current.seat == 3
        assert ev[0].data["cards"] == second.split()
    else:
        assert GAME.to_act(s) == (0,)  # seat 3 has nothing it may declare
        with pytest.raises(IllegalAction):
            act(s, 3, "declare", second)


def test_reinforce_turns_a_single_into_a_pair_that_suit_pairs_cannot_override() -> None:
    """Option ``allow_reinforce``: the declarer may strengthen its own single into a pair."""
    hands = ["3C", "2H 2H", "4C", "2S 2S"]
    s = drawing(hands, STOCK)
    s, _ = act(s, 1, "declare", "2H")
    s, _ = act(s, 1, "declare", "2H 2H")
    assert s.current is not None and (s.current.count, s.current.seat) == (2, 1)
    with pytest.raises(IllegalAction):
        act(s, 3, "declare", "2S 2S")
    off = drawing(hands, STOCK, cfg=config(allow_reinforce=False), drawer=1)
    off, _ = act(off, 1, "declare", "2H")
    with pytest.raises(IllegalAction) as err:
        act(off, 1, "declare", "2H 2H")
    assert err.value.code == "weak_declaration"
    off, _ = act(off, 3, "declare", "2S 2S")  # another seat's pair still overrides
    assert off.current is not None and off.current.seat == 3


def test_the_last_declaration_fixes_trump_and_the_first_declarer_becomes_landlord() -> None:
    """Dealing and declaring: the declaration standing when the draw ends fixes
    trumps, and in the first round its maker becomes the landlord. The landlord
    picks up the kitty privately."""
    stock = "9C 5D KD 3S 4S 6S 7S 8S 9S"  # one card to draw, then an 8-card kitty
    s = drawing(["2H", "3C", "2S 2S", "4C"], stock)
    s, _ = act(s, 0, "declare", "2H")
    s, _ = act(s, 2, "declare", "2S 2S")
    assert GAME.to_act(s) == (0,)
    s, ev = act(s, 0, "draw")
    assert s.phase is Phase.BURY and s.landlord == 2 and s.trump == Trump(0, 3)
    assert len(s.hands[2]) == 2 + 8
    kitty = next(e for e in ev if e.kind == "kitty")
    assert kitty.visibility.seats == frozenset({2}) and len(kitty.data["cards"]) == 8
    assert event(ev, "trump") == {"landlord": 2, "rank": "2", "suit": "S"}


def test_a_seat_can_still_declare_after_the_last_card_is_drawn() -> None:
    """Live declarations run to the end of the draw: the last card drawn may declare."""
    s = drawing(["3C", "4C", "5C", "6C"], "2D 9C 5D KD 3S 4S 6S 7S 8S")
    s, _ = act(s, 0, "draw")
    assert s.phase is Phase.DRAW and GAME.to_act(s) == (0,)
    assert GAME.legal(s, 0) == [{"type": "declare", "cards": ["2D"]}, {"type": "pass"}]
    s, _ = act(s, 0, "declare", "2D")
    assert s.phase is Phase.BURY and s.trump == Trump(0, 1) and s.landlord == 0


def test_joker_pair_declares_no_trump() -> None:
    s = drawing(["SJ SJ", "3C", "4C", "5C"], "9C 5D KD 3S 4S 6S 7S 8S 9S")
    s, _ = act(s, 0, "declare", "SJ SJ")
    s, _ = act(s, 0, "draw")
    assert s.trump == Trump(0, None)


def test_later_rounds_keep_the_landlord_and_declare_the_suit_only() -> None:
    """After the first round the landlord is known; a declaration fixes the suit at
    the landlord's rank."""
    s = drawing(["3C", "5H", "5S", "4C"], "9C 5D KD 3S 4S 6S 7S 8S 9S", landlord=0,
                levels=(3, 0, 3, 0))
    assert GAME.legal(s, 1) == [{"type": "declare", "cards": ["5H"]}]
    s, _ = act(s, 1, "declare", "5H")
    s, _ = act(s, 0, "draw")
    assert s.landlord == 0 and s.trump == Trump(3, 2)


# ----------------------------------------------------------------------------
# Nobody declares


def test_no_declaration_reveals_the_kitty_to_fix_trump_by_default() -> None:
    """Dealing and declaring: if nobody declares, by default (option
    ``no_declaration``) the kitty is turned up to fix trumps."""
    s = drawing(["3C", "4C", "5C", "6C"], "9C 5D KD 2S 4S 6S 7S 8S 9S")
    s, ev = act(s, 0, "draw")
    assert event(ev, "kitty_revealed")["cards"] == ["5D", "KD", "2S", "4S", "6S", "7S", "8S", "9S"]
    assert s.trump == Trump(0, 3) and s.landlord == 0 and s.phase is Phase.BURY
    assert ev[-3].kind == "kitty_revealed"  # public, before the private pickup


@pytest.mark.parametrize(
    ("kitty", "suit"),
    [
        ("5D KD 2S 4S 6S 7S 8S 9S", 3),  # the first rank card decides
        ("5D KD 4S 6S 7S 8S 9S 3C", 1),  # none: the highest card (KD)
        ("SJ BJ 4S AC 7S AH 9S 3C", 0),  # jokers skipped; first of the equal aces
        ("SJ BJ SJ BJ", None),  # jokers only (a small kitty, or more decks): no trump suit
    ],
)
def test_kitty_trump_suit(kitty: str, suit: int | None) -> None:
    assert kitty_trump_suit(ids(kitty), 0) == suit


def test_a_kitty_of_jokers_turned_up_fixes_no_trump() -> None:
    """Nobody declared and every joker is in the kitty (a kitty of four cards, or
    three decks and more): no card fixes a suit, and the round is played at no trump."""
    s = drawing(["3C", "4C", "5C", "6C"], "9C SJ SJ BJ BJ", cfg=config(kitty_cards=4))
    s, ev = act(s, 0, "draw")
    assert event(ev, "kitty_revealed")["suit"] == "NT"
    assert s.trump == Trump(0, None) and s.phase is Phase.BURY


def test_no_declaration_redeal_policy_shuffles_again() -> None:
    """Option ``no_declaration = redeal``: the cards are dealt again."""
    s = drawing(["3C", "4C", "5C", "6C"], "9C 5D KD 2S 4S 6S 7S 8S 9S",
                cfg=config(no_declaration="redeal"))
    s2, ev = act(s, 0, "draw")
    assert kinds(ev) == ["draw", "redeal", "deal"]  # the last card drawn is not shown
    assert s2.phase is Phase.DRAW and s2.round_no == s.round_no + 1
    assert len(s2.stock) == 108 and not any(s2.hands) and s2.rounds_played == 0


# ----------------------------------------------------------------------------
# Kitty burial and visibility


def test_landlord_buries_eight_cards_seen_by_the_landlord_alone() -> None:
    """Points, kitty, scoring: the landlord picks up the 8-card kitty and buries
    8 cards; the buried cards stay hidden from everyone else until the round ends."""
    s = drawing(["2C", "4C", "5C", "6C"], "9C 5D KD 2S 4S 6S 7S 8S 9S")
    s, _ = act(s, 0, "declare", "2C")
    s, _ = act(s, 0, "draw")
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "bury", "2C 5D KD")
    assert err.value.code == "wrong_count"
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "bury", "AS AS AS AS AS AS AS AS")
    assert err.value.code == "not_in_hand"
    s, ev = act(s, 0, "bury", "9C 5D KD 4S 6S 7S 8S 9S")
    assert kinds(ev) == ["buried"] and "cards" not in ev[0].data
    assert s.phase is Phase.PLAY and s.leader == 0
    assert sorted(format_card(c) for c in s.hands[0]) == ["2C", "2S"]
    assert "kitty" in GAME.view(s, 0)
    for viewer in (1, 2, 3, SPECTATOR):
        assert "kitty" not in GAME.view(s, viewer)
        assert parse_face("KD") in GAME.secrets(s, viewer)
    assert parse_face("KD") not in GAME.secrets(s, 0)
    assert GAME.view(s, OMNISCIENT)["kitty"]


def test_random_rounds_hide_the_buried_kitty_until_the_round_ends() -> None:
    rng = Rng(3)
    s = GAME.new(config(), 11)
    while s.phase is not Phase.PLAY:
        seat = rng.choice(GAME.to_act(s))
        s, _ = GAME.act(s, seat, rng.choice(GAME.legal(s, seat)))
    landlord = s.landlord
    assert landlord is not None
    for v in range(4):
        assert ("kitty" in GAME.view(s, v)) == (v == landlord)
    while s.phase is Phase.PLAY:
        seat = GAME.to_act(s)[0]
        s, ev = GAME.act(s, seat, GAME.legal(s, seat)[0])
    assert s.phase is Phase.ROUND_OVER
    assert len(event(ev, "round_end")["kitty"]) == 8
    assert all(len(GAME.view(s, v)["kitty"]) == 8 for v in (0, 1, 2, 3, SPECTATOR))
    assert GAME.to_act(s) == (s.results[-1].next_landlord,)


# ----------------------------------------------------------------------------
# Leads, throws, following, trick winner


def test_a_throw_that_cannot_be_beaten_stands() -> None:
    s = playing(["AS AS KS 3D", "QS 4D 5D 6D", "JS JS 7D 8D", "9S 9D TD JD"])
    s, ev = act(s, 0, "play", "AS AS KS")
    assert kinds(ev) == ["play"] and len(s.trick[0].cards) == 3


def test_a_failed_throw_plays_the_forced_unit_and_says_so() -> None:
    """Units, leads and throws: a failed throw plays only a beatable unit and the
    rest goes back to the hand -- partners included; the broadcast names the
    forced unit."""
    s = playing(["QS QS AS 3D", "4D 5D 6D 7D", "KS KS 8D 9D", "TD JD QD KD"])
    s, ev = act(s, 0, "play", "QS QS AS")
    failed = event(ev, "throw_failed")
    assert failed == {"seat": 0, "attempted": 3, "forced": ["QS", "QS"], "penalty": 10}
    assert ev[0].visibility.seats is None
    assert [format_card(c) for c in s.trick[0].cards] == ["QS", "QS"]
    assert sorted(format_card(c) for c in s.hands[0]) == ["3D", "AS"]
    assert s.failed_throws == (1, 0)


@pytest.mark.parametrize(("choice", "forced"), [("smallest", ["JS"]),
                                                ("first_found", ["QS", "QS"])])
def test_throw_failure_unit_option(choice: str, forced: list[str]) -> None:
    """Option ``throw_failure_unit``: the first beatable unit found, or the smallest."""
    s = playing(["QS QS JS 3D", "KS KS 4D 5D", "6D 7D 8D 9D", "TD JD QD KD"],
                cfg=config(throw_failure_unit=choice))
    _, ev = act(s, 0, "play", "QS QS JS")
    assert event(ev, "throw_failed")["forced"] == forced


def test_follow_rules_are_enforced() -> None:
    """Following: as many cards of the led effective suit as the hand holds, up to
    the lead's size; pairs call for pairs."""
    s = playing(["KS KS 3D 4D", "QS QS 5S 5D", "6D 7D 8D 9D", "TD JD QD KD"])
    s, _ = act(s, 0, "play", "KS KS")
    for bad, code in [("QS 5D", "must_follow_suit"), ("QS 5S", "must_match_structure"),
                      ("QS", "wrong_count")]:
        with pytest.raises(IllegalAction) as err:
            act(s, 1, "play", bad)
        assert err.value.code == code
    act(s, 1, "play", "QS QS")


def test_the_challenger_must_beat_the_current_winner() -> None:
    """Winning a trick: each play must beat the play winning so far, not only the lead."""
    s = playing(["5S 3D", "9S 4D", "7S 5D", "QS 6D"])
    s, _ = act(s, 0, "play", "5S")
    s, _ = act(s, 1, "play", "9S")
    assert s.winning == 1
    s, _ = act(s, 2, "play", "7S")  # beats the leader, not the current winner
    assert s.winning == 1
    s, ev = act(s, 3, "play", "QS")
    assert event(ev, "trick")["winner"] == 3 and s.leader == 3
    assert event(ev, "trick")["points"] == 5 and s.points == 5  # attackers won the 5


def test_trumping_in_wins_and_landlord_tricks_do_not_count() -> None:
    """Trumps beat the led suit; only the points the attackers take count."""
    s = playing(["KS 3D", "5S 4D", "3H 5D", "AS 6D"])
    s, _ = act(s, 0, "play", "KS")
    s, _ = act(s, 1, "play", "5S")
    s, _ = act(s, 2, "play", "3H")
    s, ev = act(s, 3, "play", "AS")
    assert event(ev, "trick")["winner"] == 2 and s.points == 0


# ----------------------------------------------------------------------------
# End of round: kitty multiplier, penalties, level change, next landlord


def last_trick(lead: str, follows: list[str], *, winner_attacks: bool = True,
               **kw: Any) -> tuple[TractorState, dict[str, Any]]:
    """Seat 1 (an attacker) or seat 0 (the landlord) leads the round's last trick."""
    leader = 1 if winner_attacks else 0
    hands = [""] * 4
    hands[leader] = lead
    for i, f in enumerate(follows, start=1):
        hands[(leader + i) % 4] = f
    s = playing(hands, landlord=0, leader=leader, **kw)
    ev: list[Event] = []
    for i in range(4):
        seat = (leader + i) % 4
        s, ev = act(s, seat, "play", hands[seat])
    return s, event(ev, "round_end")


KITTY_15 = "KD 5S 2S 3S 4S 6S 7S 8S"


@pytest.mark.parametrize(
    ("lead", "follows", "option", "multiplier"),
    [
        # "2 × size of the largest unit in the last trick (default)"
        ("KC KC AC AC", ["3C 3C 4C 6C", "5D 6D 7D 8D", "7C 8C 9C JC"], "double_unit", 8),
        # "2^that size"
        ("KC KC AC AC", ["3C 3C 4C 6C", "5D 6D 7D 8D", "7C 8C 9C JC"], "power_unit", 16),
        # "2 × cards"
        ("KC KC AC AC", ["3C 3C 4C 6C", "5D 6D 7D 8D", "7C 8C 9C JC"], "double_cards", 8),
        ("AC AC KC", ["3C 4C 6C", "5D 6D 7D", "7C 8C 9C"], "double_unit", 4),
        ("AC AC KC", ["3C 4C 6C", "5D 6D 7D", "7C 8C 9C"], "power_unit", 4),
        ("AC AC KC", ["3C 4C 6C", "5D 6D 7D", "7C 8C 9C"], "double_cards", 6),
        ("AC", ["3C", "5D", "7C"], "double_unit", 2),
    ],
)
def test_kitty_multiplier_at_the_last_trick(
    lead: str, follows: list[str], option: str, multiplier: int
) -> None:
    """When the attackers win the last trick the kitty's points are added, multiplied."""
    _s, end = last_trick(lead, follows, kitty=KITTY_15, cfg=config(kitty_multiplier=option))
    assert end["kitty_points"] == 15 and end["kitty_multiplier"] == multiplier
    assert end["kitty_bonus"] == 15 * multiplier
    trick_points = end["trick_points"]
    assert end["attacker_points"] == trick_points + 15 * multiplier


def test_no_kitty_bonus_when_the_landlords_win_the_last_trick() -> None:
    _s, end = last_trick("AC", ["3C", "5D", "7C"], winner_attacks=False, kitty=KITTY_15)
    assert end["kitty_bonus"] == 0 and end["attacker_points"] == 0


@pytest.mark.parametrize(
    ("before", "attackers_win", "up", "team_up", "next_landlord"),
    [
        (0, False, 3, 0, 2),  # "p = 0 → landlords +3"; held: "the landlord's partner"
        (30, False, 2, 0, 2),  # 5–35 → +2
        (60, False, 1, 0, 2),  # 40–75 → +1
        (90, True, 0, 1, 1),  # 80–115 → attackers become landlords, +0; "next attacker"
        (130, True, 1, 1, 1),  # 120–155 → +1
        (170, True, 2, 1, 1),  # 160–195 → +2
        (250, True, 4, 1, 1),  # each further 40 → +1
    ],
)
def test_level_change_and_next_landlord(
    before: int, attackers_win: bool, up: int, team_up: int, next_landlord: int
) -> None:
    s, end = last_trick("AC", ["3C", "4D", "7C"], winner_attacks=False, points=before)
    assert end["attacker_points"] == before
    assert (end["attackers_win"], end["levels_up"], end["team_up"]) == (attackers_win, up,
                                                                          team_up)
    assert end["next_landlord"] == next_landlord and GAME.to_act(s) == (next_landlord,)
    levels = [0, 0, 0, 0]
    for seat in (team_up, team_up + 2):
        levels[seat] = up
    assert list(s.levels) == levels
    nxt, ev = act(s, next_landlord, "next_round")
    assert kinds(ev) == ["deal"] and nxt.landlord == next_landlord
    assert nxt.rank == levels[next_landlord] and nxt.drawer == next_landlord


def test_failed_throw_penalty_goes_to_the_other_side() -> None:
    """Option ``throw_failure_penalty`` (10 by default) per failed throw."""
    for penalty in (0, 10, 30):
        s = playing(["QS QS AS 3D", "4D 5D 6D 7D", "KS KS 8D 8D", "TD JD QD KD"],
                    cfg=config(throw_failure_penalty=penalty))
        s, _ = act(s, 0, "play", "QS QS AS")  # the landlord's throw fails
        for seat, cards in ((1, "4D 5D"), (2, "KS KS"), (3, "TD JD")):
            s, _ = act(s, seat, "play", cards)
        for seat, cards in ((2, "8D 8D"), (3, "QD KD"), (0, "AS 3D"), (1, "6D 7D")):
            s, ev = act(s, seat, "play", cards)
        assert s.points == 0  # the landlords won both tricks
        end = event(ev, "round_end")
        assert end["failed_throws"] == [1, 0] and end["attacker_points"] == penalty


def test_match_ends_when_a_side_passes_the_max_rank() -> None:
    """The match runs round after round until a side passes ``max_rank`` (A)."""
    s, _end = last_trick("AC", ["3C", "4D", "7C"], winner_attacks=False,
                        levels=(12, 10, 12, 10))
    assert s.phase is Phase.OVER and s.winner == 0 and GAME.to_act(s) == ()
    res = GAME.result(s)
    assert res is not None and res.ranks == (1, 3, 1, 3) and res.scores == (3, 0, 3, 0)
    assert "seats 0 and 2 win" in res.summary
    # max_rank 3: a side at 3 that goes up passes it
    s, _ = last_trick("AC", ["3C", "4D", "7C"], winner_attacks=False, levels=(1, 0, 1, 0),
                      cfg=config(max_rank="3"))
    assert s.phase is Phase.OVER and s.winner == 0
    # not passed yet: the match goes on
    s, _ = last_trick("AC", ["3C", "4D", "7C"], winner_attacks=False, levels=(8, 0, 8, 0))
    assert s.phase is Phase.ROUND_OVER and GAME.result(s) is None


def test_rounds_option_limits_the_match() -> None:
    assert config().rounds == 0  # default: until a side passes max_rank
    s, _ = last_trick("AC", ["3C", "4D", "7C"], winner_attacks=False, cfg=config(rounds=1))
    assert s.phase is Phase.OVER and s.winner == 0 and s.levels == (3, 0, 3, 0)


# ----------------------------------------------------------------------------
# Options, views, actions


@pytest.mark.parametrize(
    ("options", "name"),
    [({"seats": 6}, "seats"),
     ({"finding_friends": True}, "seats"),
     ({"finding_friends": True, "seats": 9}, "seats"),
     ({"rounds": -1}, "rounds"),
     ({"max_rank": "2"}, "max_rank")],
)
def test_bad_options_are_refused_naming_them(
    options: dict[str, Any], name: str
) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config(options)
    assert err.value.code == "bad_option" and name in err.value.message


def test_views_show_only_the_viewers_hand() -> None:
    s = GAME.new(config(), 5)
    rng = Rng(1)
    for _ in range(60):
        seat = rng.choice(GAME.to_act(s))
        s, _ = GAME.act(s, seat, rng.choice(GAME.legal(s, seat)))
    for v in range(4):
        view = GAME.view(s, v)
        assert view["hand"] == [format_card(c) for c in s.hands[v]]
        assert "hands" not in view and "stock" not in view
    assert "hand" not in GAME.view(s, SPECTATOR)
    omniscient = GAME.view(s, OMNISCIENT)
    assert [len(h) for h in omniscient["hands"]] == [len(h) for h in s.hands]
    assert GAME.secrets(s, SPECTATOR) >= {c % FACES_PER_DECK for c in s.stock} - {
        d.face for d in s.declarations} - {c % FACES_PER_DECK for h in s.hands for c in h}


def test_junk_actions_are_refused() -> None:
    s = drawing(["3C", "2H", "4C", "5C"], STOCK)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "play", "cards": ["3C"]}, "bad_action"),
        ({"type": "declare", "cards": ["XX"]}, "bad_card"),
        ({"type": "declare", "cards": "2H"}, "bad_action"),
        ({"type": "declare", "cards": ["3C"]}, "weak_declaration"),
        ({"type": "declare", "cards": ["2S"]}, "not_in_hand"),
        ({"type": "pass"}, "nothing_to_pass"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as err:
            GAME.act(s, 0, action)
        assert err.value.code == code, action


def test_who_could_declare_is_not_shown_to_others_during_the_draw():
    """Being able to declare reveals a rank card in hand: views and the server's
    to_act show each viewer only the drawer and itself."""
    from engine.events import SPECTATOR
    from rules.tractor import TractorGame

    game = TractorGame()
    config = game.parse_config({})
    for seed in range(40):
        state = game.new(config, seed)
        for _ in range(120):
            acting = game.to_act(state)
            if not acting or state.phase.value != "draw":
                break
            # The drawer while cards are drawn; at the last word nobody draws.
            drawer = {state.drawer} & set(acting) if state.stock_left > 0 else set()
            for viewer in (*range(4), SPECTATOR):
                shown = set(game.to_act_visible(state, viewer))
                assert shown == drawer | ({viewer} & set(acting))
                assert set(game.view(state, viewer)["to_act"]) == shown
            seat = acting[0]
            state, _ = game.act(state, seat, game.legal(state, seat)[0])


def test_a_decided_round_may_end_early() -> None:
    """Option ``early_end`` (default on; shengji's "end game early"): between tricks,
    once no remaining card, kitty or penalty can change the level result, the
    seat to lead may end the round; it is scored as it stands."""
    s = playing(["3C", "4C", "6C", "7C"], kitty="3D 4D 6D 7D 8D 9D JD QD")
    assert {"type": "end_round"} in GAME.legal(s, 0)
    s, ev = act(s, 0, "end_round")
    assert kinds(ev)[:2] == ["round_ended_early", "round_end"]
    assert event(ev, "round_end")["levels_up"] == 3 and s.phase is Phase.ROUND_OVER
    # Points still in play (a king) keep the round open.
    open_round = playing(["3C", "KC", "6C", "7C"], kitty="3D 4D 6D 7D 8D 9D JD QD")
    assert {"type": "end_round"} not in GAME.legal(open_round, 0)
    with pytest.raises(IllegalAction) as err:
        act(open_round, 0, "end_round")
    assert err.value.code == "not_decided"
    off = playing(["3C", "4C", "6C", "7C"], cfg=config(early_end=False))
    with pytest.raises(IllegalAction):
        act(off, 0, "end_round")
