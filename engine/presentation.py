"""How a game reads to people: action labels, event lines and display hints.

A :class:`Presentation` works only from what one viewer already sees — that
viewer's view (JSON), the events visible to it and the legal actions it was
offered — never from the game state, so nothing it says can name a hidden card.
The server ships its output in every frame (``labels``, ``narration``, ``hints``)
and the clients print it as they get it: the words of a game live here, once.

Each game subclasses it in ``rules/<game>/presentation.py`` and links it with
``Game.presentation``; the base class words any game generically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from engine.cards import CardParseError, parse_face, pretty

JSON = dict[str, Any]


# words shared by every game's presentation


def is_card(text: Any) -> bool:
    """Whether ``text`` is a card spelling (``AS``, ``10h``, ``BJ``...)."""
    return isinstance(text, str) and _spelled(text) is not None


def card_text(text: Any) -> str:
    """A card spelling with suit symbols (``TH`` -> ``10♥``); other text unchanged."""
    if not isinstance(text, str):
        return str(text)
    spelled = _spelled(text)
    return text if spelled is None else spelled


@lru_cache(maxsize=1024)
def _spelled(text: str) -> str | None:
    """A card spelling as people read it, or None for text that is no card (cached:
    every frame spells the same few dozen cards)."""
    try:
        return pretty(parse_face(text))
    except CardParseError:
        return None


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols; ``-`` for none."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def plural(n: Any, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``: every count in a game's words goes through here."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def number_text(value: Any) -> str:
    """A number as people write it: ``-653`` rather than ``-653.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def who(seat: Any, names: Sequence[str], viewer: int | None) -> str:
    """A seat's display name, marking the viewer's own seat ``(you)``."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return str(seat)
    name = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
    return f"{name} (you)" if seat == viewer else name


def subject(seat: Any, names: Sequence[str], viewer: int | None) -> tuple[str, bool]:
    """Who did it, and whether that is the viewer (``You raise`` / ``Seat 2 raises``)."""
    if seat is not None and seat == viewer:
        return "You", True
    return who(seat, names, viewer), False


def verb(base: str, you: bool) -> str:
    """``play`` for the viewer, ``plays`` for anyone else (``passes``, ``buries``)."""
    if you:
        return base
    if base.endswith(("sh", "ch", "s", "x")):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return base[:-1] + "ies"
    return base + "s"


def capital(text: str) -> str:
    """``raise to 12`` -> ``Raise to 12``."""
    return text[:1].upper() + text[1:]


def value_text(value: Any) -> str:
    """A compact reading of one JSON value; card lists get suit symbols."""
    if isinstance(value, str):
        return card_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number_text(value)
    if isinstance(value, list):
        if not value:
            return "-"
        if all(isinstance(v, str) for v in value):
            return " ".join(card_text(v) for v in value)
        return (
            " | ".join(value_text(v) for v in value)
            if all(isinstance(v, list) for v in value)
            else " ".join(value_text(v) for v in value)
        )
    return str(value)


def team_names(names: Sequence[str]) -> tuple[str, str]:
    """Two fixed partnerships of four seats: ``North/South``, ``East/West``."""
    if len(names) == 4:
        return f"{names[0]}/{names[2]}", f"{names[1]}/{names[3]}"
    return "team 1", "team 2"


class Presentation:
    """A game's words.  Every method is a pure function of what the viewer sees."""

    # Whether a line may depend on the position before its events (:meth:`advance`):
    # callers then pass the viewer's view from before them to :meth:`narration`.
    remembers: ClassVar[bool] = False

    def seat_names(self, count: int) -> list[str]:
        """Display names of ``count`` seats: ``Seat 1``, ``Seat 2``..."""
        return [f"Seat {i + 1}" for i in range(count)]

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        """A legal action as a button or menu entry reads: ``Play A♠``."""
        kind = str(action.get("type", "?"))
        rest = {k: v for k, v in action.items() if k != "type"}
        if list(rest) in (["card"], ["cards"]):
            return f"{capital(kind.replace('_', ' '))} {value_text(next(iter(rest.values())))}"
        parts = [capital(kind.replace("_", " "))]
        parts += [f"{k} {value_text(v)}" for k, v in rest.items()]
        return " ".join(parts)

    def labels(self, view: JSON, legal: Sequence[Mapping[str, Any]] | None) -> list[str] | None:
        """One label per legal action, in the same order; None where there is no list."""
        if legal is None:
            return None
        return [self.action_label(view, a) for a in legal]

    def step_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        """A logged action in a replay, as its viewer may see it: withheld actions
        (``{"type": "bury", "hidden": true}``) say only what kind they were."""
        if action.get("hidden"):
            return f"{capital(str(action.get('type')).replace('_', ' '))} (withheld)"
        return self.action_label(view, action)

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        """One line for ``event`` as ``viewer`` reads it (None: nothing worth a line).

        ``view`` is the viewer's view as it stood when the event happened (see
        :meth:`advance`), so a line may depend on what came before it."""
        kind = str(event.get("kind", "?"))
        seat = event.get("seat")
        if kind == "game_over":
            return f"Game over: {self.summary(event, names)}"
        if kind == "hand":
            if seat == viewer and isinstance(event.get("cards"), list):
                return f"You are dealt {plural(len(event['cards']), 'card')}"
            return None
        if kind == "play" and ("card" in event or "cards" in event):
            actor, you = subject(seat, names, viewer)
            played = value_text(event.get("card", event.get("cards")))
            return f"{actor} {verb('play', you)} {played}"
        rest = {k: v for k, v in event.items() if k not in ("kind", "seat")}
        head = f"{who(seat, names, viewer)}: {kind}" if seat is not None else kind
        detail = ", ".join(f"{k} {value_text(v)}" for k, v in rest.items())
        return f"{head} {detail}".rstrip()

    def advance(self, view: JSON, event: JSON) -> JSON:
        """The view as far as narration needs it once ``event`` has happened (a
        trick one card fuller, a contract known).  The base keeps the view as is."""
        return view

    def narration(
        self,
        before: JSON | None,
        events: Sequence[JSON],
        viewer: int | None,
        names: Sequence[str],
    ) -> list[str | None]:
        """A line (or None) per event, each read from the view as it stood then,
        starting from ``before``: the viewer's view before these events."""
        view: JSON = dict(before or {})
        lines: list[str | None] = []
        for event in events:
            lines.append(self.narrate(view, event, viewer, names))
            view = self.advance(view, event)
        return lines

    def hints(self, view: JSON) -> JSON:
        """Display-only facts derived from the view with the game's knowledge (a
        hand in the game's order, each card's points...).  The base has none."""
        return {}

    def summary(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        """A result's ``summary`` in the table's words."""
        return str(result.get("summary") or "")
