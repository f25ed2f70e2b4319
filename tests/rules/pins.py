"""Pinned random play: a fingerprint of everything a game shows along one seeded game.

Stored games replay by re-applying their logs, so a change to the rules' code
must leave every state, view, event and legal list as it was.  ``trace`` plays
a fixed seed's random game (bounded in actions) and returns the final
``state_hash`` and one SHA-256 over every step's state hash, events, views for
every viewer, ``to_act_visible``, ``secrets``, legal actions, canonical action,
replay view of the action and result.  The pin tests compare both against
values computed on the code before a refactor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from engine.events import OMNISCIENT, SPECTATOR, Event
from engine.game import Action, Game
from engine.replay import canonical_json, state_hash
from engine.rng import Rng

# How a random player picks among the legal actions (a game's pins may favour
# rare paths: finishing a deal is one option among a dozen discards).
Choose = Callable[[Any, int, list[Action], Rng], Action]


def uniform(state: Any, seat: int, options: list[Action], rng: Rng) -> Action:
    """Any legal action, equally likely."""
    return rng.choice(options)


def _events_json(events: Sequence[Event]) -> list[Any]:
    return [[e.kind, e.data, None if e.visibility.seats is None else sorted(e.visibility.seats)]
            for e in events]


def trace(
    game: Game[Any, Any],
    options: dict[str, Any],
    seed: int,
    *,
    max_actions: int,
    choose: Choose = uniform,
) -> tuple[str, str, int]:
    """(final state hash, digest of the whole trace, actions taken) of one random game."""
    config = game.parse_config(options)
    rng = Rng(seed ^ 0xF1A7)
    state = game.new(config, seed)
    seats = game.seat_count(config)
    viewers = [*range(seats), SPECTATOR, OMNISCIENT]
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(canonical_json(value).encode())

    def snapshot(events: Sequence[Event]) -> None:
        feed(state_hash(game, state))
        feed(_events_json(events))
        acting = game.to_act(state)
        feed(list(acting))
        for v in viewers:
            feed(game.view(state, v))
            feed(list(game.to_act_visible(state, v)))
            feed(sorted(game.secrets(state, v)))
        for s in acting:
            feed(game.legal(state, s))
        result = game.result(state)
        feed(None if result is None else result.to_json())

    snapshot(game.initial_events(state))
    taken = 0
    while taken < max_actions:
        acting = game.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        action = choose(state, seat, game.legal(state, seat), rng)
        move = game.validate(state, seat, action)
        canonical = move.action
        feed([seat, canonical])
        state, events = game.apply(state, seat, move)
        feed([game.action_view(state, seat, canonical, v) for v in viewers])
        snapshot(events)
        taken += 1
    return state_hash(game, state), digest.hexdigest(), taken
