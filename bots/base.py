"""The Bot contract, the random-legal bot every game has, and the bot registry."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Action
from engine.rng import Rng


class Bot(Protocol):
    """A player program: picks one of ``legal`` from what ``view`` shows its seat.

    ``seed`` makes its choices reproducible; ``budget`` is the seconds it may think
    (the server stops waiting after it).  A bot that cannot decide returns None
    (or raises) rather than picking an arbitrary action: whoever asked it then
    plays the game's stand-in (``Game.stand_in``) for the seat, as for a late bot
    or an illegal answer.  Defaults that are part of a bot's own play (pass when
    no bid is worth it) are its decisions, not fallbacks.
    """

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action | None: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        return Rng(seed).choice(legal)


# (game, bot name) -> "module:Class".  Every game has "random"; its first other
# entry, if any, is the default that fills empty seats.
BOTS: dict[str, dict[str, str]] = {
    "bridge": {"gib": "bots.bridge.gib:GibBot", "random": "bots.base:RandomBot"},
    "poker": {
        "equity": "bots.poker.equity:PokerEquityBot",
        "rule": "bots.poker.rule:PokerRuleBot",
        "random": "bots.base:RandomBot",
    },
    "whist": {
        "heuristic": "bots.whist.heuristic:WhistHeuristicBot",
        "random": "bots.base:RandomBot",
    },
    "tractor": {
        "heuristic": "bots.tractor.heuristic:TractorHeuristicBot",
        "montecarlo": "bots.tractor.montecarlo:TractorMonteCarloBot",
        "random": "bots.base:RandomBot",
    },
    "rummy": {
        "combo": "bots.rummy.combo:RummyComboBot",
        "greedy": "bots.rummy.greedy:RummyGreedyBot",
        "random": "bots.base:RandomBot",
    },
    "crazy_eights": {
        "heuristic": "bots.crazy_eights.heuristic:CrazyEightsHeuristicBot",
        "random": "bots.base:RandomBot",
    },
}


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (the default first)."""
    return list(BOTS.get(game, {"random": ""}))


def default_bot(game: str) -> str:
    return bot_names(game)[0]


def make_bot(game: str, name: str) -> Bot:
    """An instance of bot ``name`` for ``game``; ``unknown_bot`` if there is none."""
    table = BOTS.get(game, {"random": "bots.base:RandomBot"})
    target = table.get(name)
    if target is None:
        raise IllegalAction("unknown_bot", f"no bot {name!r} for {game}; known: {', '.join(table)}")
    module, _, attr = target.partition(":")
    bot: Bot = getattr(importlib.import_module(module), attr)()
    return bot


def decide(
    game: str, name: str, view: JSON, legal: list[Any], seat: int, seed: int, budget: float
) -> Action | None:
    """Top-level entry point for the server's process pool (must be picklable);
    None when the bot cannot decide."""
    action = make_bot(game, name).decide(view, legal, seat, seed, budget)
    return None if action is None else dict(action)
