"""Deterministic replay: ``new(config, seed)`` plus the action log."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.events import Event
from engine.game import Action, Game, apply_logged


@dataclass(frozen=True)
class LoggedAction:
    """One accepted action as the log stores it."""

    seq: int
    seat: int
    action: Action


@dataclass(frozen=True)
class Step:
    """The state after one logged action and the events it produced."""

    seq: int
    seat: int
    action: Action
    state: Any
    events: list[Event]


def canonical_json(value: Any) -> str:
    """The one serialization hashes are taken over (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(game: Game[Any, Any], state: Any) -> str:
    """A stable SHA-256 of the whole state."""
    return hashlib.sha256(canonical_json(game.encode(state)).encode()).hexdigest()


def steps(
    game: Game[Any, Any], config: Any, seed: int, log: Iterable[LoggedAction]
) -> Iterator[Step]:
    """Re-apply a log, yielding every intermediate state (seq 0 = the start)."""
    state = game.new(config, seed)
    yield Step(0, -1, {}, state, game.initial_events(state))
    for entry in log:
        # Checked as it was when played: validate, then apply the move (or the
        # match ended by agreement).
        state, events = apply_logged(game, state, entry.seat, entry.action)
        yield Step(entry.seq, entry.seat, entry.action, state, events)


def replay(game: Game[Any, Any], config: Any, seed: int, log: Iterable[LoggedAction]) -> Any:
    """The state reached by re-applying a log."""
    state = None
    for step in steps(game, config, seed, log):
        state = step.state
    return state
