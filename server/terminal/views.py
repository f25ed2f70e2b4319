"""Picks the text rendering for a table's game: poker, bridge, tractor and rummy get
their own, the rest the generic (or whist) rendering of :mod:`server.terminal.render`.

The client calls only these: :func:`display_names`, :func:`render_view`,
:func:`build_menu`, :func:`match_input`, :class:`Narrator` (event lines), and for
the tractor draw's ``draw all`` :func:`auto_draw_offer` and :func:`auto_draw`.
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
from server.terminal.rummy_text import render_rummy, rummy_card_input, rummy_event, rummy_menu
from server.terminal.tractor_text import (
    AUTO_DRAW_WORDS,
    COMPASS,
    TractorNarrator,
    auto_draw_step,
    declare_options,
    render_tractor,
    team_summary,
    tractor_cards_input,
    tractor_label,
)

_AMOUNT = re.compile(r"^([a-z_]+)(?:\s+to)?\s+(\d+)$")
_ALL_IN_WORDS = {"all in", "allin", "all_in", "all-in", "shove"}


def game_of(view: dict[str, Any] | None, game: str | None = None) -> str:
    return str((view or {}).get("game") or game or "")


def display_names(names: Sequence[str], game: str | None) -> list[str]:
    """Seat names to show.  Games that name their seats by number (``0``, ``1``...)
    get ``North``.. for four-seat tractor and ``Seat 1``.. elsewhere, as poker does."""
    if not names or any(n != str(i) for i, n in enumerate(names)):
        return list(names)
    if game == "tractor" and len(names) == 4:
        return list(COMPASS)
    return [f"Seat {i + 1}" for i in range(len(names))]


def result_text(result: dict[str, Any] | None, names: Sequence[str], game: str | None) -> str:
    """The game's result line; tractor's ``seats 0 and 2`` read as the team names."""
    text = render.result_text(result, names)
    return team_summary(text, names) if game == "tractor" else text


def render_view(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The readable state of a table for its viewer, in its game's layout."""
    game = game_of(view)
    if game == "poker" and "stacks" in view:
        return render_poker(view, names, me, to_act)
    if game == "bridge" and "auction" in view:
        return render_bridge(view, names, me, to_act)
    if game == "tractor" and "levels" in view:
        return render_tractor(view, names, me, to_act)
    if game == "rummy" and "variant" in view:
        return render_rummy(view, names, me, to_act)
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
    if game == "tractor":
        return [MenuItem(tractor_label(a, v), dict(a)) for a in legal]
    if game == "rummy":
        return rummy_menu(legal, v)
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
    calls (``1nt``, ``2♥``, ``pass``, ``x``), ``all in``, typed amounts, and tractor
    plays or burials of cards the (representative) menu does not list."""
    folded = " ".join(text.strip().lower().split())
    if game_of(view) == "tractor":
        typed = tractor_cards_input(text, menu)
        if typed is not None:
            return typed
    if game_of(view) == "rummy":
        card = rummy_card_input(text, menu)
        if card is not None:
            return card
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


def prompt_now(legal: Sequence[dict[str, Any]] | None, view: dict[str, Any]) -> bool:
    """Whether to ask the player now.  In the tractor draw the other seats keep
    drawing while a seat may declare, so a choice made then is almost always
    refused as stale (acts name the version they were decided at): the client asks
    at the seat's own draws instead, where the table waits for it (the declarations
    on offer stay open until passed on), and at the last word after the draw."""
    if moves_on_freely(view) and view.get("drawer") is not None:
        return any(a.get("type") == "draw" for a in legal or [])
    return True


def moves_on_freely(view: dict[str, Any]) -> bool:
    """Whether the table keeps moving while this seat is asked (the tractor draw:
    others draw while a seat may declare), so an answer is judged against the
    moves legal when it arrives instead of being refused as stale."""
    return game_of(view) == "tractor" and view.get("phase") == "draw"


def wants_auto_draw(text: str) -> bool:
    """Whether the player typed ``draw all`` (or ``draw on``, ``auto``)."""
    return " ".join(text.strip().lower().split()) in AUTO_DRAW_WORDS


def auto_draw_offer(
    legal: Sequence[dict[str, Any]] | None, view: dict[str, Any]
) -> frozenset[str] | None:
    """``draw all`` asked now: the declarations the player lets pass by drawing on,
    or None when there is no tractor draw to automate."""
    if game_of(view) != "tractor" or view.get("phase") != "draw" or not legal:
        return None
    return declare_options(legal)


def auto_draw(
    legal: Sequence[dict[str, Any]] | None, view: dict[str, Any], accepted: frozenset[str]
) -> str:
    """The next step of ``draw all`` (see :func:`tractor_text.auto_draw_step`)."""
    if game_of(view) != "tractor":
        return "off"
    return auto_draw_step(legal or [], view, accepted)


class Narrator:
    """Event lines for one table; some games need to remember earlier events."""

    def __init__(self, game: str | None) -> None:
        self.game = game or ""
        self.bridge = BridgeNarrator()
        self.tractor = TractorNarrator()

    def sync(self, view: dict[str, Any]) -> None:
        """Align with a snapshot's view (after a resume, mid-trick)."""
        self.game = game_of(view, self.game)
        if self.game == "bridge":
            self.bridge.sync(view)
        if self.game == "tractor":
            self.tractor.sync(view)

    def line(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
        if self.game == "poker":
            return poker_event(event, names, me)
        if self.game == "bridge":
            return self.bridge.line(event, names, me)
        if self.game == "tractor":
            return self.tractor.line(event, names, me)
        if self.game == "rummy":
            return rummy_event(event, names, me)
        return render.event_line(event, names, me)
