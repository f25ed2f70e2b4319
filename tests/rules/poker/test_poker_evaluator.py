"""The hand evaluator against the rule text (docs/poker.md, "Hand ranking").

Every five-card hand is checked against a naive evaluator written here from the
rules alone; seven- and six-card hands against the best-five-of-k definition; a
few thousand hands against phevaluator and treys (test-only peers).
"""

from __future__ import annotations

from itertools import combinations, pairwise

import numpy as np
import pytest

from engine.cards import face_of, format_face, parse_face
from rules.poker import Category, HandError, category, describe, evaluate, evaluate_batch
from rules.poker.equity import combinations_array
from rules.poker.tables.cactus import cactus_tables, card_word, prime_hash
from rules.poker.tables.classes import HandClass, all_classes

# "2,598,960 five-card hands": straight flush, quads, full house, flush, straight,
# trips, two pair, pair, high card.
HANDS_PER_CATEGORY = (40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540)
CLASSES_PER_CATEGORY = (10, 156, 156, 1277, 10, 858, 858, 2860, 1277)


@pytest.fixture(scope="module")
def all_five() -> np.ndarray:
    hands = combinations_array(52, 5)
    assert hands.shape == (2_598_960, 5)
    return hands


@pytest.fixture(scope="module")
def all_five_classes(all_five: np.ndarray) -> np.ndarray:
    return evaluate_batch(all_five)


def naive_scores(hands: np.ndarray) -> np.ndarray:
    """A score that grows with hand strength, computed from the rules alone.

    Category first; then the ranks sorted by (how many of that rank, rank), compared
    highest first; a straight is compared by its top card, the wheel's being the five
    ("A-2-3-4-5 is the lowest straight").
    """
    ranks, suits = hands % 13, hands // 13
    ranks = np.sort(ranks, axis=1)
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    order = np.sort(counts * 16 + ranks, axis=1)[:, ::-1]  # most repeated, then highest
    tiebreak = np.zeros(len(hands), dtype=np.int64)
    for j in range(5):
        tiebreak = tiebreak * 13 + order[:, j] % 16
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (counts == 1).all(axis=1)
    wheel = distinct & (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = distinct & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    top = np.where(wheel, 3, ranks[:, 4]).astype(np.int64)
    most = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1) // 2
    strength = np.select(
        [
            straight & flush,
            most == 4,
            (most == 3) & (pairs == 1),
            flush,
            straight,
            most == 3,
            pairs == 2,
            pairs == 1,
        ],
        [8, 7, 6, 5, 4, 3, 2, 1],
        default=0,
    )
    tiebreak = np.where(straight, top * 13**4, tiebreak)
    return strength.astype(np.int64) * 13**5 + tiebreak


def test_all_five_card_hands_fall_into_exactly_7462_classes(all_five_classes):
    assert all_five_classes.min() == 1 and all_five_classes.max() == 7462
    assert np.unique(all_five_classes).size == 7462


def test_category_counts_of_all_five_card_hands(all_five_classes):
    bounds = np.cumsum((0, *CLASSES_PER_CATEGORY))
    hands = [
        ((all_five_classes > lo) & (all_five_classes <= hi)).sum() for lo, hi in pairwise(bounds)
    ]
    assert tuple(hands) == HANDS_PER_CATEGORY
    counted = np.bincount([category(int(r)) - 1 for r in range(1, 7463)])
    assert tuple(counted) == CLASSES_PER_CATEGORY


def test_every_five_card_hand_agrees_with_the_naive_evaluator(all_five, all_five_classes):
    # Class n is the n-th strongest distinct naive score, on all 2,598,960 hands.
    scores = naive_scores(all_five.astype(np.int64))
    distinct, position = np.unique(-scores, return_inverse=True)
    assert distinct.size == 7462
    assert np.array_equal(position + 1, all_five_classes)


def test_class_list_matches_the_rule_text():
    classes = all_classes()
    assert len(classes) == 7462
    assert classes[0] == HandClass(Category.STRAIGHT_FLUSH, (12,))  # royal flush
    assert classes[-1].category is Category.HIGH_CARD and classes[-1].ranks == (5, 3, 2, 1, 0)


def random_hands(rng: np.random.Generator, n: int, k: int, deck: int = 52) -> np.ndarray:
    """n hands of k distinct cards drawn from faces 0..deck-1 (rejection of repeats)."""
    out: list[np.ndarray] = []
    while sum(len(x) for x in out) < n:
        draw = rng.integers(0, deck, size=(2 * n, k))
        s = np.sort(draw, axis=1)
        out.append(draw[(np.diff(s, axis=1) != 0).all(axis=1)])
    return np.concatenate(out)[:n]


def best_of_subsets(hands: np.ndarray) -> np.ndarray:
    """The definition: the best five-card class among all five-card subsets."""
    subsets = np.array(list(combinations(range(hands.shape[1]), 5)))
    best = np.full(len(hands), 10_000, dtype=np.int64)
    for sub in subsets:
        best = np.minimum(best, evaluate_batch(hands[:, sub]))
    return best


def test_seven_cards_equal_the_best_of_21_subsets_on_a_million_hands():
    rng = np.random.default_rng(7)
    hands = random_hands(rng, 1_000_000, 7)
    assert np.array_equal(evaluate_batch(hands), best_of_subsets(hands))


def test_seven_and_six_cards_from_two_suits_stress_flushes():
    # Random hands rarely hold a flush (about 3%); cards from two suits nearly always
    # do, with many straight flushes and flush-versus-full-house conflicts.
    rng = np.random.default_rng(8)
    for k in (6, 7):
        hands = random_hands(rng, 200_000, k, deck=26) + 26  # hearts and spades
        got = evaluate_batch(hands)
        assert np.array_equal(got, best_of_subsets(hands))
        assert (got <= 10).any()  # straight flushes were exercised


def test_six_cards_equal_the_best_of_6_subsets():
    rng = np.random.default_rng(6)
    hands = random_hands(rng, 300_000, 6)
    assert np.array_equal(evaluate_batch(hands), best_of_subsets(hands))


def test_single_hand_agrees_with_the_batch_for_ids_spellings_and_second_deck():
    rng = np.random.default_rng(5)
    for k in (5, 6, 7):
        hands = random_hands(rng, 3000, k)
        batch = evaluate_batch(hands)
        copies = rng.integers(0, 2, size=hands.shape) * 54
        for row, want, copy in zip(hands, batch, copies, strict=True):
            ids = [int(x) for x in row]
            assert evaluate(ids) == want
            assert evaluate([format_face(f) for f in ids]) == want
            assert evaluate([f + c for f, c in zip(ids, copy, strict=True)]) == want
        assert np.array_equal(evaluate_batch(hands + copies), batch)


def test_spellings_accepted_by_the_card_parser():
    assert evaluate("AS KS QS JS TS") == 1
    assert evaluate(["A♠", "K♠", "Q♠", "J♠", "10♠"]) == 1
    assert evaluate(["as", "ks", "qs", "js", "ts", "2d", "3c"]) == 1
    assert evaluate([np.int64(parse_face(c)) for c in ["7C", "5D", "4H", "3S", "2C"]]) == 7462


@pytest.mark.parametrize(
    "cards",
    [
        ["AS", "AS", "KD", "QC", "JH"],  # a repeated card
        [0, 54, 1, 2, 3],  # the same face from two decks
        ["AS", "KD", "QC", "JH", "TS", "AS"],
        ["2S", "3S", "4S", "5S", "2S", "7S", "8S"],
        ["AS", "KS", "QS", "JS", "BJ"],  # a joker
        ["AS", "KS", "QS", "JS"],  # too few
        ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],  # too many
        ["AS", "KS", "QS", "JS", "XX"],
        [-1, 1, 2, 3, 4],
    ],
)
def test_bad_hands_are_refused(cards):
    with pytest.raises(ValueError):
        evaluate(cards)


def test_bad_batches_are_refused():
    with pytest.raises(HandError):
        evaluate_batch(np.array([[0, 1, 2, 3, 3]]))
    with pytest.raises(HandError):
        evaluate_batch(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(HandError):
        evaluate_batch(np.array([[0, 1, 2, 3]]))
    with pytest.raises(HandError):
        evaluate_batch(np.array([[0, 1, 2, 3, -4]]))
    with pytest.raises(HandError):
        evaluate_batch(np.array([[0.0, 1, 2, 3, 4]]))


def test_repeated_card_in_a_flush_is_refused():
    # Five cards of one suit with a repeated card reach Cactus Kev's flush branch.
    with pytest.raises(HandError):
        evaluate(["AS", "AS", "KS", "QS", "JS"])


def test_differential_against_phevaluator():
    import phevaluator
    rng = np.random.default_rng(11)
    for k in (5, 6, 7):
        hands = random_hands(rng, 3000, k)
        ours = evaluate_batch(hands)
        for row, mine in zip(hands, ours, strict=True):
            names = [_peer_spelling(int(f)) for f in row]
            assert phevaluator.evaluate_cards(*names) == mine, names


def test_differential_against_treys():
    import treys
    evaluator = treys.Evaluator()
    rng = np.random.default_rng(12)
    for k in (5, 7):
        hands = random_hands(rng, 2000, k)
        ours = evaluate_batch(hands)
        for row, mine in zip(hands, ours, strict=True):
            cards = [treys.Card.new(_peer_spelling(int(f))) for f in row]
            assert evaluator.evaluate(cards[:2], cards[2:]) == mine


def _peer_spelling(face: int) -> str:
    text = format_face(face)
    return text[0] + text[1].lower()


def test_cactus_kev_card_words():
    # The layout xxxbbbbb bbbbbbbb cdhsrrrr xxpppppp (docs/poker.md, "Five cards"): king of diamonds
    # has rank bit K, suit bit d, rank 11 and prime 37.
    assert card_word(parse_face("KD")) == 0b00001000_00000000_01001011_00100101
    assert card_word(parse_face("5D")) == 0b00000000_00001000_01000011_00000111


def test_perfect_hash_gives_each_repeated_rank_product_its_own_slot():
    ck = cactus_tables()
    ph = prime_hash()
    assert ck.products.size == 4888
    slots = ph.slots(ck.products)
    assert np.unique(slots).size == 4888
    assert np.array_equal(ph.table[slots], ck.values)
    assert ph.table.size == 8192  # a lookup reads one slot: no search


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ("AS KS QS JS TS", "Royal flush"),
        ("5H 4H 3H 2H AH", "Straight flush, five high"),
        ("9C 9D 9H 9S 2C", "Four of a kind, nines"),
        ("KS KD KH 5C 5D", "Full house, kings over fives"),
        ("AD JD 9D 4D 2D", "Flush, ace high"),
        ("TC 9D 8H 7S 6C", "Straight, ten high"),
        ("5C 4D 3H 2S AC", "Straight, five high"),
        ("7C 7D 7H KS 2C", "Three of a kind, sevens"),
        ("AS AD 7C 7H KD", "Two pair, aces and sevens"),
        ("QS QD 9C 4H 2D", "Pair of queens"),
        ("AS JD 9C 4H 2D", "High card, ace"),
    ],
)
def test_describe_names_the_class(cards, text):
    assert describe(evaluate(cards)) == text


def test_describe_with_kickers_and_categories():
    two_pair = describe(evaluate("AS AD 7C 7H KD"), kickers=True)
    assert two_pair == "Two pair, aces and sevens, K kicker"
    assert describe(evaluate("AD JD 9D 4D 2D"), kickers=True) == "Flush, ace high (A-J-9-4-2)"
    assert category(1) is Category.STRAIGHT_FLUSH
    assert category(10) is Category.STRAIGHT_FLUSH and category(11) is Category.FOUR_OF_A_KIND
    assert category(1609) is Category.STRAIGHT and category(1610) is Category.THREE_OF_A_KIND
    assert category(7462) is Category.HIGH_CARD
    for bad in (0, 7463):
        with pytest.raises(ValueError):
            category(bad)


def test_face_of_second_deck_ids_is_what_the_evaluator_reads():
    assert face_of(54 + 12) == 12
    assert evaluate([12 + 54, 11, 10 + 54, 9, 8]) == evaluate([12, 11, 10, 9, 8])
