"""Ending the whole match by agreement (docs/tractor.md, "Game flow"): the
standings are the levels as they stand, the round in progress unscored, the
higher level winning as at the ``rounds`` limit; the log keeps the end, so a
replay reaches it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.game import END_MATCH, apply_logged
from engine.replay import LoggedAction, replay, state_hash
from engine.rng import Rng
from rules.tractor.game import TractorGame
from rules.tractor.state import Phase, TractorState

GAME = TractorGame()


def into_second_round(options: dict[str, Any], seed: int) -> tuple[TractorState,
                                                                   list[LoggedAction]]:
    """Random play through the first round and a few actions of the second."""
    config = GAME.parse_config(options)
    state, rng = GAME.new(config, seed), Rng(seed)
    log: list[LoggedAction] = []
    extra = 0
    while extra < 5:
        seat = rng.choice(GAME.to_act(state))
        move = GAME.validate(state, seat, rng.choice(GAME.legal(state, seat)))
        state, _ = GAME.apply(state, seat, move)
        log.append(LoggedAction(len(log) + 1, seat, move.action))
        extra += state.rounds_played >= 1 and state.phase is not Phase.ROUND_OVER
    return state, log


@pytest.mark.parametrize("options", [{}, {"finding_friends": True, "seats": 5}],
                         ids=["classic", "friends"])
def test_the_match_ends_with_the_levels_as_they_stand(options: dict[str, Any]) -> None:
    state, _ = into_second_round(options, 3)
    assert state.rounds_played == 1 and GAME.result(state) is None
    ended, events = GAME.end_by_agreement(state)
    assert [e.kind for e in events] == ["match_ended", "game_over"]
    assert events[0].data == {"reason": "agreement", "rounds": 1}
    assert ended.phase is Phase.OVER and ended.levels == state.levels
    result = GAME.result(ended)
    assert result is not None and events[1].data == result.to_json()
    # Each seat scores the levels its side gained in the one round scored.
    last = state.results[-1]
    assert [int(x) for x in result.scores] == [
        last.levels if s in last.winners else 0 for s in range(state.seats)]
    # The higher level wins; the winners of the round are the seats above.
    top = max(state.levels)
    best = {s for s in range(state.seats) if state.levels[s] == top}
    assert {s for s, r in enumerate(result.ranks) if r == 1} == best


def test_the_log_keeps_the_end_and_a_replay_reaches_it() -> None:
    state, log = into_second_round({}, 5)
    ended, _ = apply_logged(GAME, state, 2, {"type": END_MATCH})
    log.append(LoggedAction(len(log) + 1, 2, {"type": END_MATCH}))
    again = replay(GAME, GAME.parse_config({}), 5, log)
    assert state_hash(GAME, again) == state_hash(GAME, ended)
    with pytest.raises(IllegalAction) as err:
        apply_logged(GAME, ended, 0, {"type": END_MATCH})
    assert err.value.code == "game_over"


def test_no_seat_sends_the_end_as_a_move() -> None:
    """Only the table ends a match by agreement: as a seat's action it is refused."""
    state, _ = into_second_round({}, 7)
    seat = GAME.to_act(state)[0]
    with pytest.raises(IllegalAction):
        GAME.validate(state, seat, {"type": END_MATCH})


def test_a_match_ended_in_its_first_round_is_in_round_one() -> None:
    """No round ended yet: the view shows round 1 (there is no round 0) and the
    result says the match stopped before the first round ended."""
    state = GAME.new(GAME.parse_config({}), 5)
    ended, _ = GAME.end_by_agreement(state)
    assert GAME.view(ended, 0)["round"] == 1
    result = GAME.result(ended)
    assert result is not None and "drawn before the first round ended" in result.summary


@pytest.mark.parametrize("options", [{}, {"finding_friends": True, "seats": 5}],
                         ids=["classic", "friends"])
def test_a_match_ended_under_way_shows_that_round_not_the_last_scored(
    options: dict[str, Any],
) -> None:
    """Ended with round 2 under way: the table shows round 2 (unscored), not round 1
    over round 2's cards; ended between rounds, round 1 and its result."""
    state, _ = into_second_round(options, 3)
    ended, _ = GAME.end_by_agreement(state)
    view = GAME.view(ended, 0)
    assert view["round"] == 2 and len(view["results"]) == 1
    assert "round_result" not in GAME.presentation.hints(view)
    config = GAME.parse_config(options)  # the same play, stopped at the end of round 1
    s, rng = GAME.new(config, 3), Rng(3)
    while s.phase is not Phase.ROUND_OVER:
        seat = rng.choice(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.validate(s, seat, rng.choice(GAME.legal(s, seat))))
    ended, _ = GAME.end_by_agreement(s)
    view = GAME.view(ended, 0)
    assert view["round"] == 1
    assert "round_result" in GAME.presentation.hints(view)
