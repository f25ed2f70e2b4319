"""Tractor (Sheng Ji) as a :class:`engine.game.Game`: a match of rounds.

The draw is modelled like rbtying/shengji: the seat to draw acts with
``draw``, and every seat that could declare trump now is also to act, with
``declare`` or ``pass`` (a pass declines the declarations the seat could make
at that moment; it is asked again only when a new one becomes possible).  When
the stock is down to the kitty, seats that can still declare get a last word;
then the last declaration fixes trump, the landlord picks up the kitty and
buries as many cards, and 25 tricks are played.  The kitty is seen by the
landlord alone until the round ends; ``secrets`` says so to the leak scanner.

Actions (JSON):

* ``{"type": "draw"}``
* ``{"type": "declare", "cards": ["2H"]}`` (a pair: ``["2H", "2H"]``; no trump:
  ``["SJ", "SJ"]`` or ``["BJ", "BJ"]``)
* ``{"type": "pass"}``
* ``{"type": "bury", "cards": [8 cards]}`` (the kitty's size)
* ``{"type": "call", "calls": [{"card": "AS", "nth": 1}, ...]}`` (Finding Friends)
* ``{"type": "play", "cards": [...]}`` (a lead of several units is a throw)
* ``{"type": "takeback"}`` / ``{"type": "confirm"}`` (option ``takeback_allowed``:
  the last player withdraws, or keeps, a play the next player has not answered)
* ``{"type": "next_round"}``
* ``{"type": "end_match"}`` is never a seat's move: the table logs it when the
  players agreed to end the match (``end_by_agreement``: the levels as they stand).

Finding Friends (``finding_friends``, 5-8 seats) deals ``config.decks`` decks
with a ``config.kitty_size`` kitty, adds a ``call`` phase after the burial and
keeps sides dynamic (``rules/tractor/friends.py``, ``rules/tractor/sides.py``);
docs/tractor.md has the conventions.

This class only dispatches: each phase's rules live in ``rules/tractor/phases/``
(``draw``, ``kitty``, ``play``, ``round_end``), views in ``views.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.errors import IllegalAction
from engine.events import JSON, Event
from engine.game import Action, Game, Result
from rules.tractor import views
from rules.tractor.encoding import encode
from rules.tractor.options import TractorConfig
from rules.tractor.phases.base import PhaseRules, TractorMove
from rules.tractor.phases.common import sort_hand
from rules.tractor.phases.draw import Draw, new_round, round_events
from rules.tractor.phases.kitty import Bury, Call
from rules.tractor.phases.overbid import Overbid
from rules.tractor.phases.play import Play
from rules.tractor.phases.round_end import Over, RoundOver, end_by_agreement
from rules.tractor.presentation import TractorPresentation
from rules.tractor.sides import match_result
from rules.tractor.state import Phase, TractorState

__all__ = ["TractorGame", "TractorMove", "sort_hand"]

PHASES: dict[Phase, PhaseRules] = {
    Phase.DRAW: Draw(),
    Phase.BURY: Bury(),
    Phase.OVERBID: Overbid(),
    Phase.CALL: Call(),
    Phase.PLAY: Play(),
    Phase.ROUND_OVER: RoundOver(),
    Phase.OVER: Over(),
}


class TractorGame(Game[TractorState, TractorConfig]):
    name: ClassVar[str] = "tractor"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "draw": frozenset(),
        "declare": frozenset({"cards"}),
        "pass": frozenset(),
        "takeback_bid": frozenset(),
        "bury": frozenset({"cards"}),
        "call": frozenset({"calls"}),
        "play": frozenset({"cards"}),
        "takeback": frozenset(),
        "confirm": frozenset(),
        "end_round": frozenset(),
        "next_round": frozenset(),
    }
    title: ClassVar[str] = "Tractor (Sheng Ji)"
    config_model = TractorConfig
    move_type = TractorMove
    presentation = TractorPresentation()
    ends_by_agreement = True
    # A pass declines a declaration the seat could make: that it passed would tell
    # everyone it holds an undeclared card of the level's rank (or a joker pair).
    secret_actions = frozenset({"pass"})
    unversioned_actions = frozenset({"declare"})

    def seat_count(self, config: TractorConfig) -> int:
        return config.seats

    def new(self, config: TractorConfig, seed: int) -> TractorState:
        return new_round(config, seed, 0, levels=(0,) * config.seats, landlord=None,
                         starter=0, rounds_played=0, results=())

    def initial_events(self, state: TractorState) -> list[Event]:
        return round_events(state)

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        """During the draw: the drawer and every seat with a declaration it has not
        passed on; then the landlord (burial), the seat to play, the next landlord."""
        return PHASES[state.phase].to_act(state)

    def to_act_visible(self, state: TractorState, viewer: int) -> tuple[int, ...]:
        """During the draw, who else could declare is their secret: each viewer
        sees the drawer, and itself if it may declare."""
        return PHASES[state.phase].to_act_visible(state, viewer)

    def may_act(self, state: TractorState) -> tuple[int, ...]:
        """The seats to act, and a standing bidder who may take the bid back
        (option ``bid_takeback``) while others draw."""
        rules = PHASES[state.phase]
        acting = rules.to_act(state)
        extra = [s for s in range(state.seats) if s not in acting and rules.optional(state, s)]
        return tuple(sorted((*acting, *extra))) if extra else acting

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        rules = PHASES[state.phase]
        if seat not in rules.to_act(state):
            return rules.optional(state, seat)
        return rules.legal(state, seat)

    def validate(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        rules = PHASES[state.phase]
        # A finished match says so to everyone, before whose turn it is.
        if (state.phase is not Phase.OVER and seat not in rules.to_act(state)
                and dict(action) not in rules.optional(state, seat)
                and not rules.open_to_all(state, action)):
            raise IllegalAction("not_your_turn", "it is not your turn")
        return rules.check(state, seat, action)

    def perform(
        self, state: TractorState, seat: int, move: TractorMove
    ) -> tuple[TractorState, list[Event]]:
        return PHASES[state.phase].apply(state, seat, move)

    def end_by_agreement(self, state: TractorState) -> tuple[TractorState, list[Event]]:
        """The match ended by its players' agreement: levels as they stand."""
        return end_by_agreement(state)

    def view(self, state: TractorState, viewer: int) -> JSON:
        return views.view(state, viewer, self.name, self.to_act_visible(state, viewer))

    def secrets(self, state: TractorState, viewer: int) -> frozenset[int]:
        return views.secrets(state, viewer)

    def result(self, state: TractorState) -> Result | None:
        return match_result(state)

    def config_json(self, config: TractorConfig) -> JSON:
        return config.to_json()

    def encode(self, state: TractorState) -> JSON:
        return encode(state, self.config_json(state.config))
