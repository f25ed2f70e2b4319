"""An equity bot: Monte Carlo equity against the ranges the opponents' actions suggest.

Each live opponent gets a range from its preflop action (a raise or re-raise narrows
it, a call or limp keeps it wide, a posted blind that only checked is any two cards);
after the flop every bet or raise keeps only the stronger part of that range on the
current board, and every call a little less of the weakest part.  Equity is estimated
by sampling opponents' holdings and board run-outs and ranking all of them in one
batch with the vectorised evaluator; the sample count is cut when the time budget is
small.  Decisions compare equity with the pot odds (call), and with thresholds that
rise with the number of opponents (bet or raise for value).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from bots.poker.situation import (
    Situation,
    bet_fraction,
    bet_to,
    between_hands,
    call,
    passive,
    read,
)
from engine.events import JSON
from engine.game import Action
from rules.poker.evaluator import evaluate_batch
from rules.poker.ranges import parse_range

# Preflop ranges by what the opponent did before the flop.
RANGES = {
    "any": "random",
    "called": "22+,A2+,K5+,Q8+,J8+,T8+,97+,87,76s,65s",  # about 45%
    "raised": "22+,A2s+,K8s+,Q9s+,J9s+,T9s,98s,A8o+,KTo+,QJo",  # about 22%
    "reraised": "88+,ATs+,KQs,AJo+",  # about 7%
}
# Heads-up players open and defend far wider.
HEADS_UP_RANGES = {
    "any": "random",
    "called": "random",
    "raised": "22+,A2+,K2+,Q5+,J7+,T7+,97+,86+,75+,65s,54s",  # about 55%
    "reraised": "55+,A7s+,A9o+,KTs+,KQo,QJs",  # about 14%
}
# A share of every opponent's holdings is drawn from any two cards, so an opponent
# who does not play by the book (a maniac, a random player) is not read as a rock.
UNMODELLED = 0.25
KEEP_AFTER_BET = 0.55  # share of the range kept after each postflop bet or raise
KEEP_AFTER_CALL = 0.85
SAMPLES = 600
_SEATS_EQUITY_STEP = 0.22  # value thresholds: the fair share plus this


@cache
def _range_combos(text: str) -> np.ndarray:
    return np.array(parse_range(text).combos, dtype=np.int64)


def preflop_label(s: Situation, seat: int) -> str:
    raises = s.raised_by(seat, "preflop")
    if raises >= 2 or (raises == 1 and s.street_raises("preflop") >= 2 and _reraised(s, seat)):
        return "reraised"
    if raises == 1:
        return "raised"
    if s.called_by(seat, "preflop"):
        return "called"
    return "any"


def _reraised(s: Situation, seat: int) -> bool:
    """Whether ``seat``'s preflop raise came after somebody else's."""
    seen = 0
    for h in s.history:
        if h["street"] != "preflop" or h["type"] not in ("bet", "raise"):
            continue
        if h["seat"] == seat:
            return seen > 0
        seen += 1
    return False


def opponent_range(s: Situation, seat: int, known: int) -> np.ndarray:
    """The (m, 2) holdings ``seat`` plausibly has, none touching the ``known`` cards."""
    table = HEADS_UP_RANGES if s.heads_up else RANGES
    combos = _range_combos(table[preflop_label(s, seat)])
    masks = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    combos = combos[(masks & known) == 0]
    if len(s.board) < 3 or len(combos) < 8:
        return combos
    keep = 1.0
    for h in s.history:
        if h["seat"] == seat and h["street"] != "preflop":
            keep *= (
                KEEP_AFTER_BET
                if h["type"] in ("bet", "raise")
                else (KEEP_AFTER_CALL if h["type"] == "call" else 1.0)
            )
    if keep >= 1.0:
        return combos
    board = np.array(s.board, dtype=np.int64)
    hands = np.hstack([combos, np.broadcast_to(board, (len(combos), len(board)))])
    strength = evaluate_batch(hands, check=False)
    n = max(8, round(len(combos) * max(keep, 0.12)))
    return combos[np.argsort(strength, kind="stable")[:n]]


def estimate_equity(s: Situation, samples: int, seed: int) -> float:
    """Monte Carlo share of the pot the seat's hand wins against the opponents' ranges."""
    rng = np.random.default_rng(seed)
    known = 0
    for c in (*s.hole, *s.board):
        known |= 1 << c
    ranges = [opponent_range(s, o, known) for o in s.opponents]
    n_opp = len(ranges)
    need = 5 - len(s.board)
    anything = _range_combos("random")
    anything = anything[
        (((np.int64(1) << anything[:, 0]) | (np.int64(1) << anything[:, 1])) & known) == 0
    ]
    picks = []  # (samples, 2) holdings per opponent
    for r in ranges:
        modelled = r[rng.integers(0, len(r), samples)]
        wild = anything[rng.integers(0, len(anything), samples)]
        picks.append(np.where((rng.random(samples) < UNMODELLED)[:, None], wild, modelled))
    deck = np.array([c for c in range(52) if not known >> c & 1], dtype=np.int64)
    # Board run-outs: random keys, take the smallest ``need + 2 * opponents`` cards and
    # use the first ``need`` that no opponent holds.
    take = min(len(deck), need + 2 * n_opp)
    order = np.argsort(rng.random((samples, len(deck))), axis=1)[:, :take]
    cand = deck[order]
    opp_cards = np.hstack(picks) if picks else np.zeros((samples, 0), dtype=np.int64)
    ok = np.ones(samples, dtype=bool)
    for i in range(n_opp):  # opponents' holdings must not overlap each other
        for j in range(i + 1, n_opp):
            ok &= _disjoint(picks[i], picks[j])
    # At most 2 * opponents candidates clash with a holding, so ``need`` are left.
    clash = (cand[:, :, None] == opp_cards[:, None, :]).any(axis=2)
    first = np.argsort(clash, axis=1, kind="stable")[:, :need]
    runout = np.take_along_axis(cand, first, axis=1)
    board = np.broadcast_to(np.array(s.board, dtype=np.int64), (samples, len(s.board)))
    full = np.hstack([board, runout])
    mine = evaluate_batch(
        np.hstack([np.broadcast_to(np.array(s.hole), (samples, 2)), full]), check=False
    )
    best_opp = np.full(samples, 10_000, dtype=np.int32)
    ties = np.zeros(samples, dtype=np.int32)
    for p in picks:
        r = evaluate_batch(np.hstack([p, full]), check=False).astype(np.int32)
        ties = np.where(r < best_opp, 0, ties) + (r == np.minimum(best_opp, r))
        best_opp = np.minimum(best_opp, r)
    mine = mine.astype(np.int32)
    share = np.where(mine < best_opp, 1.0, np.where(mine == best_opp, 1.0 / (1 + ties), 0.0))
    share = share[ok]
    return float(share.mean()) if len(share) else 0.0


def _disjoint(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a[:, 0] != b[:, 0]) & (a[:, 0] != b[:, 1]) & (a[:, 1] != b[:, 0]) & (a[:, 1] != b[:, 1])


class PokerEquityBot:
    """Bets, calls or folds by Monte Carlo equity against the opponents' likely ranges."""

    samples = SAMPLES
    bluff_every = 2
    big_bet = 1.0

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        if view["phase"] == "between":
            return between_hands(legal)
        s = read(view, legal, seat)
        # About 2 ms per 600 samples heads-up here; stay well inside small budgets.
        samples = self.samples if budget >= 0.05 else max(100, int(self.samples * budget / 0.05))
        eq = estimate_equity(s, samples, seed)
        fair = 1.0 / (1 + len(s.opponents))
        value = fair + _SEATS_EQUITY_STEP
        if s.street == "preflop":
            return self._preflop(s, eq, fair)
        if s.to_call == 0:
            if eq >= value:
                return self._sized(s, self.big_bet if eq > value + 0.1 else 0.6)
            if s.heads_up and s.street != "river" and (seed >> 8) % self.bluff_every == 0:
                return bet_fraction(s, 0.5)  # a bluff or semi-bluff, now and then
            return passive(s)
        if eq >= value + 0.1 and s.min_to is not None:
            return self._sized(s, 1.0)
        return call(s) if eq > s.pot_odds + 0.02 else passive(s)

    def _preflop(self, s: Situation, eq: float, fair: float) -> Action:
        bb = s.big_blind
        raises = s.street_raises("preflop")
        if raises == 0:
            if eq >= fair + (-0.08 if s.heads_up else 0.08):
                return bet_to(s, 3 * bb)
            if eq >= fair - 0.04 or s.to_call == 0:
                return call(s)
            return passive(s)
        if eq >= fair + 0.17 and s.min_to is not None:
            return bet_to(s, 3 * s.current)
        return call(s) if eq > s.pot_odds + 0.03 else passive(s)

    def _sized(self, s: Situation, fraction: float) -> Action:
        target = s.current + int(fraction * (s.pot + s.to_call))
        if s.max_to is not None and target >= 0.45 * s.max_to:
            return bet_to(s, s.max_to)  # committed anyway: all-in
        return bet_fraction(s, fraction)
