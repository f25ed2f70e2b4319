"""Picks the text rendering for a table's game: poker and bridge get their own, the
rest the generic (or whist) rendering of :mod:`server.terminal.render`.

The client calls only these four: :func:`render_view`, :func:`build_menu`,
:func:`match_input` and :class:`Narrator` (event lines).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from server.terminal import render
from server.terminal.bridge_text import (
    BridgeNarrator,
    bridge_label,
    parse_call_input,
    render_bridge,
)
from server.terminal.poker_text import poker_event, poker_label, render_poker
from server.terminal.render import MenuItem

_AMOUNT = re.compile(r"^([a-z_]+)(?:\s+to)?\s+(\d+)$")
_ALL_IN_WORDS = {"all in", "allin", "all_in", "all-in", "shove"}


def game_of(view: dict[str, Any] | None, game: str | None = None) -> str:
    return str((view or {}).get("game") or game or "")


def render_view(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The readable state of a table for its viewer, in its game's layout."""
    game = game_of(view)
    if game == "poker" and "stacks" in view:
        return render_poker(view, names, me, to_act)
    if game == "bridge" and "auction" in view:
        return render_bridge(view, names, me, to_act)
    return render.render_view(view, names, me, to_act)


def build_menu(
    legal: Sequence[dict[str, Any]], view: dict[str, Any] | None = None
) -> list[MenuItem]:
    """The numbered menu with the game's own labels.

    Bridge claims are many (0..13 tricks): the menu offers claiming all the rest,
    and ``claim N`` may be typed for fewer.
    """
    game = game_of(view)
    v = view or {}
    if game == "poker":
        return [MenuItem(poker_label(a, v), dict(a)) for a in legal]
    if game == "bridge":
        claims = [a for a in legal if a.get("type") == "claim"]
        rest = [a for a in legal if a.get("type") != "claim"]
        menu = render.build_menu([a for a in rest if a.get("type") == "play"])
        menu += [MenuItem(bridge_label(a, v), dict(a)) for a in rest if a.get("type") != "play"]
        if claims:
            top = max(claims, key=lambda a: int(a.get("tricks", 0)))
            menu.append(MenuItem(f"claim all {top['tricks']}", dict(top)))
        return menu
    return render.build_menu(legal)


def _typed_amount(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | None:
    """``raise 37``/``bet 50``/``claim 7``/``rebuy 100``: an action the menu has the type of,
    with its one number replaced (the server judges the amount)."""
    m = _AMOUNT.match(text)
    if not m:
        return None
    word, n = m.group(1), int(m.group(2))
    words = {word, "bet", "raise"} if word in ("bet", "raise") else {word}
    for item in menu:
        a = item.action
        numbers = [k for k, v in a.items() if k != "type" and isinstance(v, int)]
        if a.get("type") in words and len(numbers) == 1 and len(a) == 2:
            return {"type": a["type"], numbers[0]: n}
    return None


def match_input(
    text: str, menu: Sequence[MenuItem], view: dict[str, Any] | None = None
) -> dict[str, Any] | str:
    """The action typed: the generic inputs (number, card, label, JSON) plus bridge
    calls (``1nt``, ``2♥``, ``pass``, ``x``), ``all in`` and typed amounts."""
    folded = " ".join(text.strip().lower().split())
    if any(m.action.get("type") == "call" and "call" in m.action for m in menu):
        call = parse_call_input(folded)
        if call is not None:
            hits = [m.action for m in menu if m.action.get("call") == call]
            return hits[0] if hits else f"{text.strip()} is not a legal call now"
    if folded in _ALL_IN_WORDS:
        hits = [m.action for m in menu if m.label.startswith("all in")]
        if len(hits) == 1:
            return hits[0]
    if not folded.isdigit() and not folded.startswith("{"):
        typed = _typed_amount(folded, menu)
        if typed is not None and not any(m.label.lower() == folded for m in menu):
            return typed
    return render.match_input(text, menu)


class Narrator:
    """Event lines for one table; some games need to remember earlier events."""

    def __init__(self, game: str | None) -> None:
        self.game = game or ""
        self.bridge = BridgeNarrator()

    def sync(self, view: dict[str, Any]) -> None:
        """Align with a snapshot's view (after a resume, mid-trick)."""
        self.game = game_of(view, self.game)
        if self.game == "bridge":
            self.bridge.sync(view)

    def line(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
        if self.game == "poker":
            return poker_event(event, names, me)
        if self.game == "bridge":
            return self.bridge.line(event, names, me)
        return render.event_line(event, names, me)
