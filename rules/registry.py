"""The games a server can host, by name.

Games register here by import path so a server only imports the rules it uses.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.errors import IllegalAction
from engine.game import Game

GAMES: dict[str, str] = {
    "poker": "rules.poker.game:PokerGame",
    "whist": "rules.whist.game:WhistGame",
    "bridge": "rules.bridge.game:BridgeGame",
    "tractor": "rules.tractor.game:TractorGame",
    "rummy": "rules.rummy.game:RummyGame",
    "crazy_eights": "rules.crazy_eights.game:CrazyEightsGame",
}


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The rules of game ``name``; ``unknown_game`` if there is none."""
    target = GAMES.get(name)
    if target is None:
        raise IllegalAction("unknown_game", f"no game named {name!r}; known: {', '.join(GAMES)}")
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls()


def available() -> list[str]:
    """Names of every registered game."""
    return list(GAMES)
