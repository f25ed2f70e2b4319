"""Lead decomposition and follow rules, table-driven from docs/tractor.md ("The rules")."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction
from rules.tractor.order import Trump, tables
from rules.tractor.structure import (
    Template,
    a_legal_follow,
    check_follow,
    check_lead,
    conforms,
    degradation_chain,
    get_structure,
    profile,
    satisfies,
)
from tests.rules.tractor.paper_reference import (
    formal_exists,
    greedy_runs,
    has_phi_tie,
    paper_get_structure,
    paper_same_structure,
)
from tests.rules.tractor.tractor_cases import ids, make_case

C, D, H, S = range(4)
CR2_HEARTS = Trump(0, H)
CR2_DIAMONDS = Trump(0, D)
CRJ_HEARTS = Trump(9, H)


def T(tractors: tuple[int, ...] = (), pairs: int = 0, singles: int = 0) -> Template:
    return Template(tractors, pairs, singles)


# ---------------------------------------------------------------------------
# getStructure: "decompose a lead greedily into the longest tractors, then
# pairs, then singles; this is the lead's requirement template."

STRUCTURES = [
    # (trump, lead, template, rule)
    (CR2_HEARTS, "AS AS KS KS QS", T((2,), 0, 1), "tractor = two or more consecutive pairs"),
    (CR2_HEARTS, "AS AS KS KS QS QS", T((3,)), "tractor of three pairs"),
    (CRJ_HEARTS, "TS TS QS QS", T((2,)), "at CR = J, 10 and Q are adjacent"),
    (CR2_HEARTS, "7S 7S 9S 9S", T((), 2), "a gap breaks the tractor"),
    (CR2_HEARTS, "AS KS", T((), 0, 2), "pair = two identical cards"),
    (CR2_DIAMONDS, "AD AD 2C 2C 2D 2D SJ SJ BJ BJ", T((5,)),
     "chains run S_m A -> off-suit CR -> S_m CR -> SJ -> BJ"),
    (CR2_DIAMONDS, "2C 2C 2H 2H", T((), 2), "off-suit CR pairs are not consecutive"),
    (CR2_DIAMONDS, "2C 2H", T((), 0, 2), "equal-valued different cards are never a pair"),
    (CR2_DIAMONDS, "AD AD 2C 2C 2H 2H 2D 2D", T((3,), 1), "one off-suit CR pair per tractor"),
    (CR2_HEARTS, "3S 3S 4S 4S 6S 6S 7S 7S 8S 8S", T((3, 2)), "longest tractors first"),
    (CR2_HEARTS, "3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 9C 9C TC TC JC JC QC QC KC KC AC AC",
     T((12,)), "a 24-card tractor: the whole suit"),
    (Trump(4, None), "6H 6S 6S SJ SJ BJ BJ", T((3,), 0, 1), "no trump: CR pair chains to SJ"),
]


@pytest.mark.parametrize(("trump", "lead", "template", "rule"), STRUCTURES)
def test_get_structure(trump: Trump, lead: str, template: Template, rule: str) -> None:
    s = check_lead(ids(lead), trump)
    assert s.template == template, rule
    assert sorted(c for u in s.units for c in u.cards) == sorted(ids(lead))
    assert [u.pairs for u in s.units][: len(template.tractors)] == list(template.tractors)


def test_a_lead_must_lie_in_one_effective_suit() -> None:
    """A lead must lie in one effective suit: all trumps, or all one side suit."""
    with pytest.raises(IllegalAction) as e:
        check_lead(ids("AS KD"), CR2_HEARTS)
    assert e.value.code == "mixed_suits"
    check_lead(ids("2S 2D 3H BJ"), CR2_HEARTS)  # all trump: fine


def test_get_structure_equals_the_paper_on_random_leads() -> None:
    """Algorithm 2 where Φ has no ties, the §4.1 wording everywhere."""
    rnd = random.Random(3)
    for i in range(5_000):
        case = make_case(rnd, long_lead=i % 3 == 0)
        t = tables(case.trump)
        got = get_structure(case.lead, case.trump).template
        want = greedy_runs(case.lead, t.phi)
        assert (sorted(2 * n for n in got.tractors), got.pairs, got.singles) == (
            sorted(want[0]), want[1], want[2])
        if not has_phi_tie(case.lead, t.phi):
            lt, lp, ls = paper_get_structure(case.lead, t.phi)
            assert (sorted(lt), lp, ls) == (sorted(want[0]), want[1], want[2])


def test_algorithm_2_misses_tractors_through_tied_rank_cards() -> None:
    """Why Φ ties use the formal criterion as reference: Algorithm 2 scans windows of
    the sorted array, so with K, A, 2C, 2H, 2D, SJ pairs under trump diamonds it
    finds KK-AA-2C2C and 2H2H-2D2D-SJSJ, and Algorithm 3 then rejects a play that
    the rule accepts: K-A-2C-2D-SJ is a tractor of five pairs and 2H2H a pair."""
    trump = CR2_DIAMONDS
    t = tables(trump)
    lead = ids("3D 3D 4D 4D 5D 5D 6D 6D 7D 7D 9D 9D")
    play = ids("KD KD AD AD 2C 2C 2H 2H 2D 2D SJ SJ")
    assert get_structure(lead, trump).template == T((5,), 1)
    assert conforms(lead, play, trump)
    assert formal_exists((10, 2), play, t.phi)
    ft, fp, fs = paper_get_structure(play, t.phi)
    assert (ft, fp, fs) == ([6, 6], 0, 0)
    assert not paper_same_structure((10, 2), tuple(ft), fp, fs)


# ---------------------------------------------------------------------------
# Degradation


def test_degradation_chain_shortens_the_longest_tractor_then_splits_pairs() -> None:
    assert degradation_chain(T((3,), 0, 1)) == [
        T((3,), 0, 1), T((2,), 1, 1), T((), 3, 1), T((), 2, 3), T((), 1, 5), T((), 0, 7)]
    chain = degradation_chain(T((4, 2), 1, 2))
    assert chain[:4] == [T((4, 2), 1, 2), T((3, 2), 2, 2), T((2, 2), 3, 2), T((2,), 5, 2)]
    assert chain[-1] == T((), 0, 16)
    assert all(t.cards == 16 for t in chain)


@pytest.mark.parametrize(
    ("cards", "template", "ok", "rule"),
    [
        ("9S 9S 8S 8S 3S", T((2,), 0, 1), True, "a tractor meets a tractor"),
        ("9S 9S 7S 7S 3S", T((2,), 0, 1), False, "two pairs are not a tractor"),
        ("9S 9S 8S 8S", T((), 2), True, "a tractor supplies pairs"),
        ("9S 9S 8S 3S", T((), 1, 2), True, "pairs supply singles"),
        ("9S 9S 8S 8S 7S 7S 5S 5S 4S 4S", T((3, 2)), True, "two tractors from two runs"),
        ("9S 9S 8S 8S 7S 7S 6S 6S 4S 4S", T((3, 2)), False, "a run of 4 + a pair: no 3+2"),
        ("9S 9S 8S 8S 7S 7S 6S 6S 5S 5S", T((3, 2)), True, "one run of 5 holds 3 + 2"),
    ],
)
def test_satisfies(cards: str, template: Template, ok: bool, rule: str) -> None:
    assert satisfies(template, profile(ids(cards), CR2_HEARTS)) is ok, rule


# ---------------------------------------------------------------------------
# Following: (lead, hand, play, code or None, rule)

FOLLOWS = [
    ("AS", "KS 3H", "KS 3H", "wrong_count", "Play exactly as many cards as the lead."),
    ("AS", "KS 3H", "3H", "must_follow_suit",
     "Follow the led effective suit with as many cards as you have in it"),
    ("AS", "3H 4D", "4D", None, "void in it, play anything (trump or discard)"),
    ("AS", "3H 4D", "3H", None, "void in it, play anything (trump or discard)"),
    ("AS AS", "KS 3H 4D", "KS 4D", None, "as many cards as you have in it"),
    ("AS AS", "KS 3H 4D", "3H 4D", "must_follow_suit", "as many cards as you have in it"),
    ("3H", "2S AS", "AS", "must_follow_suit", "the led effective suit: CR cards are trump"),
    ("3H", "2S AS", "2S", None, "the led effective suit: CR cards are trump"),
    ("KS KS", "QS QS 9S 3S", "QS 9S", "must_match_structure", "pairs draw pairs"),
    ("KS KS", "QS QS 9S 3S", "QS QS", None, "pairs draw pairs"),
    ("KS KS QS QS", "9S 9S 8S 8S 4S 4S 3S", "9S 9S 4S 4S", "must_match_structure",
     "tractors of the lead draw your tractors"),
    ("KS KS QS QS", "9S 9S 8S 8S 4S 4S 3S", "9S 9S 8S 8S", None,
     "tractors of the lead draw your tractors"),
    ("KS KS QS QS", "9S 9S 4S 4S 3S", "9S 9S 4S 3S", "must_match_structure",
     "tractors of the lead draw your tractors, then your pairs"),
    ("KS KS QS QS", "9S 9S 4S 4S 3S", "9S 9S 4S 4S", None,
     "tractors of the lead draw your tractors, then your pairs"),
    ("KS KS 8S 8S", "9S 9S TS TS 3S 4S", "9S 9S TS TS", None,
     "A longer unit may fill a shorter slot (a tractor supplies pairs)"),
    ("KS KS 8S 8S", "9S 9S TS TS 3S 4S", "9S 9S 3S 4S", "must_match_structure",
     "pairs draw pairs"),
    ("KS KS QS QS", "9S 8S 7S 6S 5S", "9S 7S 6S 5S", None,
     "only when the hand cannot supply a structure may you fall back to lower ones"),
    ("KS KS QS QS JS JS", "9S 9S 8S 8S 4S 4S 3S 5S", "9S 9S 8S 8S 4S 4S", None,
     "tractors draw your tractors (a shorter one), then your pairs"),
    ("KS KS QS QS JS JS", "9S 9S 8S 8S 4S 4S 3S 5S", "9S 9S 4S 4S 8S 3S",
     "must_match_structure", "tractors draw your tractors (a shorter one), then your pairs"),
    ("AS KS KS", "QS QS JS TS", "QS JS TS", "must_match_structure",
     "a throw's pair draws a pair"),
    ("AS KS KS", "QS QS JS TS", "QS QS JS", None, "a throw's pair draws a pair"),
    ("AS AS KS KS", "3S 4S 6S 6S 3H", "3S 4S 6S 6S", None,
     "with no more cards of the suit than the lead, all of them are played"),
    ("AS AS KS KS", "3S 3H 3H 4H 4H", "3S 3H 4H 4H", None,
     "void in the rest: trump or discard freely"),
]


@pytest.mark.parametrize(("lead", "hand", "play", "code", "rule"), FOLLOWS)
def test_follow(lead: str, hand: str, play: str, code: str | None, rule: str) -> None:
    taken: set[int] = set()
    lead_ids = ids(lead, taken)
    hand_ids = ids(hand, taken)
    by_face = {c % 54: c for c in hand_ids}
    seen: set[int] = set()
    play_ids = []
    for c in ids(play):  # resolve each played face to a copy in the hand
        cands = [h for h in hand_ids if h % 54 == c % 54 and h not in seen]
        play_ids.append(cands[0] if cands else by_face.get(c % 54, c))
        seen.add(play_ids[-1])
    if code is None:
        check_follow(lead_ids, hand_ids, play_ids, CR2_HEARTS)
    else:
        with pytest.raises(IllegalAction) as e:
            check_follow(lead_ids, hand_ids, play_ids, CR2_HEARTS)
        assert e.value.code == code, rule


def test_cards_must_come_from_the_hand() -> None:
    with pytest.raises(IllegalAction) as e:
        check_follow(ids("AS"), ids("KS"), ids("QS"), CR2_HEARTS)
    assert e.value.code == "not_in_hand"


# ---------------------------------------------------------------------------
# Conformance: "Only plays that are wholly in the led suit or wholly trump and
# conform to the lead's template can win."

CONFORMS = [
    ("KS KS", "3H 3H", True, "a trump pair conforms to a pair"),
    ("KS KS", "3H 4H", False, "two trump singles do not"),
    ("KS KS", "3S 3H", False, "led suit and trump mixed"),
    ("KS KS QS QS", "3H 3H 4H 4H", True, "a trump tractor conforms to a tractor"),
    ("KS KS QS QS", "3H 3H 5H 5H", False, "two trump pairs do not"),
    ("AS KS KS", "3H 4H 4H", True, "a throw: pair + single"),
    ("AS KS KS", "3H 4H 5H", False, "a throw's pair needs a pair"),
    ("AS KS", "QS QS", True, "a pair supplies two singles"),
]


@pytest.mark.parametrize(("lead", "play", "ok", "rule"), CONFORMS)
def test_conforms(lead: str, play: str, ok: bool, rule: str) -> None:
    assert conforms(ids(lead), ids(play), CR2_HEARTS) is ok, rule


def test_two_tractors_may_share_the_tied_rank_value() -> None:
    """AD-2C and 2H-2D are two tractors under trump diamonds at CR 2."""
    lead = ids("3D 3D 4D 4D 6D 6D 7D 7D")
    assert conforms(lead, ids("AD AD 2C 2C 2H 2H 2D 2D"), CR2_DIAMONDS)
    assert not conforms(lead, ids("AD AD 2C 2C 2H 2H 2S 2S"), CR2_DIAMONDS)


def test_a_legal_follow_plays_the_lowest_cards_that_meet_the_duty() -> None:
    taken: set[int] = set()
    lead = ids("KS KS QS QS", taken)
    hand = ids("9S 9S 8S 8S 4S 4S 3S AH", taken)
    assert sorted(a_legal_follow(lead, hand, CR2_HEARTS)) == sorted(ids("9S 9S 8S 8S"))
    short = ids("5S 3D 4D 6C 7C", taken)  # one spade: play it, then the lowest others
    assert sorted(a_legal_follow(lead, short, CR2_HEARTS)) == sorted(ids("5S 3D 4D 6C"))


def test_the_follow_check_reads_the_leads_template_and_the_duty_as_defined() -> None:
    """The check's shortcuts (the lead's template from its profile, the chain
    walked only as far as the hand's pairs allow) give what the definitions
    give: the decomposition's template, and the first element of the
    degradation chain the hand's cards of the suit can satisfy."""
    from rules.tractor.order import FACES_PER_DECK
    from rules.tractor.structure import _led, required_template

    rnd = random.Random(11)
    for i in range(4_000):
        case = make_case(rnd, long_lead=i % 3 == 0)
        led = get_structure(case.lead, case.trump, pairs_only=True)
        assert _led(case.lead, case.trump) == (led.suit, led.template)
        suit = tables(case.trump).suit
        in_suit = [c for c in case.hand if suit[c % FACES_PER_DECK] == led.suit]
        if len(in_suit) < led.template.cards:
            continue
        held = profile(in_suit, case.trump)
        first = next(t for t in degradation_chain(led.template) if satisfies(t, held))
        assert required_template(led.template, held) == first
