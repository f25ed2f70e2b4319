"""A whist bot that plays the textbook heuristics: second hand low, third hand
high, win as cheaply as possible, don't overtake a partner who is winning."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import format_face, parse_face, rank_of, suit_of
from engine.events import JSON
from engine.game import Action
from engine.tricks import winning_index


class WhistHeuristicBot:
    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        cards = [parse_face(a["card"]) for a in legal]
        trump = suit_of(parse_face(view["trump"]))
        trick = [parse_face(c) for c in view["trick"]]
        by_rank = sorted(cards, key=lambda c: (suit_of(c) == trump, rank_of(c)))
        lowest = by_rank[0]
        if not trick:
            # Lead the top of the longest non-trump suit (or of trumps if that is all).
            lengths = {s: sum(suit_of(c) == s for c in cards) for s in range(4)}
            plain = [c for c in cards if suit_of(c) != trump] or cards
            best = max(plain, key=lambda c: (lengths[suit_of(c)], rank_of(c)))
            return _play(best)
        leader = view["leader"]
        winner_pos = winning_index(trick, trump)
        partner_winning = (leader + winner_pos) % 4 == (seat + 2) % 4
        winners = [c for c in cards if winning_index([*trick, c], trump) == len(trick)]
        if partner_winning or not winners:
            return _play(lowest)
        if len(trick) == 1:  # second hand low, unless we can win with a top card
            top = max(winners, key=rank_of)
            return _play(top if rank_of(top) == 12 else lowest)
        return _play(min(winners, key=lambda c: (suit_of(c) == trump, rank_of(c))))


def _play(face: int) -> Action:
    return {"type": "play", "card": format_face(face)}
