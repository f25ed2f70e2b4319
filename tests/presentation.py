"""The presentation check every game reuses (docs/architecture.md, "Presentation").

``check_presentation(game, config, seed)`` plays a random game and, at every step
and for every seat and a spectator (and, once the game is over, the all-cards
viewer), checks what :class:`engine.presentation.Presentation` makes of it:

- one non-empty label per legal action, naming no card the seat may not know
  beyond the cards the action itself names;
- one line (or None) per visible event, naming no secret card beyond the ones its
  event names — narration is checked like the events it narrates;
- hints name no secret card;
- all of it is a pure function of what the viewer sees: the same from a JSON copy
  of the view and events, which it leaves unchanged.

It returns the event kinds seen and the kinds given a line, so each game's test can
say which kinds it keeps silent.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from engine.cards import format_face
from engine.events import OMNISCIENT, SPECTATOR, visible
from engine.game import Game
from engine.rng import Rng
from engine.secrecy import faces_named, faces_shown

# Choices rather than facts: a friend call may name any card of the deck.
CHOICE_KEYS = frozenset({"callable"})


@dataclass
class Seen:
    """What a game's presentation was asked about, and what it said."""

    kinds: set[str] = field(default_factory=set)
    narrated: set[str] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    hints: list[dict[str, Any]] = field(default_factory=list)


def _pure(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, checking it equals ``fn`` of JSON copies and changes no argument."""
    kept = copy.deepcopy(args)
    out = fn(*args)
    assert args == kept, f"{fn.__name__} changed its arguments"
    assert fn(*json.loads(json.dumps(args))) == out, f"{fn.__name__} is not a function of JSON"
    json.dumps(out)  # must be JSON-ready
    return out


def _secret(game: Game[Any, Any], state: Any, viewer: int, shown: Any, allowed: set[int]) -> None:
    leaked = (faces_shown(shown, game.non_card_keys | CHOICE_KEYS) - allowed) & game.secrets(
        state, viewer
    )
    assert not leaked, f"{shown!r} for viewer {viewer} leaks {sorted(map(format_face, leaked))}"


def check_presentation(game: Game[Any, Any], config: Any, seed: int, limit: int = 5000) -> Seen:
    """Random play from ``seed`` with every frame's words checked; what was seen."""
    p = game.presentation
    names = list(game.seat_names(config))
    assert len(names) == game.seat_count(config) and all(names)
    rng = Rng(seed ^ 0x9E11)
    seen = Seen()
    state = game.new(config, seed)
    viewers = [*range(game.seat_count(config)), SPECTATOR]
    views = {v: game.view(state, v) for v in viewers}
    _words(game, state, viewers, {}, views, game.initial_events(state), names, seen)
    for _ in range(limit):
        acting = game.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        legal = [dict(a) for a in game.legal(state, seat)]
        labels = _pure(p.labels, views[seat], legal)
        assert len(labels) == len(legal), "one label per legal action"
        for action, label in zip(legal, labels, strict=True):
            assert isinstance(label, str) and label.strip(), f"empty label for {action}"
            _secret(game, state, seat, label, faces_named(action))
        seen.labels += labels
        before = views
        state, events = game.act(state, seat, rng.choice(legal))
        if not game.to_act(state):
            viewers = [*viewers, OMNISCIENT]  # every card, once the game is over
        views = {v: game.view(state, v) for v in viewers}
        _words(game, state, viewers, before, views, events, names, seen)
    assert game.result(state) is not None, "the game did not end"
    assert p.labels(views[SPECTATOR], None) is None
    return seen


def _words(
    game: Game[Any, Any],
    state: Any,
    viewers: list[int],
    before: dict[int, Any],
    views: dict[int, Any],
    events: list[Any],
    names: list[str],
    seen: Seen,
) -> None:
    p = game.presentation
    for v in viewers:
        shown = visible(events, v)
        lines = _pure(p.narration, before.get(v), shown, v, names)
        assert len(lines) == len(shown), "one line (or None) per event"
        for event, line in zip(shown, lines, strict=True):
            seen.kinds.add(event["kind"])
            if line is None:
                continue
            assert isinstance(line, str) and line.strip(), f"empty line for {event}"
            seen.narrated.add(event["kind"])
            seen.lines.append(line)
            _secret(game, state, v, line, faces_named(event))
        hints = _pure(p.hints, views[v])
        assert isinstance(hints, dict)
        _secret(game, state, v, hints, set())
        seen.hints.append(hints)
