"""Pure text formatting for the terminal clients: cards, seats, clocks, menus.

Nothing here does I/O and nothing knows a game: the game's words (menu labels, event
lines, hints) come from the server in every frame.  Any game's table can be shown
generically (the view's fields); a game that has its own layout draws it in
``<game>_text.py`` (see :mod:`clients.terminal.views`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import SUIT_SYMBOLS, CardParseError, parse_face, parse_faces, pretty

# Display order of suits in a hand: spades, hearts, clubs, diamonds, so the
# colours alternate; then jokers.
_SUIT_ORDER = {3: 0, 2: 1, 0: 2, 1: 3}


def is_card(text: Any) -> bool:
    """Whether ``text`` is a card spelling (``AS``, ``10h``, ``BJ``...)."""
    if not isinstance(text, str):
        return False
    try:
        parse_face(text)
    except CardParseError:
        return False
    return True


def card_text(text: str) -> str:
    """A card spelling with suit symbols (``TH`` -> ``10♥``); other text unchanged."""
    return pretty(parse_face(text)) if is_card(text) else text


def card_key(text: str) -> tuple[int, int]:
    """Sort key of a card spelling: suit group, then rank from high to low."""
    f = parse_face(text)
    if f >= 52:
        return (4, -f)
    return (_SUIT_ORDER[f // 13], -(f % 13))


def sorted_cards(cards: Sequence[str]) -> list[str]:
    """Card spellings in hand order (non-cards keep their place at the end)."""
    good = [c for c in cards if is_card(c)]
    return sorted(good, key=card_key) + [c for c in cards if not is_card(c)]


def hand_line(cards: Sequence[str]) -> str:
    """A hand grouped by suit: ``♠ A K 7   ♥ Q 10   ♣ 2``."""
    groups: dict[int, list[str]] = {}
    for c in sorted_cards(cards):
        if not is_card(c):
            groups.setdefault(5, []).append(c)
            continue
        f = parse_face(c)
        if f >= 52:
            groups.setdefault(4, []).append(c.upper())
        else:
            groups.setdefault(_SUIT_ORDER[f // 13], []).append(pretty(f)[:-1])
    symbols = {v: SUIT_SYMBOLS[k] for k, v in _SUIT_ORDER.items()}
    parts = []
    for g in sorted(groups):
        label = symbols.get(g, "")
        parts.append((label + " " if label else "") + " ".join(groups[g]))
    return "   ".join(parts) if parts else "(empty)"


def number_text(value: float) -> str:
    """A number as people write it: ``-653`` rather than ``-653.0`` (games keep their
    scores as floats); a fraction is left as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def value_text(value: Any) -> str:
    """A compact rendering of one view value; card lists get suit symbols."""
    if isinstance(value, str):
        return card_text(value)
    if isinstance(value, list):
        if not value:
            return "-"
        if all(isinstance(v, str) for v in value):
            return " ".join(card_text(v) for v in value)
        if all(isinstance(v, list) for v in value):
            return " | ".join(value_text(v) for v in value)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            return " ".join(number_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number_text(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# seats


def seat_names(info: dict[str, Any] | None, count: int = 0) -> list[str]:
    """The seat names of a table (``North``...), or ``Seat N`` before we know them."""
    if info and info.get("seats"):
        return [str(s.get("name") or f"Seat {s['seat']}") for s in info["seats"]]
    return [f"Seat {i}" for i in range(count)]


def who(seat: Any, names: Sequence[str], me: int | None) -> str:
    """A seat's display name, marking the viewer's own seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return str(seat)
    name = names[seat] if 0 <= seat < len(names) else f"Seat {seat}"
    return f"{name} (you)" if seat == me else name


def trick_line(cards: Sequence[str], leader: int, names: Sequence[str], me: int | None) -> str:
    """A trick's cards in play order, each after the seat that played it."""
    n = len(names) or 4
    return "  ".join(
        f"{who((leader + i) % n, names, me)} {card_text(c)}" for i, c in enumerate(cards)
    )


def seating_lines(info: dict[str, Any], me: int | None) -> list[str]:
    """One line per seat: name, who sits there, bot or absent markers."""
    lines = []
    for s in info.get("seats", []):
        kind = s.get("kind")
        if kind == "bot":
            occupant = f"bot {s.get('bot')}"
        elif kind == "human":
            occupant = str(s.get("player") or "player")
            if s.get("bot"):
                occupant += f" (bot {s['bot']} standing in)"
            elif not s.get("connected", True):
                occupant += " (disconnected)"
        else:
            occupant = "empty"
        mark = "  <- you" if s.get("seat") == me else ""
        lines.append(f"  {s.get('name', s.get('seat'))}: {occupant}{mark}")
    return lines


def plural(n: Any, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``: every count in the terminal's words goes through here."""
    return f"{n} {word if n == 1 else many or word + 's'}"


# turn clocks


def seconds_text(seconds: float) -> str:
    """``45s``, ``2m05s``, ``1h30m``: whole seconds rounded up, as countdowns do (a
    turn with 0.9 s left is not shown as over)."""
    s = max(0, math.ceil(round(seconds, 3)))  # round first: 37.0000001 is 37s
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


def clock_line(
    clock: dict[str, Any] | None,
    names: Sequence[str],
    me: int | None,
    elapsed: float = 0.0,
    banked: bool = False,
) -> str | None:
    """The turn clock of a frame: ``Clock: North (you) 12s + bank 45s`` for each seat
    on it, ``elapsed`` seconds after the frame was built (the turn's time runs out
    first, then the bank's); the bank is shown where the table has one (``banked``)
    or a seat has some left.  None when nobody is on the clock."""
    if not isinstance(clock, dict) or not clock.get("seats"):
        return None
    turn_left = float(clock.get("turn_left") or 0)
    raw = clock.get("banks")
    banks: list[Any] = raw if isinstance(raw, list) else []
    over = max(0.0, elapsed - turn_left)  # what the bank has paid since the frame
    banked = banked or any(isinstance(b, int | float) and b > 0 for b in banks)
    parts = []
    for seat in clock["seats"]:
        text = f"{who(seat, names, me)} {seconds_text(turn_left - elapsed)}"
        if banked:
            bank = banks[seat] if isinstance(seat, int) and 0 <= seat < len(banks) else 0
            text += f" + bank {seconds_text(float(bank or 0) - over)}"
        parts.append(text)
    return "Clock: " + " · ".join(parts)


def ran_out(
    clock: dict[str, Any] | None, me: int | None, elapsed: float, events: list[dict[str, Any]]
) -> bool:
    """Whether an update's ``events`` are the server's stand-in move for seat ``me``:
    the previous frame's ``clock`` (``elapsed`` seconds old) had the seat on it with
    its time all but gone, and the events move the seat.  The caller knows it sent
    no move itself.  Frames do not name who moved, so this is an inference."""
    if not isinstance(clock, dict) or me is None or me not in (clock.get("seats") or []):
        return False
    banks = clock.get("banks")
    bank = banks[me] if isinstance(banks, list) and 0 <= me < len(banks) else 0
    left = float(clock.get("turn_left") or 0) + float(bank or 0) - elapsed
    # The count here started when the frame arrived, so it runs a little behind.
    return left < 2 and any(e.get("seat") == me for e in events)


# views


_SKIP_GENERIC = {"game", "to_act", "result"}


def render_generic(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """Any game's view: one ``field: value`` line per field, the hand grouped by suit."""
    lines = []
    keys = [k for k in view if k not in _SKIP_GENERIC] + (["to act"] if to_act else [])
    width = max((len(k) for k in keys), default=0)
    for key, value in view.items():
        if key in _SKIP_GENERIC:
            continue
        if key == "hand" and isinstance(value, list) and all(is_card(c) for c in value):
            text = hand_line(value)
        else:
            text = value_text(value)
        lines.append(f"{key:<{width}}  {text}")
    if to_act:
        lines.append(f"{'to act':<{width}}  " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def result_text(result: dict[str, Any] | None, names: Sequence[str]) -> str:
    """The result summary plus each seat's score."""
    if not result:
        return "no result recorded"
    out = str(result.get("summary") or "")
    scores = result.get("scores")
    if isinstance(scores, list) and scores:
        per_seat = ", ".join(
            f"{who(i, names, None)} {number_text(s)}" for i, s in enumerate(scores)
        )
        out = f"{out} (scores: {per_seat})" if out else f"scores: {per_seat}"
    return out or value_text(result)


# actions


@dataclass(frozen=True)
class MenuItem:
    label: str
    action: dict[str, Any]


def action_label(action: dict[str, Any]) -> str:
    """How an action reads in a menu: a lone card shows as the card; else type + values."""
    rest = {k: v for k, v in action.items() if k != "type"}
    if action.get("type") == "play" and list(rest) == ["card"] and is_card(rest["card"]):
        return card_text(rest["card"])
    parts = [str(action.get("type", "?"))]
    for k, v in rest.items():
        parts.append(value_text(v) if k in ("card", "cards") else f"{k}={value_text(v)}")
    return " ".join(parts)


# A run of more entries than this differing only in one number (bridge's claims of
# 0..13 tricks) is offered as its largest; a smaller one may be typed (``claim 9``).
RANGE_FOLD = 5


def _numbered(action: dict[str, Any]) -> tuple[str, str] | None:
    """(type, field) of an action made of its type and one integer, else None."""
    rest = [k for k, v in action.items() if k != "type"]
    if len(rest) == 1 and isinstance(action[rest[0]], int) and not isinstance(
        action[rest[0]], bool
    ):
        return str(action.get("type")), rest[0]
    return None


def build_menu(
    legal: Sequence[dict[str, Any]], labels: Sequence[str] | None = None
) -> list[MenuItem]:
    """The numbered menu with the server's labels: lone-card plays in hand order, other
    actions as the server sent them; a long run of one numbered action is folded into
    its largest.  Without labels, actions read generically."""

    def key(a: dict[str, Any]) -> tuple[int, tuple[int, int]]:
        card = a.get("card")
        if a.get("type") == "play" and len(a) == 2 and is_card(card):
            return (0, card_key(str(card)))
        return (1, (0, 0))

    texts = list(labels) if labels is not None and len(labels) == len(legal) else None
    runs: dict[tuple[str, str], list[int]] = {}
    for i, a in enumerate(legal):
        shape = _numbered(a)
        if shape is not None:
            runs.setdefault(shape, []).append(i)
    dropped = set()
    for (_, field), members in runs.items():
        if len(members) > RANGE_FOLD:
            top = max(members, key=lambda i: legal[i][field])
            dropped |= set(members) - {top}
    ordered = sorted(enumerate(legal), key=lambda ia: (key(ia[1]), ia[0]))
    return [
        MenuItem(texts[i] if texts else action_label(a), dict(a))
        for i, a in ordered
        if i not in dropped
    ]


def menu_lines(menu: Sequence[MenuItem], width: int = 78) -> list[str]:
    """The menu laid out in rows of ``N) label`` entries."""
    entries = [f"{i}) {m.label}" for i, m in enumerate(menu, 1)]
    col = max((len(e) for e in entries), default=0) + 2
    per_row = max(1, width // col) if col < 20 else 1
    rows = []
    for start in range(0, len(entries), per_row):
        rows.append("  " + "".join(e.ljust(col) for e in entries[start : start + per_row]).rstrip())
    return rows


def _card_faces(action: dict[str, Any]) -> list[int] | None:
    """The cards an action names (its ``card`` or ``cards``), as sorted faces."""
    if "card" in action and is_card(action["card"]):
        return [parse_face(str(action["card"]))]
    cards = action.get("cards")
    if isinstance(cards, list) and cards and all(is_card(c) for c in cards):
        return sorted(parse_face(str(c)) for c in cards)
    return None


def match_input(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | str:
    """The action the player typed, or a message saying why it matches none.

    Accepts a menu number, a card spelling (``10h``, ``TH``, ``10♥``, several
    cards for multi-card plays), an action's label or type when that is unique,
    or a raw JSON action object.
    """
    s = text.strip()
    if not s:
        return f"type a number 1-{len(menu)} or a card"
    if s.isdigit():
        n = int(s)
        if 1 <= n <= len(menu):
            return menu[n - 1].action
        return f"{n} is not on the menu (1-{len(menu)})"
    if s.startswith("{"):
        try:
            raw = json.loads(s)
        except ValueError as exc:
            return f"not valid JSON: {exc}"
        return raw if isinstance(raw, dict) else "a JSON action must be an object"
    try:
        faces = sorted(parse_faces(s))
    except CardParseError:
        faces = []
    if faces:
        hits = [m.action for m in menu if _card_faces(m.action) == faces]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            return f"{' '.join(pretty(f) for f in faces)} is not a legal play now"
    folded = " ".join(s.lower().split())
    for field in ("label", "type"):
        hits = [
            m.action
            for m in menu
            if (m.label if field == "label" else str(m.action.get("type", ""))).lower() == folded
        ]
        if len(hits) == 1:
            return hits[0]
    return f"{s!r} matches no legal action; type a number 1-{len(menu)}"
