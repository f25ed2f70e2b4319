"""A complete outside bot for cardtable's trick-taking games (whist, bridge's play).

It needs nothing from cardtable: it reads the seat's view and the legal actions
(plain JSON) and returns one of them.  Run it in a tournament with

    cardtable tournament --game whist --bots examples.trick_bot:TrickBot,heuristic

(from the directory holding ``examples/``), or install a package that names it in
the ``cardtable.bots`` entry-point group (docs/bots.md, "Python bots").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[-1]


class TrickBot:
    """Wins the trick as cheaply as it can when it is not already its partner's;
    otherwise throws its lowest card.  Leads its highest card.  Anything that is
    not a card play (a bid, a claim) it leaves to chance among the legal actions."""

    def decide(
        self,
        view: dict[str, Any],
        legal: Sequence[dict[str, Any]],
        seat: int,
        seed: int,
        budget: float,
    ) -> dict[str, Any] | None:
        plays = [a for a in legal if a.get("type") == "play" and "card" in a]
        if not plays:
            # Every random choice comes from ``seed``, so the game replays.
            return random.Random(seed).choice(list(legal)) if legal else None
        # Answer with the legal action itself: it may carry more than the card
        # (a Crazy Eights eight names a suit).
        action = {a["card"]: a for a in plays}
        trick: list[str] = list(view.get("trick") or [])
        trump = suit(view["trump"]) if isinstance(view.get("trump"), str) else None
        cards = sorted((a["card"] for a in plays), key=rank)
        if not trick:
            return action[cards[-1]]
        led = suit(trick[0])

        def strength(card: str) -> int:
            if suit(card) == trump:
                return 100 + rank(card)
            return rank(card) if suit(card) == led else -1

        best = max(strength(c) for c in trick)
        winners = [c for c in cards if strength(c) > best]
        partner_winning = len(trick) >= 2 and strength(trick[-2]) == best
        if winners and not partner_winning:
            return action[min(winners, key=strength)]
        return action[min(cards, key=lambda c: (strength(c) >= 100, rank(c)))]
