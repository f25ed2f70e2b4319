"""Crazy Eights in words: plays (an eight with the suit it names), draws, passes,
reshuffles, and each hand's penalty points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import SUITS
from engine.presentation import JSON, Presentation, card_text, plural, subject, verb, who

SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def suit_word(letter: Any) -> str:
    """``H`` -> ``hearts``."""
    return SUIT_WORDS.get(str(letter), str(letter))


class CrazyEightsPresentation(Presentation):
    """Seats are ``Seat 1``..; the actions are play (an eight names a suit), draw, pass."""

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        kind = action.get("type")
        if kind == "play" and "suit" in action:
            return f"Play {card_text(action.get('card'))}, name {suit_word(action['suit'])}"
        if kind == "play":
            return f"Play {card_text(action.get('card'))}"
        if kind == "draw":
            return "Draw a card"
        if kind == "pass":
            return "Pass"
        return super().action_label(view, action)

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        actor, you = subject(event.get("seat"), names, viewer)
        if kind == "play":
            line = f"{actor} {verb('play', you)} {card_text(event.get('card'))}"
            if "suit" in event:
                line += f" and {verb('name', you)} {suit_word(event['suit'])}"
            return line
        if kind == "draw":
            if "card" in event:
                return f"{actor} {verb('draw', you)} {card_text(event['card'])}"
            return f"{actor} {verb('draw', you)} a card"
        if kind == "pass":
            return f"{actor} {verb('pass', you)}"
        if kind == "reshuffle":
            stock = plural(event.get("cards"), "card")
            return f"The discard pile is shuffled into a new stock of {stock}"
        if kind == "deal":
            return (
                f"Hand {event.get('hand')} · {who(event.get('dealer'), names, viewer)} deals · "
                f"starter {card_text(event.get('starter'))}"
            )
        if kind == "hand_end":
            return self._hand_end(event, viewer, names)
        return super().narrate(view, event, viewer, names)

    def _hand_end(self, event: JSON, viewer: int | None, names: Sequence[str]) -> str:
        winner = event.get("winner")
        if winner is None:
            head = "Hand blocked: nobody can play and the stock is empty"
        else:
            actor, you = subject(winner, names, viewer)
            head = f"{actor} {'go' if you else 'goes'} out"
        points = event.get("points") or []
        totals = event.get("penalties") or []
        each = ", ".join(
            f"{who(s, names, viewer)} +{p} ({t})"
            for s, (p, t) in enumerate(zip(points, totals, strict=False))
        )
        return f"{head}; penalty points {each}"

    def hints(self, view: JSON) -> JSON:
        """What the next card must match, in words."""
        top = view.get("top")
        suit = view.get("suit")
        if not isinstance(top, str) or suit not in tuple(SUITS):
            return {}
        named = top[:1] == "8"
        match = (
            f"{suit_word(suit)} (named with the eight)"
            if named
            else (f"{suit_word(suit)} or {card_text(top)[:-1]}s")
        )
        return {"match": f"Match {match}, or play an eight"}
