"""Declaration (bid) policies, table-driven from docs/tractor.md ("Dealing and
declaring", "Bid policies"), after rbtying/shengji's bidding rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.cards import format_card
from engine.errors import IllegalAction
from engine.events import Event
from rules.tractor.declarations import declaration_options
from rules.tractor.game import TractorGame, sort_hand
from rules.tractor.order import Trump
from rules.tractor.state import TractorState
from tests.rules.tractor.test_tractor_tuples import Deal

GAME = TractorGame()
STOCK = "6C 7C 8C 9C TC JC QC KC AC 3D 4D 5D 6D 7D 8D 9D"  # draws left, then the kitty


def drawing(hands: list[str], **options: Any) -> TractorState:
    """A first-round draw with these hands (four decks unless told), seat 0 to draw."""
    deal = Deal()
    hs = tuple(sort_hand(deal(h), Trump(0, None)) for h in hands)
    cfg = GAME.parse_config({"deck_count": 4, **options})
    base = GAME.new(cfg, 7)
    return replace(base, hands=hs, stock=deal(STOCK), drawer=0, starter=0, landlord=None)


def act(state: TractorState, seat: int, kind: str, cards: str = ""
        ) -> tuple[TractorState, list[Event]]:
    action: dict[str, Any] = {"type": kind}
    if cards:
        action["cards"] = cards.split()
    return GAME.act(state, seat, action)


def options(state: TractorState, seat: int) -> set[str]:
    return {" ".join([format_card(f)] * n) for f, n in declaration_options(state, seat)}


HANDS = ["3C", "2C 2C 2C 2S 2S SJ SJ BJ BJ", "2H 2H", "2D 2D 2D 2D"]


def test_every_length_up_to_the_copies_held_may_be_declared() -> None:
    """With four decks a declaration may show 1 to 4 copies; jokers need two
    (``joker_bid_policy`` both_two_or_more, the default)."""
    s = drawing(HANDS)
    assert options(s, 1) == {"2S", "2S 2S", "2C", "2C 2C", "2C 2C 2C", "SJ SJ", "BJ BJ"}


@pytest.mark.parametrize(
    ("policy", "first", "second", "ok"),
    [
        # More cards always override.
        ("joker_or_greater_length", "2H 2H", "2C 2C 2C", True),
        ("greater_length", "2H 2H", "2C 2C 2C", True),
        # As many cards: a joker pair beats a suit pair, a big-joker pair a small one...
        ("joker_or_greater_length", "2H 2H", "SJ SJ", True),
        ("joker_or_greater_length", "2H 2H", "2S 2S", False),
        ("greater_length", "2H 2H", "SJ SJ", False),
        # ...and under joker_or_higher_suit a higher suit of two or more (hearts < spades).
        ("joker_or_higher_suit", "2H 2H", "2S 2S", True),
        ("joker_or_higher_suit", "2H 2H", "2C 2C", False),
        # A triple of a suit beats a joker pair: more cards.
        ("joker_or_greater_length", "SJ SJ", "2C 2C 2C", True),
    ],
)
def test_bid_policy(policy: str, first: str, second: str, ok: bool) -> None:
    """Option ``bid_policy`` (shengji's JokerOrGreaterLength, JokerOrHigherSuit,
    GreaterLength): which declaration overrides the standing one."""
    hands = ["3C", "2C 2C 2C 2S 2S SJ SJ", "2H 2H", "4C"]
    s = drawing(hands, bid_policy=policy)
    if first.startswith("SJ"):
        s = drawing(["3C", "2C 2C 2C", "SJ SJ", "4C"], bid_policy=policy)
    s, _ = act(s, 2, "declare", first)
    if ok:
        s, _ = act(s, 1, "declare", second)
        assert s.current is not None and s.current.seat == 1
    else:
        with pytest.raises(IllegalAction) as err:
            act(s, 1, "declare", second)
        assert err.value.code == "weak_declaration"


@pytest.mark.parametrize(
    ("policy", "small", "big"),
    [
        ("both_two_or_more", {"SJ SJ", "SJ SJ SJ"}, {"BJ BJ", "BJ BJ BJ"}),
        ("both_num_decks", set(), set()),  # four decks: four of a joker, held three
        ("small_num_decks_big_one_less", set(), {"BJ BJ BJ"}),
    ],
)
def test_joker_bid_policy(policy: str, small: set[str], big: set[str]) -> None:
    """Option ``joker_bid_policy``: how many jokers declare no trump."""
    s = drawing(["3C", "SJ SJ SJ BJ BJ BJ", "4C", "5C"], joker_bid_policy=policy)
    assert options(s, 1) == small | big


def test_reinforce_while_winning() -> None:
    """Default ``bid_reinforcement``: the standing declarer may only add copies
    of its card; overridden, it may bid anything stronger."""
    s = drawing(["3C", "2C 2C 2C 2S 2S", "2H 2H", "4C"])
    s, _ = act(s, 1, "declare", "2C")
    assert options(s, 1) == {"2C 2C", "2C 2C 2C"}
    s, _ = act(s, 2, "declare", "2H 2H")
    assert options(s, 1) == {"2C 2C 2C"}


def test_overturn_or_reinforce_while_winning() -> None:
    """``overturn_or_reinforce_while_winning``: the standing declarer may also
    switch to any stronger declaration."""
    s = drawing(["3C", "2C 2C 2C 2S 2S", "2H 2H", "4C"],
                bid_reinforcement="overturn_or_reinforce_while_winning")
    s, _ = act(s, 1, "declare", "2C")
    assert options(s, 1) == {"2C 2C", "2C 2C 2C", "2S 2S"}


def test_reinforce_while_equivalent() -> None:
    """``reinforce_while_equivalent``: overridden, a seat may bring its card up to
    as many copies as the standing declaration (not a joker one), and stands."""
    s = drawing(["3C", "2C 2C 2C 2S", "2H 2H", "SJ SJ"],
                bid_reinforcement="reinforce_while_equivalent")
    s, _ = act(s, 1, "declare", "2C")
    s, _ = act(s, 2, "declare", "2H 2H")
    assert options(s, 1) == {"2C 2C", "2C 2C 2C"}
    s, _ = act(s, 1, "declare", "2C 2C")
    assert s.current is not None and s.current.seat == 1
    s, _ = act(s, 3, "declare", "SJ SJ")
    assert "2C 2C" not in options(s, 1)  # not against jokers


def test_bid_takeback() -> None:
    """Option ``bid_takeback``: the standing declarer may withdraw its declaration;
    the one before stands again and the shown cards stay public."""
    s = drawing(["3C", "2C 2C", "2H 2H 2H", "4C"], bid_takeback=True)
    s, _ = act(s, 1, "declare", "2C 2C")
    s, _ = act(s, 2, "declare", "2H 2H 2H")
    assert {"type": "takeback_bid"} in GAME.legal(s, 2)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "takeback_bid")
    assert err.value.code in ("nothing_to_take_back", "not_your_turn")
    s, ev = act(s, 2, "takeback_bid")
    assert s.current is not None and s.current.seat == 1
    assert ev[0].kind == "takeback_bid" and ev[0].data["cards"] == ["2H", "2H", "2H"]
    assert {c % 54 for c in s.retracted} == {13 * 2}
    off = drawing(["3C", "2C 2C", "2H 2H 2H", "4C"])
    off, _ = act(off, 2, "declare", "2H")
    with pytest.raises(IllegalAction):
        act(off, 2, "takeback_bid")


def test_two_deck_declarations_are_unchanged() -> None:
    """Two decks under the defaults keep single < pair < small-joker pair <
    big-joker pair (docs/tractor.md, "Dealing and declaring")."""
    s = drawing(["3C", "2C 2C SJ SJ", "2H 2H BJ BJ", "4C"], deck_count=2)
    s, _ = act(s, 1, "declare", "2C 2C")
    assert options(s, 2) == {"BJ BJ"}  # a hearts pair does not override a clubs pair
    s, _ = act(s, 2, "declare", "BJ BJ")
    assert options(s, 1) == set()


@pytest.mark.parametrize(("policy", "landlord"), [("by_winning_bid", 2), ("by_first_bid", 1)])
def test_first_landlord_policy(policy: str, landlord: int) -> None:
    """Option ``first_landlord``: in the first round the landlord is the seat whose
    declaration fixed trump, or (``by_first_bid``) the first seat that declared."""
    s = drawing(["3C", "2C", "2H 2H", "4C"], first_landlord=policy, deck_count=2)
    s = replace(s, stock=s.stock[:9])  # one card left to draw, then the kitty
    s, _ = act(s, 1, "declare", "2C")
    s, _ = act(s, 2, "declare", "2H 2H")
    s, _ = act(s, 0, "draw")
    while s.phase.value == "draw":
        seat = GAME.to_act(s)[0]
        s, _ = GAME.act(s, seat, GAME.legal(s, seat)[-1])
    assert s.landlord == landlord and s.trump is not None and s.trump.suit == 2
