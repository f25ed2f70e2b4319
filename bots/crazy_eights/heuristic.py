"""A Crazy Eights bot with the usual advice: keep eights for last, follow the suit
you hold most of, shed high cards first, and name your longest suit with an eight."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import SUITS, parse_face, rank_of, suit_of
from engine.events import JSON
from engine.game import Action
from rules.crazy_eights.scoring import EIGHT, card_points


class CrazyEightsHeuristicBot:
    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        hand = [parse_face(c) for c in view.get("hand") or []]
        plays = [a for a in legal if a["type"] == "play"]
        plain = [a for a in plays if "suit" not in a]
        # Suits held, not counting the eights (they go anywhere).
        held = Counter(suit_of(c) for c in hand if rank_of(c) != EIGHT)
        if plain:

            def worth(a: Action) -> tuple[int, int]:
                card = parse_face(a["card"])
                return held[suit_of(card)], card_points(card)

            return max(plain, key=worth)
        eights = [a for a in plays if "suit" in a]
        drawing = any(a["type"] == "draw" for a in legal)
        # An eight is the last resort: drawn cards may still fit, and it is worth 50 held.
        if eights and (not drawing or len(hand) <= 2):
            longest = max(range(4), key=lambda s: (held[s], -s))
            return next(a for a in eights if a["suit"] == SUITS[longest])
        return next(a for a in legal if a["type"] in ("draw", "pass"))
