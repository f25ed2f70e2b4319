"""What every tractor phase provides to the game's dispatcher."""

from __future__ import annotations

from abc import ABC, abstractmethod

from engine.events import Event
from engine.game import Action
from rules.tractor.state import TractorState

Checked = tuple[Action, tuple[int, ...]]
"""The canonical action and the card ids it names."""

Step = tuple[TractorState, list[Event]]
"""A state after an action, and what happened."""


class PhaseRules(ABC):
    """One phase's rules.  ``legal``, ``check`` and ``apply`` are only asked of a
    seat that is to act (the dispatcher answers everyone else)."""

    @abstractmethod
    def to_act(self, state: TractorState) -> tuple[int, ...]:
        """Seats that may act now."""

    def to_act_visible(self, state: TractorState, viewer: int) -> tuple[int, ...]:
        """What ``viewer`` may know of ``to_act`` (all of it, unless a phase hides some)."""
        return self.to_act(state)

    @abstractmethod
    def legal(self, state: TractorState, seat: int) -> list[Action]:
        """Legal actions (a representative subset where there are many)."""

    @abstractmethod
    def check(self, state: TractorState, seat: int, action: Action) -> Checked:
        """The canonical action and the card ids it names, or IllegalAction."""

    @abstractmethod
    def apply(self, state: TractorState, seat: int, action: Action,
              cards: tuple[int, ...]) -> Step:
        """Perform a checked action (``action`` canonical, ``cards`` its card ids)."""
