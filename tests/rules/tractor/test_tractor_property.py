"""Property tests: the production follow checker against the paper's search.

Rule under test (docs/tractor.md, "Following"): the play must match the
template at least as well as the best play the hand could have made.  The
production checker answers it without the
paper's n! search; the references in ``paper_reference`` answer it with
Algorithms 2-4 (and, where two off-suit CR faces share a Φ value, with the
§3.2 criterion searched card by card -- see ``test_phi_ties_follow_the_formal_criterion``
for why Algorithm 2's sorted-window scan cannot be the reference there).
"""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import FACES_PER_DECK
from engine.rng import Rng
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.structure import (
    Template,
    a_legal_follow,
    check_follow,
    conforms,
    is_legal_follow,
    profile,
    satisfies,
)
from tests.rules.tractor.paper_reference import (
    formal_exists,
    greedy_runs,
    has_phi_tie,
    linearize,
    paper_get_structure,
    paper_legal,
    paper_same_structure,
)
from tests.rules.tractor.tractor_cases import faces_by_suit, make_case, take_faces

LEGALITY_CASES = 100_000


def _in_suit(cards: tuple[int, ...], led: int, suit: tuple[int, ...]) -> list[int]:
    return [c for c in cards if suit[c % FACES_PER_DECK] == led]


def test_production_follow_check_equals_paper_search_on_100k_cases() -> None:
    rnd = random.Random(20260122)
    outcomes: Counter[tuple[bool, bool, bool]] = Counter()
    long_leads = 0
    for i in range(LEGALITY_CASES):
        case = make_case(rnd, long_lead=i % 10 == 0)
        t = tables(case.trump)
        led = t.suit[case.lead[0] % FACES_PER_DECK]
        got = is_legal_follow(case.lead, case.hand, case.play, case.trump)
        tie = has_phi_tie(_in_suit(case.lead + case.hand, led, t.suit), t.phi)
        want = paper_legal(case.lead, case.hand, case.play, t.phi, t.suit, exact=tie)
        assert got == want, case
        duty = len(_in_suit(case.hand, led, t.suit)) > len(case.lead)
        outcomes[(got, duty, tie)] += 1
        long_leads += len(case.lead) >= 12
    # The cases must exercise both answers where the structure duty applies,
    # the Φ-tie path, and long throws; otherwise this test proves little.
    assert outcomes[(True, True, False)] > 10_000
    assert outcomes[(False, True, False)] > 5_000
    assert outcomes[(False, True, True)] + outcomes[(True, True, True)] > 2_000
    assert long_leads > 8_000


def _long_throw_play(rnd: random.Random, trump: Trump, led: int, lead: list[int]) -> list[int]:
    """A same-size play wholly in the led suit or wholly trump, disjoint from the lead."""
    free = set(range(2 * FACES_PER_DECK)) - set(lead)
    suit = TRUMP if led != TRUMP and rnd.random() < 0.6 else led
    play = take_faces(rnd, faces_by_suit(trump)[suit], free, 1.0,
                      rnd.choice((0.5, 0.8, 1.0)), len(lead))
    return play


def test_conformance_of_long_mixed_throws_equals_paper_search() -> None:
    """Rule: "Only plays that ... conform to the lead's template can win."

    Long throws (12..25 cards, mixed tractors/pairs/singles) against plays of
    the same size: Algorithm 3 on the two templates versus ``conforms``.
    """
    rnd = random.Random(5)
    seen: Counter[bool] = Counter()
    checked = 0
    while checked < 6_000:
        trump = Trump(rnd.randrange(13), rnd.choice((0, 1, 2, 3, None)))
        t = tables(trump)
        led = TRUMP if rnd.random() < 0.3 else rnd.randrange(4)
        if not faces_by_suit(trump)[led]:
            continue
        free = set(range(2 * FACES_PER_DECK))
        lead = take_faces(rnd, faces_by_suit(trump)[led], free, 1.0,
                          rnd.choice((0.6, 0.8, 0.9, 1.0)), 25)
        play = _long_throw_play(rnd, trump, led, lead)
        if len(lead) < 12 or len(play) != len(lead):
            continue
        checked += 1
        got = conforms(lead, play, trump)
        lt, lp, ls = paper_get_structure(lead, t.phi)
        blocks = linearize(lt, lp, ls)
        if has_phi_tie(play, t.phi) or has_phi_tie(lead, t.phi):
            want = formal_exists(linearize(*greedy_runs(lead, t.phi)), play, t.phi)
        else:
            ft, fp, fs = paper_get_structure(play, t.phi)
            want = paper_same_structure(blocks, tuple(ft), fp, fs)
        assert got == want, (trump, lead, play)
        seen[got] += 1
    assert seen[True] > 500 and seen[False] > 500


def _tie_rich_set(rnd: random.Random, trump: Trump) -> list[int]:
    """Trump cards around the CR value, where two or three CR pairs share one Φ."""
    t = tables(trump)
    faces = [f for f in faces_by_suit(trump)[TRUMP] if t.phi[f] >= 20 or rnd.random() < 0.3]
    free = set(range(2 * FACES_PER_DECK))
    return take_faces(rnd, tuple(faces), free, 0.9, 0.85, rnd.randrange(4, 20))


def test_phi_ties_follow_the_formal_criterion() -> None:
    """Rule: "off-suit CR cards share one Φ value but different off-suit CR pairs
    are not consecutive with each other" -- yet each may chain with its
    neighbours.  ``satisfies`` must equal the §3.2 criterion searched card by
    card on sets where two or more CR pairs share one Φ value."""
    rnd = random.Random(11)
    ties = 0
    for _ in range(20_000):
        trump = Trump(rnd.randrange(13), rnd.choice((0, 1, 2, 3, None)))
        cards = _tie_rich_set(rnd, trump)
        tractors = tuple(sorted((rnd.randrange(2, 5) for _ in range(rnd.randrange(0, 3))),
                                reverse=True))
        template = Template(tractors, rnd.randrange(0, 3), rnd.randrange(0, 3))
        if not cards or template.cards > len(cards):
            continue
        t = tables(trump)
        blocks = linearize([2 * n for n in template.tractors], template.pairs, template.singles)
        assert satisfies(template, profile(cards, trump)) == formal_exists(blocks, cards, t.phi)
        ties += has_phi_tie(cards, t.phi)
    assert ties > 5_000


def test_a_legal_follow_is_always_accepted() -> None:
    """Game.legal and the bots build follows with ``a_legal_follow``; every one
    must pass ``check_follow`` -- the lowest-cards choice and random choices."""
    rnd = random.Random(8)
    rng = Rng(8)
    for i in range(15_000):
        case = make_case(rnd, long_lead=i % 10 == 0)
        for choice in (None, rng):
            play = a_legal_follow(case.lead, case.hand, case.trump, choice)
            check_follow(case.lead, case.hand, play, case.trump)
