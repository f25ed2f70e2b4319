"""Rummy (indian and gin) as text: the table, the hand grouped by its best melds, typed cards.

Pure drawing of the rummy ``view()``.  The hands' best melds and deadwood, the wild
card, the knock to lay off on and the deal's result in words come in the frame's
``hints`` (rules/rummy/presentation.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.terminal.render import MenuItem, card_text, is_card, plural, who
from engine.cards import CardParseError, parse_face


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def groups_text(groups: Any) -> str:
    """Hint groups as ``pure run [7♠ 8♠ 9♠]  set [K♣ K♦ K♥]  deadwood · 13 [4♣ 9♦]``."""
    if not isinstance(groups, list) or not groups:
        return "(empty)"
    return "  ".join(f"{g.get('label')} [{cards_text(g.get('cards'))}]" for g in groups)


def _scores_line(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    points = view.get("points") or []
    seats = "  ".join(f"{who(i, names, me)} {p}" for i, p in enumerate(points))
    if view.get("variant") == "gin":
        target = view.get("target")
        goal = f"game to {target}" if target else "one deal"
        boxes = view.get("boxes") or []
        won = f" · deals won {' '.join(str(b) for b in boxes)}" if any(boxes) else ""
        return f"Score: {seats} ({goal}){won}"
    pool = view.get("pool")
    goal = f"pool {pool}: out at {pool}" if pool else "one deal"
    return f"Points: {seats} ({goal}; fewest wins)"


def _seat_line(view: dict[str, Any], seat: int, names: Sequence[str], me: int | None) -> str:
    """An opponent: cards held, cards known (taken from the pile), dropped/out."""
    sizes = view.get("hand_sizes") or []
    n = sizes[seat] if seat < len(sizes) else 0
    row = f"  {who(seat, names, me)}: {plural(n, 'card')}"
    known = view.get("known") or []
    if seat < len(known) and known[seat]:
        row += f", holds {cards_text(known[seat])} (taken from the pile)"
    if (view.get("eliminated") or [False] * (seat + 1))[seat]:
        row += " — out of the pool"
    elif (view.get("out") or [False] * (seat + 1))[seat]:
        row += " — dropped this deal"
    if seat == view.get("dealer"):
        row += "  [dealer]"
    return row


def render_rummy(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The rummy table: variant, deal, scores, stock and pile, the others, your hand."""
    gin = view.get("variant") == "gin"
    phase = str(view.get("phase"))
    title = "Gin rummy" if gin else "Indian rummy"
    lines = [f"{title} · deal {view.get('deal')} · {phase.replace('_', ' ')}"]
    lines.append(_scores_line(view, names, me))
    if hints.get("wild"):
        lines.append(str(hints["wild"]))
    pile = view.get("pile") or []
    top = card_text(str(pile[-1])) if pile else "-"
    below = " ".join(card_text(str(c)) for c in reversed(pile[-9:-1]))
    more = " …" if len(pile) > 9 else ""
    lines.append(
        f"Stock: {plural(view.get('stock_size'), 'card')} · discard pile: {top}"
        + (f"  (below: {below}{more})" if below else "")
    )
    for seat in range(len(view.get("hand_sizes") or [])):
        if seat != me:
            lines.append(_seat_line(view, seat, names, me))
    if hints.get("knock"):
        lines.append(str(hints["knock"]))
    if hints.get("deal_result"):
        lines.append(str(hints["deal_result"]))
    for i, groups in enumerate(hints.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {groups_text(groups)}")
    hand = view.get("hand")
    if isinstance(hand, list) and phase not in ("deal_over", "over"):
        lines.append(f"Your hand ({len(hand)}): {groups_text(hints.get('hand'))}")
        if hints.get("summary"):
            lines.append(f"  {hints['summary']}")
    if to_act:
        lines.append("To act: " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def rummy_card_input(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | None:
    """A typed single card is a discard of it (a knock/declare with the same card
    needs its menu number or label), or a lay-off when only one meld takes it."""
    try:
        f = parse_face(text.strip())
    except CardParseError:
        return None
    for kind in ("discard", "layoff"):
        hits = [
            m.action
            for m in menu
            if m.action.get("type") == kind
            and is_card(m.action.get("card"))
            and parse_face(str(m.action["card"])) == f
        ]
        if len(hits) == 1:
            return hits[0]
    return None
