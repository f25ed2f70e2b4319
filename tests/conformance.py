"""The Game conformance suite every game reuses.

``check_game(game, config, seeds)`` plays random legal games to the end and checks
the contract (docs/architecture.md, "The Game contract") on every step:

- every game reaches a terminal state (``to_act`` empty, ``result`` set);
- a seat out of turn is offered only what the rules accept of it (``may_act``);
- every action ``legal`` offers is accepted; a rejected action leaves the state as
  it was (states are values, so "unchanged" means equal hash);
- replaying the log from ``new(config, seed)`` reaches a byte-identical state hash;
- ``apply`` takes only the move ``validate`` returned for that state and seat;
- no view, visible event or error message shown to a seat or a spectator names a
  card that is secret from it (``Game.secrets``), scanning the serialized JSON.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from engine.cards import format_face
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR, Event
from engine.game import Game, Move
from engine.replay import LoggedAction, replay, state_hash
from engine.rng import Rng
from engine.secrecy import faces_named


def assert_no_leak(game: Game[Any, Any], state: Any, viewer: int, shown: Any, what: str) -> None:
    """Fail if ``shown`` names a face that is secret from ``viewer`` in ``state``."""
    leaked = faces_named(shown, game.non_card_keys) & game.secrets(state, viewer)
    assert not leaked, f"{what} for viewer {viewer} leaks {sorted(map(format_face, leaked))}"


@dataclass
class Played:
    """One random game: its log and final state."""

    log: list[LoggedAction]
    state: Any


def play_random(game: Game[Any, Any], config: Any, seed: int, *, scan: bool = True) -> Played:
    """Random legal play from ``seed`` to the end, checking the contract as it goes."""
    rng = Rng(seed ^ 0x5EED)
    state = game.new(config, seed)
    viewers = [*range(game.seat_count(config)), SPECTATOR]
    if scan:
        scan_step(game, state, viewers, game.initial_events(state))
    log: list[LoggedAction] = []
    for _ in range(100_000):
        acting = game.to_act(state)
        if not acting:
            break
        assert game.result(state) is None, "result set while seats still act"
        seat = rng.choice(acting)
        options = game.legal(state, seat)
        assert options, f"seat {seat} must act but has no legal action"
        action = rng.choice(options)
        move = game.validate(state, seat, action)
        canonical = move.action
        # A table refuses fields beyond action_fields: no action the rules offer or
        # keep may carry one.
        for offered in (*options, canonical):
            game.check_fields(offered)
        if scan and rng.below(8) == 0:
            _check_rejection(game, state, seat, viewers)
            _check_out_of_turn(game, state, acting)
            _check_apply_takes_only_its_move(game, state, seat, move)
        previous = state
        state, events = game.apply(state, seat, move)
        log.append(LoggedAction(len(log) + 1, seat, canonical))
        if scan:
            scan_step(game, state, viewers, events, previous, seat=seat, action=canonical)
    else:
        raise AssertionError("game did not end within 100,000 actions")
    assert game.result(state) is not None, "terminal state without a result"
    return Played(log, state)


def scan_step(
    game: Game[Any, Any],
    state: Any,
    viewers: list[int],
    events: list[Event],
    before: Any = None,
    *,
    seat: int | None = None,
    action: Any = None,
) -> None:
    """Check the views after a transition, the events it produced and the action
    as a replay shows it, for every viewer."""
    for v in viewers:
        assert_no_leak(game, state, v, game.view(state, v), "view")
        _scan_events(game, state, v, events, before)
        if seat is not None and v != seat:  # the actor knows its own action
            assert_no_leak(game, state, v, game.action_view(state, seat, action, v), "action")
    json.dumps(game.view(state, OMNISCIENT))  # must be JSON-ready
    # A broadcast builds every viewer's view at once: the same views.
    everyone = [*viewers, OMNISCIENT]
    assert game.views(state, everyone) == {v: game.view(state, v) for v in everyone}


def _scan_events(
    game: Game[Any, Any], state: Any, viewer: int, events: list[Event], before: Any
) -> None:
    """Events describe a transition, which may end a deal and start the next (or
    even play a whole deal out).  They are cut at every ``deal`` event:

    - before the first cut: the old deal, checked against what was secret before
      the action, less the cards its revealing events turned up
      (``Game.revealing_kinds``: cards played, hands shown, board cards dealt);
    - between cuts: deals that started and ended inside the action, which may name
      only cards they turned up, or the viewer's own cards in events to it alone;
    - from the last cut (all of them when no deal starts): checked against what is
      secret after the action.
    """
    cuts = [i for i, e in enumerate(events) if e.kind == "deal"] if before is not None else []
    bounds = [0, *cuts, len(events)]
    segments = [events[a:b] for a, b in itertools.pairwise(bounds)]
    skip = game.non_card_keys
    for k, segment in enumerate(segments):
        seen = [e.to_json() for e in segment if e.visibility.shows(viewer)]
        if k == len(segments) - 1:
            assert_no_leak(game, state, viewer, seen, "events")
            continue
        turned_up = faces_named([e for e in seen if e["kind"] in game.revealing_kinds], skip)
        if k == 0:
            leaked = faces_named(seen, skip) & game.secrets(before, viewer) - turned_up
        else:
            public = [
                e.to_json()
                for e in segment
                if e.visibility.shows(viewer) and e.visibility.seats != frozenset({viewer})
            ]
            leaked = faces_named(public, skip) - turned_up
        assert not leaked, f"events for viewer {viewer} leak {sorted(map(format_face, leaked))}"


def _check_rejection(game: Game[Any, Any], state: Any, seat: int, viewers: list[int]) -> None:
    """Illegal actions raise IllegalAction without leaking or changing the state."""
    before = state_hash(game, state)
    others = [v for v in viewers if v not in game.to_act(state)]
    junk: list[dict[str, Any]] = [{"type": "no-such-action"}, {}]
    for action in junk:
        try:
            game.validate(state, seat, action)
        except IllegalAction as exc:
            assert exc.code and isinstance(exc.code, str)
            assert_no_leak(game, state, seat, exc.message, "error message")
        else:
            raise AssertionError(f"junk action {action} accepted")
    for other in others:
        if other == SPECTATOR:
            continue
        options = game.legal(state, seat)
        try:
            game.validate(state, other, options[0])
        except IllegalAction as exc:
            assert_no_leak(game, state, other, exc.message, "error message")
    assert state_hash(game, state) == before, "a rejected action changed the state"


def _check_out_of_turn(game: Game[Any, Any], state: Any, acting: tuple[int, ...]) -> None:
    """A seat the rules let act out of turn (``may_act`` beyond ``to_act``) is offered
    only actions the rules accept; every other seat is offered none."""
    allowed = game.may_act(state)
    assert set(acting) <= set(allowed), "a seat to act may not act"
    for other in range(game.seat_count(state.config)):
        if other in acting:
            continue
        options = game.legal(state, other)
        if other not in allowed:
            assert not options, f"seat {other} may not act but is offered {options[:3]}"
        for action in options:
            game.validate(state, other, action)


@dataclass(frozen=True)
class _ForeignMove(Move):
    """A move no game's validate returns."""


def _check_apply_takes_only_its_move(game: Game[Any, Any], state: Any, seat: int,
                                     move: Move) -> None:
    """``apply`` checks nothing, so it refuses what ``validate`` did not return for
    this state and seat: a raw action, a move of another seat or state."""
    before = state_hash(game, state)
    with pytest.raises(TypeError):
        game.apply(state, seat, dict(move.action))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.apply(state, seat, _ForeignMove(move.action, seat, state))
    other = next((s for s in range(game.seat_count(state.config)) if s != seat), seat)
    with pytest.raises(ValueError):
        game.apply(state, other, move)
    with pytest.raises(ValueError):
        game.apply(game.new(state.config, 1), seat, move)
    assert state_hash(game, state) == before, "a refused move changed the state"


def check_game(
    game: Game[Any, Any], config: Any, seeds: Iterable[int], *, scan: bool = True
) -> int:
    """Run the conformance checks over ``seeds``; returns the number of actions played."""
    total = 0
    for seed in seeds:
        played = play_random(game, config, seed, scan=scan)
        again = replay(game, config, seed, played.log)
        assert state_hash(game, again) == state_hash(game, played.state), (
            f"replay differs, seed {seed}"
        )
        total += len(played.log)
    return total
