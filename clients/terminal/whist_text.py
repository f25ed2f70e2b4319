"""Whist as text: deal and trump, the score, the last trick, the trick, the hand.

Pure drawing of the whist ``view()``; the partnerships' names come in the frame's
``hints`` and every line of the log in its ``narration``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.terminal.render import card_text, hand_line, trick_line, who


def render_whist(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The whist table: deal and trump, scores, last trick, the trick, the hand."""
    a, b = hints.get("teams") or ("team 1", "team 2")
    score, tricks = view.get("score", [0, 0]), view.get("tricks", [0, 0])
    lines = [
        f"Deal {view.get('deal')}/{view.get('deals')} · trump {card_text(view['trump'])} · "
        f"dealer {who(view.get('dealer'), names, me)}",
        f"Score   {a} {score[0]} – {b} {score[1]}     "
        f"Tricks this deal  {a} {tricks[0]} – {b} {tricks[1]}",
    ]
    if view.get("last_trick"):
        lines.append(
            "Last trick: " + trick_line(view["last_trick"], view.get("last_leader", 0), names, me)
        )
    trick = view.get("trick") or []
    lines.append(
        "Trick:      " + (trick_line(trick, view.get("leader", 0), names, me) if trick else "-")
    )
    sizes = view.get("hand_sizes")
    if isinstance(sizes, list):
        lines.append(
            "Cards held: " + "  ".join(f"{who(i, names, me)} {n}" for i, n in enumerate(sizes))
        )
    if "hand" in view:
        lines.append(f"Your hand:  {hand_line(view['hand'])}")
    for i, h in enumerate(view.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_line(h)}")
    if to_act:
        lines.append("To act:     " + ", ".join(who(s, names, me) for s in to_act))
    return lines
