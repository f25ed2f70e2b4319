"""Hold'em in words: bets and raises, streets, showdowns, pots, the viewer's hand."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import CardParseError
from engine.presentation import (
    JSON,
    Presentation,
    capital,
    cards_text,
    subject,
    verb,
    who,
)
from rules.poker.amounts import from_chips
from rules.poker.evaluator import HandError, describe, evaluate

POT_NAMES = ("main", "side", "side 2", "side 3", "side 4", "side 5", "side 6", "side 7")


def money(view: JSON, chips: Any) -> str:
    """Chips as the table counts them: whole numbers, or for a hand imported in a
    currency's smallest unit (``decimals`` in the view) with its decimals."""
    places = view.get("decimals") or 0
    if not places or not isinstance(chips, int):
        return str(chips)
    return from_chips(chips, places)


def pot_name(pot: Any) -> str:
    """``main``, ``side``, ``side 2``... for a pot's index."""
    return POT_NAMES[pot] if isinstance(pot, int) and 0 <= pot < len(POT_NAMES) else "side"


def pot_text(view: JSON) -> str:
    """``Pot 30``, and how it splits once there are side pots."""
    text = f"Pot {money(view, view.get('pot', 0))}"
    pots = view.get("pots") or []
    if len(pots) > 1:
        parts = (f"{pot_name(i)} {money(view, p['chips'])}" for i, p in enumerate(pots))
        text += " (" + ", ".join(parts) + ")"
    return text


def seat_state(view: JSON, seat: int) -> str:
    """``folded``, ``all in``, ``busted``, ``sitting out``, ``out`` or empty."""
    players = view.get("players") or []
    stacks = view.get("stacks") or []
    if seat not in players:
        sitting_out = view.get("sitting_out") or []
        return "sitting out" if seat < len(sitting_out) and sitting_out[seat] else "out"
    if seat < len(view.get("folded") or []) and view["folded"][seat]:
        return "folded"
    if seat < len(stacks) and stacks[seat] == 0:
        return "busted" if view.get("hand_over") else "all in"
    return ""


# The leaders a poker result's summary opens with: "Seat 3" or "Seats 1, 4".
_LEADERS = re.compile(r"(Seats?) (\d+(?:, \d+)*)(?= (?:wins|lead) )")


class PokerPresentation(Presentation):
    """Seats are numbered from 1; chips are plain numbers (with the decimals of an
    imported hand's currency unit)."""

    def summary(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        """The rules' ``Seat 3 wins ...`` (chairs numbered from 1) with the seats'
        names where the table has real ones (an imported hand's players: its chairs
        count from the button's left, not as the file numbers its seats)."""
        text = str(result.get("summary") or "")
        found = _LEADERS.match(text)
        if not found:
            return text
        chairs = [int(k) for k in found.group(2).split(", ")]
        if not all(0 < k <= len(names) and names[k - 1] for k in chairs):
            return text
        return ", ".join(names[k - 1] for k in chairs) + text[found.end():]

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        kind = action.get("type")
        opts = view.get("options") or {}
        if kind == "call":
            return f"Call {money(view, opts['to_call'])}" if opts.get("to_call") else "Call"
        if kind in ("bet", "raise"):
            to = action.get("to")
            if to is not None and to == opts.get("max_to"):
                return f"All in ({money(view, to)})"
            return f"Bet {money(view, to)}" if kind == "bet" else f"Raise to {money(view, to)}"
        if kind == "all_in":
            return f"All in ({money(view, opts['max_to'])})" if opts.get("max_to") else "All in"
        if kind == "rebuy":
            return f"Rebuy {money(view, action.get('chips'))}"
        return capital(str(kind).replace("_", " "))

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        seat = event.get("seat")
        actor, you = subject(seat, names, viewer)
        if kind == "deal":
            return (
                f"Hand {event.get('hand')} · button {who(event.get('button'), names, viewer)} · "
                f"blinds {who(event.get('small_blind'), names, viewer)}, "
                f"{who(event.get('big_blind'), names, viewer)}"
            )
        if kind == "post":
            blind = event.get("blind")
            named = {"ante": "the ante", "straddle": "a straddle", "post": "a new player's blind"}
            what = named.get(str(blind), f"the {blind} blind")
            return f"{actor} {verb('post', you)} {what} ({money(view, event.get('chips'))})"
        if kind == "action":
            return _action_line(view, event, actor, you)
        if kind == "refund":
            chips = money(view, event.get("chips"))
            return f"{chips} uncalled returned to {who(seat, names, viewer)}"
        if kind == "street":
            run = "Second run, " if event.get("run") == 2 else ""
            street = str(event.get("street", ""))
            return f"{capital(run + street)}: {cards_text(event.get('board'))}"
        if kind == "show":
            shown = cards_text(event.get("cards"))
            second = f"; second run: {event['hand2']}" if event.get("hand2") else ""
            return f"{actor} {verb('show', you)} {shown} — {event.get('hand')}{second}"
        if kind == "rake":
            return f"The house takes {money(view, event.get('chips'))} rake"
        if kind == "muck":
            return f"{actor} {verb('muck', you)}"
        if kind == "win":
            parts = []
            for s, chips in event.get("shares") or []:
                name, won = subject(s, names, viewer)
                parts.append(f"{name} {verb('win', won)} {money(view, chips)}")
            pot = event.get("pot", 0)
            where = [f"{pot_name(pot)} pot"] if pot else []
            if event.get("run"):
                where.append(("first", "second")[event["run"] - 1] + " run")
            return "; ".join(parts) + (f" ({', '.join(where)})" if where else "")
        if kind == "hand_end":
            return f"Hand {event.get('hand')} over"
        if kind in ("sit_out", "sit_in"):
            return f"{actor} {verb('sit', you)} {str(kind)[4:]}"
        if kind == "rebuy":
            chips, stack = money(view, event.get("chips")), money(view, event.get("stack"))
            return f"{actor} {verb('rebuy', you)} {chips} (stack {stack})"
        if kind == "game_over":
            return f"Game over: {event.get('summary')}"
        return None

    def hints(self, view: JSON) -> JSON:
        """The pot in words, each seat's state, and the viewer's best hand so far."""
        out: JSON = {
            "pot": pot_text(view),
            "seat_states": [seat_state(view, s) for s in range(len(view.get("stacks") or []))],
        }
        if view.get("decimals"):
            out.update(amount_hints(view))
        cards = [*(view.get("hand") or []), *(view.get("board") or [])]
        if view.get("hand") and 5 <= len(cards) <= 7:
            with contextlib.suppress(HandError, CardParseError, ValueError):
                out["hand_strength"] = describe(evaluate(cards))
        return out


def amount_hints(view: JSON) -> JSON:
    """The view's amounts in the unit of an imported hand's file (``decimals``),
    for a table drawn in the same money as the pot and the narration: ``stacks``
    (None where the history did not know one), ``bets``, ``blinds``, ``rake``,
    ``won`` (``[seat, amount]`` at the end of a hand) and the ``result`` line."""
    blinds = view.get("blinds") or {}
    stakes = f"{money(view, blinds.get('small'))}/{money(view, blinds.get('big'))}"
    out: JSON = {
        "stacks": [None if s is None else money(view, s) for s in view.get("stacks") or []],
        "bets": [money(view, b) for b in view.get("bets") or []],
        "blinds": stakes + (f" ante {money(view, blinds['ante'])}" if blinds.get("ante") else ""),
    }
    if view.get("rake"):
        out["rake"] = money(view, view["rake"])
    if view.get("hand_over") and view.get("awards"):
        won: dict[int, int] = {}
        for award in view["awards"]:
            for seat, chips in award.get("shares", []):
                won[seat] = won.get(seat, 0) + chips
        out["won"] = [[seat, money(view, chips)] for seat, chips in won.items()]
    return out


def _action_line(view: JSON, event: JSON, actor: str, you: bool) -> str:
    kind = str(event.get("type"))
    tail = " (all in)" if event.get("all_in") else ""
    if kind == "raise":
        return f"{actor} {verb('raise', you)} to {money(view, event.get('to'))}{tail}"
    if kind == "bet":
        return f"{actor} {verb('bet', you)} {money(view, event.get('to'))}{tail}"
    if kind == "call":
        return f"{actor} {verb('call', you)} {money(view, event.get('chips'))}{tail}"
    return f"{actor} {verb(kind, you)}{tail}"
