"""A bot that thinks for too long (to test the server's per-decision budget)."""

import time
from collections.abc import Sequence

from engine.game import Action


class SlowBot:
    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        time.sleep(budget * 3)
        return legal[-1]


class BrokenBot:
    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        return {"type": "play", "card": "no such card"}


class UndecidedBot:
    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action | None:
        return None  # cannot decide: the table's stand-in moves


class SteadyBot:
    """Takes a hundredth of a second a decision, well within any budget: its games
    last long enough for a test to kill the process playing one."""

    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        time.sleep(0.01)
        return legal[0]


class ThinkingBot:
    """Thinks for a third of a second, within a half-second budget."""

    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        time.sleep(0.3)
        return legal[-1]


class HungBot:
    """Never answers (as a bot stuck in a loop or on a lock)."""

    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        time.sleep(3600)
        return legal[0]


class RaisingBot:
    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        raise ValueError("this bot has a bug")


_COLD = True


class ColdBot:
    """Builds its tables on its first decision in a process: a second."""

    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        global _COLD
        if _COLD:
            time.sleep(1.0)
            _COLD = False
        return legal[-1]


_STARTED = False


class FirstCallHangs:
    """Never returns from its first decision in a process (stuck while starting
    up); answers at once afterwards."""

    def decide(
        self, view: dict, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        global _STARTED
        if not _STARTED:
            _STARTED = True
            time.sleep(3600)
        return legal[-1]
