"""Equity and the showdown report (rules/poker/equity.py).

Exact results are compared with brute force written here (itertools over the
remaining deck, one hand at a time through ``evaluate``); Monte Carlo results with
known values and with the exact answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from engine.cards import parse_faces
from rules.poker import HandError, equity, evaluate, parse_range, showdown_report
from rules.poker.equity import combinations_array


def brute_force(
    hands: list[list[list[int]]], board: list[int], dead: Sequence[int] = ()
) -> list[float]:
    """Equity by listing every compatible holding choice and every board completion."""
    used = set(board) | set(dead)
    shares = [0.0] * len(hands)
    deals = 0
    for holes in product(*hands):
        cards = [c for h in holes for c in h]
        if len(set(cards)) != len(cards) or used & set(cards):
            continue
        rest = [c for c in range(52) if c not in used and c not in cards]
        for extra in combinations(rest, 5 - len(board)):
            full = list(board) + list(extra)
            ranks = [evaluate(list(h) + full) for h in holes]
            best = min(ranks)
            winners = [i for i, r in enumerate(ranks) if r == best]
            for i in winners:
                shares[i] += 1 / len(winners)
            deals += 1
    return [s / deals for s in shares]


def fixed(text: str) -> list[list[int]]:
    """The one holding of "AhKh"."""
    return [parse_faces([text[:2], text[2:]])]


def test_aces_against_kings_preflop_is_about_82_percent():
    # The usual figure for AA v KK (all suit combinations): 81.9%.
    result = equity(["AA", "KK"], samples=200_000, seed=1)
    assert not result.exact
    assert result.equity[0] == pytest.approx(0.819, abs=0.004)


def test_aces_against_kings_preflop_enumerated_exactly():
    # All 1,712,304 boards; phevaluator enumerating the same boards one by one gives
    # 1,391,341 / 1,712,304 (wins 1,388,072, splits 6,538).
    result = equity(["AsAh", "KdKc"])
    assert result.exact and result.deals == comb(48, 5)
    assert result.equity[0] == pytest.approx(1391341 / 1712304, abs=1e-12)
    assert result.win[0] == pytest.approx(1388072 / 1712304, abs=1e-12)
    assert result.tie[0] == pytest.approx(6538 / 1712304, abs=1e-12)


def test_turn_three_hands_exact_matches_brute_force():
    hands = ["AhKh", "QsQd", "7c8c"]
    board = parse_faces("2h 7h Tc 9d")
    result = equity(hands, board)
    assert result.exact and result.deals == 52 - 4 - 6
    want = brute_force([fixed(h) for h in hands], board)
    assert result.equity == pytest.approx(want, abs=1e-12)
    assert sum(result.equity) == pytest.approx(1.0)


def test_river_split_pot():
    # The board plays (a royal flush on board): everyone splits.
    result = equity(["2c3d", "4h5s"], board="AS KS QS JS TS")
    assert result.exact and result.deals == 1
    assert result.equity == (0.5, 0.5) and result.tie == (1.0, 1.0) and result.win == (0.0, 0.0)


def test_flop_ranges_exact_match_brute_force():
    board = parse_faces("Qh 7c 2d")
    ranges = ["QQ+,AKs", "JJ,AQo"]
    result = equity(ranges, board)
    assert result.exact
    holds = [[list(c) for c in parse_range(r).combos] for r in ranges]
    want = brute_force(holds, board)
    assert result.equity == pytest.approx(want, abs=1e-12)


def test_dead_cards_are_removed_from_the_deck():
    board = parse_faces("2h 7h Tc 9d")
    dead = parse_faces("Jh 8s")
    result = equity(["AhKh", "QsQd"], board, dead=dead)
    assert result.deals == 52 - 4 - 2 - 4
    want = brute_force([fixed("AhKh"), fixed("QsQd")], board, dead)
    assert result.equity == pytest.approx(want, abs=1e-12)


def test_monte_carlo_agrees_with_exact_and_is_seeded():
    board = parse_faces("Qh 7c 2d")
    hands = ["AhKh", "JsTs", "99"]
    exact = equity(hands, board)
    sampled = equity(hands, board, samples=100_000, seed=3)
    assert not sampled.exact and sampled.deals == 100_000
    assert sampled.equity == pytest.approx(exact.equity, abs=0.01)
    again = [equity(hands, board, samples=20_000, seed=s) for s in (3, 3, 4)]
    assert again[0] == again[1] and again[0] != again[2]


def test_holdings_that_share_a_card_are_never_dealt_together():
    # On this river AdQd makes a flush and wins; AsQs loses to either king pair.  Of
    # the four choices only three are possible (AsKs and AsQs share the ace of
    # spades), and the first player wins one of them: equity 1/3, not 2/4.
    hands = ["AsKs,AhKh", "AsQs,AdQd"]
    board = "2d 5d 9d Kc 7h"
    assert equity(hands, board).equity[0] == pytest.approx(1 / 3, abs=1e-12)
    sampled = equity(hands, board, samples=30_000, seed=2)
    assert sampled.equity[0] == pytest.approx(1 / 3, abs=0.015)


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["AhKh", "AhQd"], "", ""),  # the same card in two hands
        (["AhKh", "QsQd"], "Ah 2c 3d", ""),  # a hand card on the board
        (["AhKh", "QsQd"], "2c 2c 3d", ""),  # a repeated board card
        (["AhKh", "QsQd"], "2c 3d 4h 5s 6c 7d", ""),  # six board cards
        (["AhKh"], "", ""),  # one hand
        (["AhKh", "AA"], "As Ad", "Ac"),  # the range is entirely blocked
        (["Ah", "QsQd"], "", ""),  # one card is not a hold'em hand
    ],
)
def test_impossible_deals_are_refused(hands, board, dead):
    with pytest.raises(ValueError):
        equity(hands, board, dead=dead)


def test_combinations_array_lists_subsets_in_order():
    for n, k in [(5, 0), (5, 1), (6, 3), (10, 5), (13, 7)]:
        assert combinations_array(n, k).tolist() == [list(c) for c in combinations(range(n), k)]


def test_showdown_report_names_the_winner():
    text = showdown_report(["AhKh", "QsQd"], board="2h 7h Tc 3s 4h")
    assert "Winner: hand 1 (AH KH) with Flush, ace high" in text
    assert "Pair of queens" in text
    assert "100.00%" in text


def test_showdown_report_split_pot_and_incomplete_board():
    text = showdown_report(["2c3d", "4h5s"], board="AS KS QS JS TS")
    assert "Split pot: hand 1 (2C 3D) and hand 2 (4H 5S) with Royal flush" in text
    text = showdown_report(["AhKh", "QsQd"])
    assert "Board: (none)" in text and "Favourite: hand 2 (QS QD)" in text
    assert "1,712,304 deals, exact" in text


def test_showdown_report_with_a_range():
    text = showdown_report(["AhKh", "QQ+"], board="2h 7h Tc")
    assert "QQ+" in text and "High card, ace" in text
    lines = [x for x in text.splitlines() if x.startswith("Hand")]
    shares = [float(x.split("equity")[1].split("%")[0]) for x in lines]
    assert sum(shares) == pytest.approx(100.0, abs=0.02)
    assert np.isfinite(shares).all()


def test_showdown_refuses_bad_input():
    with pytest.raises(HandError):
        showdown_report(["AhKh", "AhKh"])
