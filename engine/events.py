"""Events carry who may see them, so one log serves every viewer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

JSON = dict[str, Any]

SPECTATOR: Final = -1
"""Viewer id of anyone watching without a seat."""
OMNISCIENT: Final = -2
"""Viewer id of a replay that may see every card (finished games only)."""


@dataclass(frozen=True)
class Visibility:
    """Who may see an event: everyone (``seats is None``) or listed seats only.

    An empty seat set means hidden from every player; only the omniscient
    replay of a finished game sees such events.
    """

    seats: frozenset[int] | None = None

    def shows(self, viewer: int) -> bool:
        """Whether ``viewer`` (a seat, SPECTATOR or OMNISCIENT) may see it."""
        if viewer == OMNISCIENT or self.seats is None:
            return True
        return viewer in self.seats


PUBLIC: Final = Visibility()
HIDDEN: Final = Visibility(frozenset())


def only(*seats: int) -> Visibility:
    """Visible to the given seats alone."""
    return Visibility(frozenset(seats))


@dataclass(frozen=True)
class Event:
    """Something that happened, as JSON-ready data, with its visibility."""

    kind: str
    data: JSON = field(default_factory=dict)
    visibility: Visibility = PUBLIC

    def to_json(self) -> JSON:
        return {"kind": self.kind, **self.data}


def visible(events: list[Event], viewer: int) -> list[JSON]:
    """The JSON of the events ``viewer`` may see, in order."""
    return [e.to_json() for e in events if e.visibility.shows(viewer)]
