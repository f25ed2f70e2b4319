"""Whist in words: card plays, tricks with each partnership's tally, deals and scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.presentation import (
    JSON,
    Presentation,
    card_text,
    subject,
    team_names,
    verb,
    who,
)

COMPASS = ("North", "East", "South", "West")


class WhistPresentation(Presentation):
    """North/South against East/West; the only action is playing a card."""

    def seat_names(self, count: int) -> list[str]:
        return list(COMPASS[:count])

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        if action.get("type") == "play":
            return f"Play {card_text(action.get('card'))}"
        return super().action_label(view, action)

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        if kind == "play":
            actor, you = subject(event.get("seat"), names, viewer)
            return f"{actor} {verb('play', you)} {card_text(event.get('card'))}"
        if kind == "trick":
            winner = event.get("winner")
            head = "You win" if winner == viewer else f"{who(winner, names, viewer)} wins"
            a, b = team_names(names)
            tricks = event.get("tricks") or [0, 0]
            return f"{head} the trick  (tricks {a} {tricks[0]} – {b} {tricks[1]})"
        if kind == "deal":
            return (
                f"Deal {event.get('deal')} · {who(event.get('dealer'), names, viewer)} deals · "
                f"trump {card_text(event.get('trump'))}"
            )
        if kind == "deal_end":
            a, b = team_names(names)
            pts, score = event.get("points") or [0, 0], event.get("score") or [0, 0]
            return f"Deal over: {a} +{pts[0]}, {b} +{pts[1]}; score {a} {score[0]} – {b} {score[1]}"
        return super().narrate(view, event, viewer, names)

    def hints(self, view: JSON) -> JSON:
        """The partnerships' names."""
        return {"teams": list(team_names(self.seat_names(len(view.get("hand_sizes") or []))))}
