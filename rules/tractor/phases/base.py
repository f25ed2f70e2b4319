"""What every tractor phase provides to the game's dispatcher."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from engine.events import Event
from engine.game import Action, Move
from rules.tractor.friends import FriendCall
from rules.tractor.state import TractorState
from rules.tractor.structure import Structure


@dataclass(frozen=True)
class TractorMove(Move):
    """A checked tractor action and what the check worked out, so that applying
    it checks nothing again: the card ids it names (in hand order), a lead's
    decomposition into units, a Finding Friends call's parsed calls."""

    cards: tuple[int, ...] = ()
    lead: Structure | None = None
    calls: tuple[FriendCall, ...] = ()

Step = tuple[TractorState, list[Event]]
"""A state after an action, and what happened."""


class PhaseRules(ABC):
    """One phase's rules.  ``legal`` and ``check`` are only asked of a seat that is
    to act (the dispatcher answers everyone else); ``apply`` only gets a move
    ``check`` returned."""

    @abstractmethod
    def to_act(self, state: TractorState) -> tuple[int, ...]:
        """Seats that may act now."""

    def to_act_visible(self, state: TractorState, viewer: int) -> tuple[int, ...]:
        """What ``viewer`` may know of ``to_act`` (all of it, unless a phase hides some)."""
        return self.to_act(state)

    @abstractmethod
    def legal(self, state: TractorState, seat: int) -> list[Action]:
        """Legal actions (a representative subset where there are many)."""

    def optional(self, state: TractorState, seat: int) -> list[Action]:
        """Actions a seat that is not to act may still take (none unless a phase
        says): an undo nobody waits for must not make a seat one the game, the
        turn clock or a bot waits on."""
        return []

    def open_to_all(self, state: TractorState, action: Action) -> bool:
        """Whether any seat may try ``action`` now, out of turn, so that its own
        check says why it fails (a weak declaration) rather than the turn."""
        return False

    @abstractmethod
    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        """The checked move (canonical action, card ids...), or IllegalAction."""

    @abstractmethod
    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        """Perform a move ``check`` returned, without checking it again."""
