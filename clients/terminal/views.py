"""The terminal client's one registry of per-game drawings, and the calls made on it.

What a game says (menu labels, event lines, hints) comes from the server in every
frame; what differs per game here is only how its table is drawn and what a player
may type at its prompt beyond the generic inputs.  A game without an entry is shown
generically (:func:`render.render_generic`).

The client calls only these: :func:`render_view`, :func:`build_menu`,
:func:`match_input`, :func:`result_text`; for a draw that goes on while a seat
thinks (Tractor's) :func:`prompt_now`, :func:`moves_on_freely`,
:func:`auto_draw_offer` and :func:`auto_draw`; and for the double-dummy analysis
messages (bridge's) :func:`analysis_lines` and :func:`play_analysis_lines`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clients.terminal import render

# The analysis messages (bridge's double-dummy tables) are drawn by bridge's module.
from clients.terminal.bridge_text import analysis_lines as analysis_lines
from clients.terminal.bridge_text import parse_call_input, render_bridge
from clients.terminal.bridge_text import play_analysis_lines as play_analysis_lines
from clients.terminal.crazy_eights_text import eight_input, render_crazy_eights
from clients.terminal.poker_text import render_poker
from clients.terminal.render import MenuItem
from clients.terminal.rummy_text import render_rummy, rummy_card_input
from clients.terminal.tractor_text import (
    AUTO_DRAW_WORDS,
    auto_draw_step,
    declare_options,
    render_tractor,
    tractor_cards_input,
)
from clients.terminal.whist_text import render_whist

Render = Callable[
    [dict[str, Any], dict[str, Any], Sequence[str], int | None, Sequence[int]], list[str]
]
Typed = Callable[[str, Sequence[MenuItem]], dict[str, Any] | str | None]


def _typed_call(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | str | None:
    """A call typed as ``1nt``, ``2♥``, ``pass`` or ``x``."""
    if not any(m.action.get("type") == "call" and "call" in m.action for m in menu):
        return None
    call = parse_call_input(" ".join(text.strip().lower().split()))
    if call is None:
        return None
    hits = [m.action for m in menu if m.action.get("call") == call]
    return hits[0] if hits else f"{text.strip()} is not a legal call now"


def _draws_on(view: dict[str, Any]) -> bool:
    """The Tractor draw: the others keep drawing while a seat may declare."""
    return view.get("phase") == "draw"


@dataclass(frozen=True)
class Drawing:
    """How one game's table is drawn, what may be typed at it, and whether the table
    keeps moving while a seat is asked (then ``draw all`` may draw on for it)."""

    render: Render
    typed: Typed | None = None
    draws_on: Callable[[dict[str, Any]], bool] | None = None


DRAWINGS: dict[str, Drawing] = {
    "whist": Drawing(render_whist),
    "poker": Drawing(render_poker),
    "bridge": Drawing(render_bridge, _typed_call),
    "tractor": Drawing(render_tractor, tractor_cards_input, _draws_on),
    "rummy": Drawing(render_rummy, rummy_card_input),
    "crazy_eights": Drawing(render_crazy_eights, eight_input),
}

_AMOUNT = re.compile(r"^([a-z_]+)(?:\s+to)?\s+(\d+)$")
_ALL_IN_WORDS = {"all in", "allin", "all_in", "all-in", "shove"}


def drawing(view: dict[str, Any] | None) -> Drawing | None:
    """The drawing of the view's game, if it has one."""
    return DRAWINGS.get(str((view or {}).get("game") or ""))


def render_view(
    view: dict[str, Any],
    hints: dict[str, Any] | None,
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The readable state of a table for its viewer, in its game's layout."""
    d = drawing(view)
    if d is None:
        return render.render_generic(view, names, me, to_act)
    return d.render(view, hints or {}, names, me, to_act)


def result_text(
    result: dict[str, Any] | None, names: Sequence[str], hints: dict[str, Any] | None = None
) -> str:
    """The game's result line; the summary in the table's words where the hints have it."""
    summary = (hints or {}).get("result")
    if result and isinstance(summary, str):
        result = {**result, "summary": summary}
    return render.result_text(result, names)


def build_menu(
    legal: Sequence[dict[str, Any]], labels: Sequence[str] | None = None
) -> list[MenuItem]:
    """The numbered menu, with the server's labels (see :func:`render.build_menu`)."""
    return render.build_menu(legal, labels)


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
    """The action typed: the game's own inputs (bridge calls, Tractor card lists, a
    rummy card), then the generic ones (number, card, label, JSON), ``all in`` and
    typed amounts."""
    d = drawing(view)
    if d is not None and d.typed is not None:
        typed = d.typed(text, menu)
        if typed is not None:
            return typed
    folded = " ".join(text.strip().lower().split())
    if folded in _ALL_IN_WORDS:
        hits = [m.action for m in menu if m.label.lower().startswith("all in")]
        if len(hits) == 1:
            return hits[0]
    if not folded.isdigit() and not folded.startswith("{"):
        typed_amount = _typed_amount(folded, menu)
        if typed_amount is not None and not any(m.label.lower() == folded for m in menu):
            return typed_amount
    return render.match_input(text, menu)


def moves_on_freely(view: dict[str, Any]) -> bool:
    """Whether the table keeps moving while this seat is asked (the Tractor draw:
    others draw while a seat may declare), so an answer is judged against the
    moves legal when it arrives instead of being refused as stale."""
    d = drawing(view)
    return d is not None and d.draws_on is not None and d.draws_on(view)


def prompt_now(legal: Sequence[dict[str, Any]] | None, view: dict[str, Any]) -> bool:
    """Whether to ask the player now.  While the table draws on, a choice made between
    the seat's own draws is almost always refused as stale (acts name the version they
    were decided at): the client asks at the seat's own draws instead, where the table
    waits for it (the declarations on offer stay open until passed on), and at the
    last word after the draw."""
    if moves_on_freely(view) and view.get("drawer") is not None:
        return any(a.get("type") == "draw" for a in legal or [])
    return True


def wants_auto_draw(text: str) -> bool:
    """Whether the player typed ``draw all`` (or ``draw on``, ``auto``)."""
    return " ".join(text.strip().lower().split()) in AUTO_DRAW_WORDS


def auto_draw_offer(
    legal: Sequence[dict[str, Any]] | None, view: dict[str, Any]
) -> frozenset[str] | None:
    """``draw all`` asked now: the declarations the player lets pass by drawing on,
    or None when there is no draw to automate."""
    if not moves_on_freely(view) or not legal:
        return None
    return declare_options(legal)


def auto_draw(
    legal: Sequence[dict[str, Any]] | None, view: dict[str, Any], accepted: frozenset[str]
) -> str:
    """The next step of ``draw all`` (see :func:`tractor_text.auto_draw_step`)."""
    if not moves_on_freely(view):
        return "off"
    return auto_draw_step(legal or [], view, accepted)
