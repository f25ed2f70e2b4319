"""Tuples of any width and the draw policies, table-driven from docs/tractor.md
("Tuples and draw policies"), with three and four decks."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import FACES_PER_DECK, parse_faces
from engine.errors import IllegalAction
from rules.tractor.options import BombPolicy, TrickComparison, TrickDrawPolicy
from rules.tractor.order import Trump
from rules.tractor.play_rules import PlayRules
from rules.tractor.tuples import (
    a_legal_follow_tuples,
    can_beat_tuple,
    check_follow_tuples,
    decompose,
    decomposition_chain,
    describe,
)

H = 2
TRUMP = Trump(0, H)  # rank 2, hearts trump: spades and clubs are plain suits
NP = TrickDrawPolicy.NO_PROTECTIONS
LTP = TrickDrawPolicy.LONGER_TUPLES_PROTECTED
OTT = TrickDrawPolicy.ONLY_DRAW_TRACTOR_ON_TRACTOR
BOTH = TrickDrawPolicy.LONGER_TUPLES_PROTECTED_AND_ONLY_TRACTOR_ON_TRACTOR
NFD = TrickDrawPolicy.NO_FORMAT_BASED_DRAW


class Deal:
    """Card ids for spellings, each repeat of a face taking the next free copy
    (up to four decks), shared across a lead, hands and plays."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, text: str) -> tuple[int, ...]:
        out = []
        for f in parse_faces(text):
            c = next(f + k * FACES_PER_DECK for k in range(4)
                     if f + k * FACES_PER_DECK not in self.used)
            self.used.add(c)
            out.append(c)
        return tuple(out)


def pick(hand: tuple[int, ...], text: str) -> tuple[int, ...]:
    """The cards of ``hand`` spelled ``text`` (repeats take further copies)."""
    left = list(hand)
    out = []
    for f in parse_faces(text):
        c = next(c for c in left if c % FACES_PER_DECK == f)
        left.remove(c)
        out.append(c)
    return tuple(out)


@pytest.mark.parametrize(
    ("lead", "shapes"),
    [
        ("5S 5S 5S", [(3,)]),  # a triple is one unit
        ("5S 5S 5S 5S", [(4,)]),  # a quadruple is one unit
        ("5S 5S 5S 6S 6S 6S", [(3, 3)]),  # a tractor of triples
        # Five cards: a tractor of pairs (4 cards) beats a triple (3) as the
        # largest unit; the third 5 is a single.
        ("5S 5S 5S 6S 6S", [(2, 2), (1,)]),
        ("AS AS AS KS", [(3,), (1,)]),
        ("9S 9S 9S 9S JS JS JS", [(4,), (3,)]),  # 10 missing: no tractor
        ("9S 9S TS TS JS JS 3S", [(2, 2, 2), (1,)]),
    ],
)
def test_a_lead_is_cut_into_tuples(lead: str, shapes: list[tuple[int, ...]]) -> None:
    """Units are tuples of any width and rectangular tractors of them, the
    biggest unit first (docs/tractor.md, "Tuples and draw policies")."""
    assert list(decompose(Deal()(lead), TRUMP).shapes) == shapes


def test_the_decomposition_chain_is_shengjis() -> None:
    """A quadruple degrades to a triple and a single, then (when new adjacency is
    allowed) a tractor of pairs, then two pairs, ... (rbtying/shengji's order)."""
    assert decomposition_chain(((4,),))[1:] == (
        ((3,), (1,)), ((2, 2),), ((2,), (2,)), ((2,), (1,), (1,)), ((1,),) * 4)
    assert decomposition_chain(((4,),), False)[1:] == (
        ((3,), (1,)), ((2,), (2,)), ((2,), (1,), (1,)), ((1,),) * 4)
    assert decomposition_chain(((2, 2), (3,), (2,)))[1] == ((3,), (2,), (2,), (2,))
    assert describe(((3, 3), (2,), (1,), (1,))) == (
        "tractor of 2 triples + pair + 2 × single")


# (policy, lead, hand, play, legal) -- the hand holds the play; a lead in spades.
FOLLOWS: list[tuple[TrickDrawPolicy, str, str, str, bool]] = [
    # A triple led must be followed by a triple if held...
    (NP, "5S 5S 5S", "9S 9S 9S 7S 8S", "9S 9S 9S", True),
    (NP, "5S 5S 5S", "9S 9S 9S 7S 8S", "9S 7S 8S", False),
    # ...else it degrades: a pair and a single,
    (NP, "5S 5S 5S", "9S 9S 7S 8S 3C", "9S 9S 7S", True),
    (NP, "5S 5S 5S", "9S 9S 7S 8S 3C", "9S 7S 8S", False),
    # and with no pair, any three of the suit.
    (NP, "5S 5S 5S", "9S 7S 8S 6S", "9S 7S 8S", True),
    # No protections: a triple is broken to supply a pair.
    (NP, "5S 5S", "9S 9S 9S 7S", "9S 9S", True),
    (NP, "5S 5S", "9S 9S 9S 7S", "9S 7S", False),
    # Longer tuples protected: the triple need not be broken...
    (LTP, "5S 5S", "9S 9S 9S 7S", "9S 7S", True),
    # ...but a real pair still must be played (or the triple broken by choice),
    (LTP, "5S 5S", "9S 9S 9S 7S 7S 8S", "7S 7S", True),
    (LTP, "5S 5S", "9S 9S 9S 7S 7S 8S", "9S 9S", True),
    (LTP, "5S 5S", "9S 9S 9S 7S 7S 8S", "9S 8S", False),
    # and a whole triple cannot stand in for a pair slot while a real pair is
    # left in the hand (shengji: the pair slot counts as filled only by a play
    # of exactly two copies).
    (LTP, "5S 5S AS", "9S 9S 9S 7S 7S 8S", "9S 9S 9S", False),
    (NP, "5S 5S AS", "9S 9S 9S 7S 7S 8S", "9S 9S 9S", True),
    (LTP, "5S 5S AS", "9S 9S 9S 7S 7S 8S", "7S 7S 9S", True),
    # A quadruple led draws a tractor of pairs under no protections...
    (NP, "5S 5S 5S 5S", "7S 7S 8S 8S TS TS 3S", "7S 7S 8S 8S", True),
    (NP, "5S 5S 5S 5S", "7S 7S 8S 8S TS TS 3S", "7S 7S TS TS", False),
    # ...but only tractors draw tractors under that policy: two pairs will do.
    (OTT, "5S 5S 5S 5S", "7S 7S 8S 8S TS TS 3S", "7S 7S TS TS", True),
    (BOTH, "5S 5S 5S 5S", "7S 7S 8S 8S TS TS 3S", "7S 7S TS TS", True),
    # A tractor still draws a tractor under only-tractor-on-tractor.
    (OTT, "5S 5S 6S 6S", "7S 7S 8S 8S TS TS 3S", "7S 7S TS TS", False),
    # No format-based draw: only the suit counts.
    (NFD, "5S 5S", "9S 9S 7S 8S", "7S 8S", True),
    (NFD, "5S 5S", "9S 9S 7S 3C", "7S 3C", False),  # suit still first
    # A tractor of triples led: a tractor of triples follows when held.
    (NP, "3S 3S 3S 4S 4S 4S", "9S 9S 9S TS TS TS QS", "9S 9S 9S TS TS TS", True),
    (NP, "3S 3S 3S 4S 4S 4S", "9S 9S 9S TS TS TS QS", "9S 9S 9S TS TS QS", False),
]


@pytest.mark.parametrize(("policy", "lead", "hand", "play", "legal"), FOLLOWS)
def test_following_tuples_under_each_draw_policy(policy: TrickDrawPolicy, lead: str, hand: str,
                                                 play: str, legal: bool) -> None:
    deal = Deal()
    led = decompose(deal(lead), TRUMP)
    cards = deal(hand)
    played = pick(cards, play)
    rules = PlayRules(True, policy)
    assert rules.is_legal_follow(led, cards, played, TRUMP) is legal
    # The hint the game and the bots use is always legal under the same policy.
    hint = a_legal_follow_tuples(led, cards, TRUMP, policy)
    check_follow_tuples(led, cards, hint, TRUMP, policy)


def test_follow_errors_name_the_rule() -> None:
    deal = Deal()
    led = decompose(deal("5S 5S 5S"), TRUMP)
    hand = deal("9S 9S 9S 7S 8S 3C")
    with pytest.raises(IllegalAction) as err:
        check_follow_tuples(led, hand, pick(hand, "9S 7S 8S"), TRUMP)
    assert err.value.code == "must_match_structure" and "triple" in err.value.message
    with pytest.raises(IllegalAction) as err:
        check_follow_tuples(led, hand, pick(hand, "9S 7S 3C"), TRUMP)
    assert err.value.code == "must_follow_suit"
    with pytest.raises(IllegalAction) as err:
        check_follow_tuples(led, hand, pick(hand, "9S 7S"), TRUMP)
    assert err.value.code == "wrong_count"


@pytest.mark.parametrize(
    ("lead", "plays", "winner"),
    [
        # A higher triple beats a triple; a pair and a single do not conform.
        ("5S 5S 5S", ["9S 9S 9S"], 1),
        ("5S 5S 5S", ["9S 9S AS"], 0),
        # Trumping a triple needs a trump triple.
        ("5S 5S 5S", ["3H 3H 3H", "4H 4H 4H"], 2),
        ("5S 5S 5S", ["3H 3H 4H"], 0),
        # A quadruple beats a lower quadruple; a tractor of pairs is not one.
        ("5S 5S 5S 5S", ["7S 7S 8S 8S", "KS KS KS KS"], 2),
        # Tractor of triples against a higher one.
        ("3S 3S 3S 4S 4S 4S", ["9S 9S 9S TS TS TS"], 1),
    ],
)
def test_the_trick_goes_to_the_highest_conforming_play(lead: str, plays: list[str],
                                                       winner: int) -> None:
    deal = Deal()
    all_plays = [deal(lead), *(deal(p) for p in plays)]
    led = decompose(all_plays[0], TRUMP)
    assert PlayRules(True).winner(led, all_plays, TRUMP) == winner


def test_largest_unit_first_skips_a_throws_singles() -> None:
    """shengji's "trick unit length": in a throw, singles are not compared."""
    deal = Deal()
    lead = deal("5S 5S 5S AS")  # a triple and a single (a throw that stood)
    trumps = deal("9H 9H 9H 3H")  # a higher triple, a lower single
    led = decompose(lead, TRUMP)
    rules = PlayRules(True, comparison=TrickComparison.LARGEST_UNIT_FIRST)
    # Trump over the led suit wins regardless; compare two trump plays instead.
    higher = deal("TH TH TH 4H")
    assert rules.winner(led, [lead, trumps, higher], TRUMP) == 2
    lower_triple = deal("6H 6H 6H AH")  # lower triple, higher single
    assert rules.winner(led, [lead, trumps, lower_triple], TRUMP) == 1


@pytest.mark.parametrize(
    ("unit", "other", "beaten"),
    [
        ("5S 5S 5S", "6S 6S 6S", True),
        ("5S 5S 5S", "6S 6S AS", False),  # a pair does not beat a triple
        ("5S 5S 5S", "4S 4S 4S 4S", False),  # lower
        ("5S 5S 5S 6S 6S 6S", "9S 9S 9S TS TS TS", True),
        ("5S 5S 5S 6S 6S 6S", "9S 9S 9S TS TS JS", False),
        ("5S 5S 5S 5S", "KS KS KS KS", True),
    ],
)
def test_a_throw_unit_is_beaten_only_by_the_same_shape(unit: str, other: str,
                                                       beaten: bool) -> None:
    """A unit of a throw can be beaten by a higher unit of the same shape held
    by another hand (docs/tractor.md, "Units, leads and throws")."""
    deal = Deal()
    u = decompose(deal(unit), TRUMP).units[0]
    assert can_beat_tuple(u, deal(other), TRUMP, 3) is beaten


# ----------------------------------------------------------------------------
# Bombs (docs/tractor.md, "Bombs")

AB = BombPolicy.ALLOW_BOMBS
ABS = BombPolicy.ALLOW_BOMBS_SUIT_FOLLOWING


@pytest.mark.parametrize(
    ("bombs", "hand", "play", "legal"),
    [
        # Not a bomb rule: four of a plain suit may not be played while holding spades.
        (BombPolicy.NO_BOMBS, "7C 7C 7C 7C 9S 9S 8S 8S", "7C 7C 7C 7C", False),
        # allow_bombs: a bomb may be played whatever was led...
        (AB, "7C 7C 7C 7C 9S 9S 8S 8S", "7C 7C 7C 7C", True),
        # ...allow_bombs_suit_following: another plain suit's bomb only when void,
        (ABS, "7C 7C 7C 7C 9S 9S 8S 8S", "7C 7C 7C 7C", False),
        (ABS, "7C 7C 7C 7C 3D", "7C 7C 7C 7C", True),
        # but a trump bomb, or a bomb of the led suit, always.
        (ABS, "3H 3H 3H 3H 9S 9S 8S 8S", "3H 3H 3H 3H", True),
        (ABS, "QS QS QS QS 9S 9S 8S 8S", "QS QS QS QS", True),
    ],
)
def test_bomb_policy_follows(bombs: BombPolicy, hand: str, play: str, legal: bool) -> None:
    deal = Deal()
    led = decompose(deal("5S 5S 6S 6S"), TRUMP)
    cards = deal(hand)
    assert PlayRules(True, bombs=bombs).is_legal_follow(led, cards, pick(cards, play),
                                                        TRUMP) is legal


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        # A bomb beats a trump tractor; a later non-bomb never beats a bomb.
        (["3H 3H 4H 4H", "7C 7C 7C 7C", "BJ BJ SJ SJ"], 2),
        # Between bombs: a higher one of the same suit, or a trump one, wins.
        (["7C 7C 7C 7C", "8C 8C 8C 8C"], 2),
        (["7C 7C 7C 7C", "6H 6H 6H 6H"], 2),
        (["7C 7C 7C 7C", "8D 8D 8D 8D"], 1),  # two plain suits: the first stays
    ],
)
def test_bombs_win_tricks(plays: list[str], winner: int) -> None:
    deal = Deal()
    all_plays = [deal("5S 5S 6S 6S"), *(deal(p) for p in plays)]
    led = decompose(all_plays[0], TRUMP)
    assert PlayRules(True, bombs=AB).winner(led, all_plays, TRUMP) == winner
    # Without bombs the trump tractor (or nobody) holds.
    assert PlayRules(True).winner(led, all_plays[:2], TRUMP) in (0, 1)


def test_the_classic_api_cuts_three_copies_into_tuples() -> None:
    """The module-level functions (get_structure, check_follow, conforms,
    a_legal_follow) hand three or more copies of a face to the tuple rules, so a
    triple is one unit whichever entry point is used."""
    from rules.tractor.structure import a_legal_follow, check_follow, conforms, get_structure

    deal = Deal()
    lead = deal("5S 5S 5S")
    assert get_structure(lead, TRUMP).shapes == ((3,),)
    hand = deal("9S 9S 9S 7S 8S")
    with pytest.raises(IllegalAction):
        check_follow(lead, hand, pick(hand, "9S 7S 8S"), TRUMP)
    check_follow(lead, hand, pick(hand, "9S 9S 9S"), TRUMP)
    assert conforms(lead, pick(hand, "9S 9S 9S"), TRUMP)
    assert not conforms(lead, pick(hand, "9S 9S 7S"), TRUMP)
    assert sorted(a_legal_follow(lead, hand, TRUMP)) == sorted(pick(hand, "9S 9S 9S"))
    # The version-1 rules keep pairs: the triple is a pair and a single.
    assert get_structure(lead, TRUMP, pairs_only=True).template.pairs == 1


@pytest.mark.parametrize("options", [
    {}, {"trick_draw_policy": "longer_tuples_protected"}, {"bomb_policy": "allow_bombs"}])
def test_two_decks_follow_alike_whatever_the_draw_and_bomb_policies(
    options: dict[str, Any],
) -> None:
    """With two decks no face is held three times, so the draw and bomb policies have
    nothing to rule on: "the hand can follow with 5 pairs" stands under each (version
    4 tables switched to the tuple engine on them, which let the J♣ pair stay back)."""
    from tests.rules.tractor.test_tractor_game import act, config, playing

    s = playing(["3C 3C 4C 4C 5C 5C 7C 7C 8C 8C 3D", "2C 2C 6C 6C 9C 9C JC JC AC AC KC",
                 "3S 4S 5S 6S 7S 8S 9S TS JS 3H 4H", "4D 5D 6D 7D 8D 9D TD JD KD AD 5H"],
                trump=Trump(10, 3), cfg=config(**options))
    assert not s.config.tuple_rules
    s, _ = act(s, 0, "play", "3C 3C 4C 4C 5C 5C 7C 7C 8C 8C")
    with pytest.raises(IllegalAction, match="5 pairs"):
        act(s, 1, "play", "2C 2C 6C 6C 9C 9C AC AC JC KC")
    assert config(version=4, **options).tuple_rules == bool(options)
