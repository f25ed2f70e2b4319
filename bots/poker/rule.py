"""A rule bot: hand-strength buckets and pot odds, no simulation.

Preflop it scores its two cards with the Chen formula and plays by bucket (raise the
premium hands, open or call with the playable ones, fold the rest to a raise).  After
the flop it sorts its hand into a bucket from the cards alone (made hands that use
its hole cards, draws, nothing) and bets, calls or folds by bucket and pot odds.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.poker.situation import (
    Situation,
    bet_fraction,
    bet_to,
    between_hands,
    call,
    passive,
    read,
)
from engine.cards import rank_of, suit_of
from engine.events import JSON
from engine.game import Action
from engine.rng import Rng
from rules.poker.evaluator import category, evaluate
from rules.poker.tables.classes import Category

MONSTER, STRONG, MEDIUM, DRAW, AIR = range(5)
# The equity a bucket is played as when weighing pot odds.
BUCKET_EQUITY = {MONSTER: 0.85, STRONG: 0.65, MEDIUM: 0.45, DRAW: 0.32, AIR: 0.12}


def chen(hole: Sequence[int]) -> float:
    """Bill Chen's preflop score of two cards (about -1 .. 20)."""
    hi, lo = sorted((rank_of(c) for c in hole), reverse=True)
    top = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2)
    if hi == lo:
        return max(5.0, 2 * top)
    score = top
    if suit_of(hole[0]) == suit_of(hole[1]):
        score += 2
    gap = hi - lo - 1
    score -= {0: 0, 1: 1, 2: 2, 3: 4}.get(gap, 5)
    if gap <= 1 and hi < 10:  # connectors below the queen straighten more often
        score += 1
    return score


def bucket(hole: Sequence[int], board: Sequence[int]) -> int:
    """The strength bucket of a hand after the flop, from the cards alone."""
    rank = evaluate([*hole, *board])
    cat = category(rank)
    hole_ranks = [rank_of(c) for c in hole]
    board_ranks = [rank_of(c) for c in board]
    pocket = hole_ranks[0] == hole_ranks[1]
    matches = sum(r in board_ranks for r in hole_ranks)
    if cat <= Category.STRAIGHT:
        # A flush or straight the board makes alone is only medium.
        board_cat = category(evaluate(board)) if len(board) == 5 else Category.HIGH_CARD
        return MEDIUM if board_cat <= Category.STRAIGHT and rank >= evaluate(board) else MONSTER
    if cat == Category.THREE_OF_A_KIND and (pocket or matches):
        return MONSTER
    if cat == Category.TWO_PAIR and matches == 2:
        return MONSTER
    top = max(board_ranks)
    if (pocket and hole_ranks[0] > top) or top in hole_ranks:
        return STRONG
    if matches or pocket:
        return MEDIUM
    if len(board) < 5 and _draws(hole, board):
        return DRAW
    return AIR


def _draws(hole: Sequence[int], board: Sequence[int]) -> bool:
    cards = [*hole, *board]
    for suit in range(4):
        if sum(suit_of(c) == suit for c in cards) == 4 and any(suit_of(c) == suit for c in hole):
            return True
    ranks = {rank_of(c) for c in cards}
    ranks |= {-1} if 12 in ranks else set()
    for low in range(-1, 9):
        run = {low, low + 1, low + 2, low + 3}
        if run <= ranks and low + 4 <= 12 and low >= 0 and any(rank_of(c) in run for c in hole):
            return True  # four in a row, open at both ends
    return False


class PokerRuleBot:
    """Plays by preflop score and postflop bucket, calling when pot odds allow."""

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        if view["phase"] == "between":
            return between_hands(legal)
        s = read(view, legal, seat)
        rng = Rng(seed)
        if s.street == "preflop":
            return self._preflop(s, rng)
        return self._postflop(s, rng)

    def _preflop(self, s: Situation, rng: Rng) -> Action:
        score = chen(s.hole)
        bb = s.big_blind
        raises = s.street_raises("preflop")
        if score >= 10:
            if raises >= 2 and s.to_call > s.stack // 3:
                return call(s)
            return bet_to(s, 3 * s.current if raises else 3 * bb)
        if score >= 7:
            if raises == 0:
                return bet_to(s, 3 * bb) if s.heads_up or score >= 8 else call(s)
            return call(s) if s.to_call <= 4 * bb else passive(s)
        if score >= 5:
            if raises == 0:
                return bet_to(s, 2 * bb + bb // 2) if s.heads_up and rng.below(2) else call(s)
            return call(s) if s.to_call <= 2 * bb else passive(s)
        return call(s) if s.to_call == 0 or (s.heads_up and s.to_call * 2 <= bb) else passive(s)

    def _postflop(self, s: Situation, rng: Rng) -> Action:
        b = bucket(s.hole, s.board)
        if b == MONSTER:
            return bet_fraction(s, 1.0)
        if b == STRONG:
            if s.to_call == 0:
                return bet_fraction(s, 0.66)
            if s.street_raises(s.street) >= 2 and s.to_call > s.pot // 2:
                return passive(s)
            return call(s)
        if s.to_call == 0:
            if (b == DRAW and rng.below(3) == 0) or (b == AIR and s.heads_up and rng.below(6) == 0):
                return bet_fraction(s, 0.5)  # a semi-bluff or an occasional bluff
            return passive(s)
        return call(s) if BUCKET_EQUITY[b] > s.pot_odds else passive(s)
