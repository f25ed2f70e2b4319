"""Crazy Eights as text: the pile's top and the suit to match, the stock, each player's
cards and penalty points, your hand; an eight typed with the suit it names.

Pure drawing of the crazy_eights ``view()``; what to match comes in the frame's
``hints`` and every line of the log in its ``narration``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.terminal.render import MenuItem, card_text, hand_line, plural, who
from engine.cards import CardParseError, parse_face

_SUITS = {"c": "C", "d": "D", "h": "H", "s": "S", "clubs": "C", "diamonds": "D",
          "hearts": "H", "spades": "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S"}  # fmt: skip


def render_crazy_eights(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The table: hand number, the pile and what to match, the stock, the players."""
    goal = f"game to {view['target']}" if view.get("target") else f"of {view.get('hands_to_play')}"
    lines = [
        f"Crazy Eights · hand {view.get('hand_no')} {goal} · "
        f"dealer {who(view.get('dealer'), names, me)}",
        f"Pile: {card_text(str(view.get('top')))} ({view.get('pile_size')})  ·  "
        f"stock: {plural(view.get('stock_size'), 'card')}",
    ]
    if hints.get("match"):
        lines.append(str(hints["match"]))
    sizes, points = view.get("hand_sizes") or [], view.get("penalties") or []
    for seat, n in enumerate(sizes):
        pts = points[seat] if seat < len(points) else 0
        lines.append(
            f"  {who(seat, names, me)}: {plural(n, 'card')}, {plural(pts, 'penalty point')}"
        )
    if "hand" in view:
        lines.append(f"Your hand: {hand_line(view['hand'])}")
    if view.get("drawn"):
        lines.append(f"You drew {card_text(view['drawn'])}: play it or pass")
    for seat, hand in enumerate(view.get("hands") or []):
        lines.append(f"{who(seat, names, me)}: {hand_line(hand)}")
    if to_act:
        lines.append("To act: " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def eight_input(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | str | None:
    """An eight and the suit it names, typed as ``8h s`` or ``8♥ spades``."""
    words = text.strip().lower().split()
    if len(words) != 2 or words[1] not in _SUITS:
        return None
    try:
        face = parse_face(words[0])
    except CardParseError:
        return None
    suit = _SUITS[words[1]]
    for item in menu:
        a = item.action
        if a.get("suit") == suit and parse_face(str(a.get("card"))) == face:
            return a
    return f"{text.strip()} is not a legal play now"
