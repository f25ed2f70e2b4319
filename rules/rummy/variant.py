"""What a rummy variant decides, as one policy object per variant.

Both variants share the turn (draw from the stock or the pile, then discard)
and the deal's bookkeeping (``flow.py``); a :class:`VariantRules` says what
differs: the deck and hand size, whether a seat may drop, how a hand finishes
(an indian declaration, a gin knock), when a deal is void, how deals add up to
a match, the view's variant fields and the result.  ``game.py`` picks the
policy once from ``RummyConfig.variant``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.events import JSON, Event
from engine.game import Action, Result
from rules.rummy.melds import Meld
from rules.rummy.options import MeldRules
from rules.rummy.state import DealOutcome, RummyState

Step = tuple[RummyState, list[Event]]
"""A state after an action, and what happened."""


class VariantRules(ABC):
    """The rules one rummy variant adds to the shared draw/discard turn."""

    deck: ClassVar[tuple[int, ...]]
    """Card ids of the shoe, in a fixed order (shuffled per deal)."""
    hand_size: ClassVar[int]
    cuts_wild: ClassVar[bool]
    """Whether a deal cuts a wild card (face up, out of play) before the upcard."""
    can_drop: ClassVar[bool]
    """Whether the seat to draw may drop out of the deal instead."""
    finish: ClassVar[str]
    """The action that ends a hand while discarding (``declare`` / ``knock``)."""
    actions: ClassVar[frozenset[str]]
    """Action types this variant performs itself (``apply``)."""

    def banned_face(self, state: RummyState) -> int | None:
        """A face the seat to move may not discard now (none unless a variant says)."""
        return None

    @abstractmethod
    def finishes(self, state: RummyState, hand: Sequence[int], faces: Sequence[int],
                 banned: int | None, rules: MeldRules) -> list[Action]:
        """The finishing actions ``legal`` offers a hand of ``faces`` after the draw."""

    @abstractmethod
    def check_finish(self, state: RummyState, card: int, groups: list[tuple[int, ...]],
                     melds: list[Meld | None], leftover: tuple[int, ...],
                     rules: MeldRules) -> Any:
        """What a finish discarding ``card`` with ``groups`` resolves to, or IllegalAction."""

    @abstractmethod
    def apply(self, state: RummyState, seat: int, canonical: Action, arg: Any) -> Step:
        """Perform a checked action of one of this variant's own ``actions``."""

    @abstractmethod
    def after_discard(self, state: RummyState, events: list[Event]) -> Step:
        """The deal after a plain discard: on, or void when it cannot go on."""

    @abstractmethod
    def standings(self, state: RummyState, points: tuple[int, ...],
                  outcome: DealOutcome) -> tuple[tuple[bool, ...], tuple[int, ...], bool]:
        """After a deal with match totals ``points``: (eliminated, boxes, match over)."""

    @abstractmethod
    def view_fields(self, state: RummyState, rules: MeldRules) -> JSON:
        """The view's fields for this variant."""

    @abstractmethod
    def result(self, state: RummyState) -> Result:
        """The result of a finished match."""
