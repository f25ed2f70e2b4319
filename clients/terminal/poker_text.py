"""Hold'em as text: the table (board, pots, seats) and the viewer's cards.

Pure drawing of the poker ``view()``; the pot in words, each seat's state and the
viewer's hand strength come in the frame's ``hints``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.terminal.render import card_text, who


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def _markers(view: dict[str, Any], seat: int) -> str:
    marks = []
    if view.get("button") == seat:
        marks.append("D")
    if view.get("small_blind_seat") == seat:
        marks.append("SB")
    if view.get("big_blind_seat") == seat:
        marks.append("BB")
    return "[" + " ".join(marks) + "]" if marks else ""


def render_poker(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The hold'em table: hand and street, board and pot, one row per seat, your cards."""
    # An imported hand's amounts come in its file's money in the hints (``decimals``).
    blinds = view.get("blinds") or {}
    stakes = f"blinds {blinds.get('small')}/{blinds.get('big')}"
    if blinds.get("ante"):
        stakes += f" ante {blinds['ante']}"
    if hints.get("blinds"):
        stakes = f"blinds {hints['blinds']}"
    head = [f"Hand {view.get('hand_number', '-')}/{view.get('hands')}", stakes]
    if "street" in view:
        head.append("hand over" if view.get("hand_over") else str(view["street"]))
    if view.get("phase") == "between":
        head.append("between hands")
    lines = [" · ".join(head)]
    if "board" in view:
        lines.append(f"Board: {cards_text(view.get('board')):<20} {hints.get('pot', '')}")
    if view.get("board2"):  # a board run twice
        lines.append(f"Board, second run: {cards_text(view.get('board2'))}")
    if view.get("rake"):
        lines.append(f"Rake: {hints.get('rake', view['rake'])}")
    stacks = hints.get("stacks") or view.get("stacks") or []
    bets = view.get("bets") or [0] * len(stacks)
    bet_texts = hints.get("bets") or bets
    states = hints.get("seat_states") or [""] * len(stacks)
    shown = view.get("shown") or {}
    width = max((len(who(s, names, me)) for s in range(len(stacks))), default=0)
    for seat, stack in enumerate(stacks):
        shown_stack = "?" if stack is None else stack  # None: a history did not know it
        row = f"  {who(seat, names, me):<{width}}  stack {shown_stack:>5}"
        bet = bets[seat] if seat < len(bets) else 0
        row += f"  bet {bet_texts[seat]:>4}" if bet else " " * 10
        state = states[seat] if seat < len(states) else ""
        row += f"  {_markers(view, seat):<9}{state:<11}"
        info = shown.get(str(seat))
        if info:
            row += f"shows {cards_text(info.get('cards'))} — {info.get('hand')}"
        elif seat in (view.get("mucked") or []):
            row += "mucked"
        if seat in to_act:
            row += "  <- to act"
        lines.append(row.rstrip())
    if view.get("hand_over") and view.get("awards"):
        won: dict[int, Any] = {}
        for award in view["awards"]:
            for seat, chips in award.get("shares", []):
                won[seat] = won.get(seat, 0) + chips
        won = {int(s): text for s, text in hints.get("won", [])} or won
        lines.append("Won:   " + ", ".join(f"{who(s, names, me)} {c}" for s, c in won.items()))
    if "hand" in view:
        strength = f"  ({hints['hand_strength']})" if hints.get("hand_strength") else ""
        lines.append(f"Your cards: {cards_text(view['hand'])}{strength}")
    opts = view.get("options")
    if opts and opts.get("min_to") is not None:
        word = "raise" if any(bets) else "bet"
        lines.append(
            f"You may {word} to {opts['min_to']}..{opts['max_to']} "
            f"(type '{word} N'; 'all in' for {opts['max_to']})"
        )
    return lines
