"""A tractor action is checked once: ``validate`` returns the move, ``apply`` only
performs it, on every path a table, a replay or the arena takes."""

from __future__ import annotations

from typing import Any

import pytest

from bots.arena import play_game
from bots.base import RandomBot
from engine.replay import LoggedAction, replay, state_hash
from engine.rng import Rng
from rules.tractor.game import TractorMove
from rules.tractor.play_rules import PlayRules
from rules.tractor.state import Phase
from tests.rules.tractor.test_tractor_game import GAME, config, playing


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the play phase ran the follow and the lead checks."""
    counts = {"follow": 0, "lead": 0}

    def counted(name: str, real: Any) -> Any:
        def check(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return real(*args, **kwargs)

        return check

    monkeypatch.setattr(PlayRules, "check_follow", counted("follow", PlayRules.check_follow))
    monkeypatch.setattr(PlayRules, "check_lead", counted("lead", PlayRules.check_lead))
    return counts


def test_a_follow_is_checked_once_and_a_lead_decomposed_once(checks: dict[str, int]) -> None:
    s = playing(["3S 4D", "AS 5D", "4S 6D", "KS 7D"])
    move = GAME.validate(s, 0, {"type": "play", "cards": ["3S"]})
    assert isinstance(move, TractorMove) and move.lead is not None
    s, _ = GAME.apply(s, 0, move)
    assert checks == {"follow": 0, "lead": 1}
    s, _ = GAME.apply(s, 1, GAME.validate(s, 1, {"type": "play", "cards": ["AS"]}))
    assert checks == {"follow": 1, "lead": 1}


def _random_round(seed: int) -> tuple[list[LoggedAction], Any, int, int]:
    """A one-round match of random legal play through validate -> apply: the log,
    the final state, and how many leads and follows it accepted."""
    cfg = config(rounds=1)
    rng = Rng(seed)
    state = GAME.new(cfg, seed)
    log: list[LoggedAction] = []
    leads = follows = 0
    while GAME.to_act(state):
        seat = rng.choice(GAME.to_act(state))
        move = GAME.validate(state, seat, rng.choice(GAME.legal(state, seat)))
        if state.phase is Phase.PLAY and move.action["type"] == "play":
            leads += not state.trick
            follows += bool(state.trick)
        state, _ = GAME.apply(state, seat, move)
        log.append(LoggedAction(len(log) + 1, seat, move.action))
    return log, state, leads, follows


def test_every_accepted_action_is_checked_once_in_play_and_in_replay(
    checks: dict[str, int],
) -> None:
    log, final, leads, follows = _random_round(5)
    assert follows > 50 and leads > 10
    assert checks == {"follow": follows, "lead": leads}
    checks.update(follow=0, lead=0)
    again = replay(GAME, config(rounds=1), 5, log)
    assert state_hash(GAME, again) == state_hash(GAME, final)
    assert checks == {"follow": follows, "lead": leads}


class _CountingBot(RandomBot):
    """Random play that counts the leads and follows it makes."""

    def __init__(self) -> None:
        self.leads = self.follows = 0

    def decide(self, view: Any, legal: Any, seat: int, seed: int, budget: float) -> Any:
        action = super().decide(view, legal, seat, seed, budget)
        # Only plays are checked as leads or follows (not an early end_round).
        if view["phase"] == "play" and action is not None and action["type"] == "play":
            self.leads += not view["trick"]
            self.follows += bool(view["trick"])
        return action


def test_the_arena_checks_each_action_once(checks: dict[str, int]) -> None:
    bot = _CountingBot()
    _, _, illegal = play_game(GAME, config(rounds=1), 3, [bot] * 4)
    assert illegal == 0 and bot.follows > 50
    assert checks == {"follow": bot.follows, "lead": bot.leads}


def test_apply_refuses_a_raw_action_or_a_move_for_another_position() -> None:
    s = playing(["3S 4D", "AS 5D", "4S 6D", "KS 7D"])
    action = {"type": "play", "cards": ["3S"]}
    with pytest.raises(TypeError):
        GAME.apply(s, 0, action)  # type: ignore[arg-type]
    move = GAME.validate(s, 0, action)
    with pytest.raises(ValueError):
        GAME.apply(s, 1, move)
    after, _ = GAME.apply(s, 0, move)
    with pytest.raises(ValueError):
        GAME.apply(after, 0, move)  # checked on the state before: not replayable
