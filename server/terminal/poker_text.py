"""Hold'em as text: the table (board, pots, seats), event lines and menu labels.

Pure formatting of the poker ``view()`` and events (rules/poker/game.py and
betting.py); nothing here knows the rules beyond what the view spells out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.terminal.render import card_text, who

_ORDINAL_POTS = ("main", "side", "side 2", "side 3", "side 4", "side 5", "side 6", "side 7")


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def _subject(seat: Any, names: Sequence[str], me: int | None) -> tuple[str, bool]:
    """Who did it, and whether that is the viewer (``You raise`` vs ``Seat 2 raises``)."""
    if seat == me:
        return "You", True
    return who(seat, names, me), False


def _verb(base: str, you: bool) -> str:
    if you:
        return base
    return base + ("es" if base.endswith(("sh", "ch", "s")) else "s")


def _names_of(seats: Any, names: Sequence[str], me: int | None) -> str:
    if not isinstance(seats, list):
        return str(seats)
    return " and ".join(who(s, names, me) for s in seats)


def poker_event(event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
    """One line for a poker event (None for those the view shows better)."""
    kind = event.get("kind")
    seat = event.get("seat")
    actor, you = _subject(seat, names, me)
    if kind == "deal":
        return (
            f"Hand {event.get('hand')} · button {who(event.get('button'), names, me)} · "
            f"blinds {who(event.get('small_blind'), names, me)}, "
            f"{who(event.get('big_blind'), names, me)}"
        )
    if kind == "post":
        blind = event.get("blind")
        what = "the ante" if blind == "ante" else f"the {blind} blind"
        return f"{actor} {_verb('post', you)} {what} ({event.get('chips')})"
    if kind == "action":
        return _action_line(event, actor, you)
    if kind == "refund":
        return f"{event.get('chips')} uncalled returned to {who(seat, names, me)}"
    if kind == "street":
        return f"{str(event.get('street', '')).capitalize()}: {cards_text(event.get('board'))}"
    if kind == "show":
        return (
            f"{actor} {_verb('show', you)} {cards_text(event.get('cards'))} — {event.get('hand')}"
        )
    if kind == "muck":
        return f"{actor} {_verb('muck', you)}"
    if kind == "win":
        shares = event.get("shares") or []
        parts = [
            f"{_subject(s, names, me)[0]} {'win' if s == me else 'wins'} {c}" for s, c in shares
        ]
        pot = event.get("pot", 0)
        label = _ORDINAL_POTS[pot] if isinstance(pot, int) and 0 <= pot < 8 else f"pot {pot}"
        return "; ".join(parts) + (f" ({label} pot)" if pot else "")
    if kind == "hand_end":
        return f"Hand {event.get('hand')} over"
    if kind == "sit_out":
        return f"{actor} {_verb('sit', you)} out"
    if kind == "sit_in":
        return f"{actor} {_verb('sit', you)} in"
    if kind == "rebuy":
        return f"{actor} {_verb('rebuy', you)} {event.get('chips')} (stack {event.get('stack')})"
    if kind == "game_over":
        return f"Game over: {event.get('summary')}"
    return None


def _action_line(event: dict[str, Any], actor: str, you: bool) -> str:
    kind = str(event.get("type"))
    tail = " (all in)" if event.get("all_in") else ""
    if kind in ("bet", "raise"):
        return (
            f"{actor} {_verb(kind, you)} {'to ' if kind == 'raise' else ''}{event.get('to')}{tail}"
        )
    if kind == "call":
        return f"{actor} {_verb('call', you)} {event.get('chips')}{tail}"
    return f"{actor} {_verb(kind, you)}{tail}"


def poker_label(action: dict[str, Any], view: dict[str, Any]) -> str:
    """A readable menu entry: ``call 4``, ``raise to 12``, ``all in (201)``."""
    kind = action.get("type")
    opts = view.get("options") or {}
    if kind == "call":
        return f"call {opts['to_call']}" if opts.get("to_call") else "call"
    if kind in ("bet", "raise"):
        to = action.get("to")
        if to is not None and to == opts.get("max_to"):
            return f"all in ({to})"
        return f"bet {to}" if kind == "bet" else f"raise to {to}"
    if kind == "all_in":
        return f"all in ({opts['max_to']})" if opts.get("max_to") else "all in"
    if kind == "rebuy":
        return f"rebuy {action.get('chips')}"
    return str(kind).replace("_", " ")


def _markers(view: dict[str, Any], seat: int) -> str:
    marks = []
    if view.get("button") == seat:
        marks.append("D")
    if view.get("small_blind_seat") == seat:
        marks.append("SB")
    if view.get("big_blind_seat") == seat:
        marks.append("BB")
    return "[" + " ".join(marks) + "]" if marks else ""


def _seat_state(view: dict[str, Any], seat: int) -> str:
    players = view.get("players") or []
    stacks = view.get("stacks") or []
    folded = view.get("folded") or []
    sitting_out = view.get("sitting_out") or []
    if seat not in players:
        return "sitting out" if seat < len(sitting_out) and sitting_out[seat] else "out"
    if seat < len(folded) and folded[seat]:
        return "folded"
    if seat < len(stacks) and stacks[seat] == 0:
        return "busted" if view.get("hand_over") else "all in"
    return ""


def pot_text(view: dict[str, Any]) -> str:
    """The pot, and how it splits into a main and side pots once it does."""
    text = f"Pot {view.get('pot', 0)}"
    pots = view.get("pots") or []
    if len(pots) > 1:
        text += (
            " ("
            + ", ".join(
                f"{_ORDINAL_POTS[i] if i < 8 else 'side'} {p['chips']}" for i, p in enumerate(pots)
            )
            + ")"
        )
    return text


def render_poker(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The hold'em table: hand and street, board and pot, one row per seat, your cards."""
    blinds = view.get("blinds") or {}
    stakes = f"blinds {blinds.get('small')}/{blinds.get('big')}"
    if blinds.get("ante"):
        stakes += f" ante {blinds['ante']}"
    head = [f"Hand {view.get('hand_number', '-')}/{view.get('hands')}", stakes]
    if "street" in view:
        head.append("hand over" if view.get("hand_over") else str(view["street"]))
    if view.get("phase") == "between":
        head.append("between hands")
    lines = [" · ".join(head)]
    if "board" in view:
        lines.append(f"Board: {cards_text(view.get('board')):<20} {pot_text(view)}")
    stacks = view.get("stacks") or []
    bets = view.get("bets") or [0] * len(stacks)
    shown = view.get("shown") or {}
    width = max((len(who(s, names, me)) for s in range(len(stacks))), default=0)
    for seat, stack in enumerate(stacks):
        row = f"  {who(seat, names, me):<{width}}  stack {stack:>5}"
        bet = bets[seat] if seat < len(bets) else 0
        row += f"  bet {bet:>4}" if bet else " " * 10
        row += f"  {_markers(view, seat):<9}{_seat_state(view, seat):<11}"
        info = shown.get(str(seat))
        if info:
            row += f"shows {cards_text(info.get('cards'))} — {info.get('hand')}"
        elif seat in (view.get("mucked") or []):
            row += "mucked"
        if seat in to_act:
            row += "  <- to act"
        lines.append(row.rstrip())
    if view.get("hand_over") and view.get("awards"):
        won: dict[int, int] = {}
        for award in view["awards"]:
            for seat, chips in award.get("shares", []):
                won[seat] = won.get(seat, 0) + chips
        lines.append("Won:   " + ", ".join(f"{who(s, names, me)} {c}" for s, c in won.items()))
    if "hand" in view:
        lines.append(f"Your cards: {cards_text(view['hand'])}")
    opts = view.get("options")
    if opts and opts.get("min_to") is not None:
        word = "raise" if any(bets) else "bet"
        lines.append(
            f"You may {word} to {opts['min_to']}..{opts['max_to']} "
            f"(type '{word} N'; 'all in' for {opts['max_to']})"
        )
    return lines
