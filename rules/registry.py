"""The games a server can host, by name.

Games register here by import path so a server only imports the rules it uses.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.errors import IllegalAction
from engine.formats import FileFormat
from engine.game import Game
from engine.tools import Tool

GAMES: dict[str, str] = {
    "poker": "rules.poker.game:PokerGame",
    "whist": "rules.whist.game:WhistGame",
    "bridge": "rules.bridge.game:BridgeGame",
    "tractor": "rules.tractor.game:TractorGame",
    "rummy": "rules.rummy.game:RummyGame",
    "crazy_eights": "rules.crazy_eights.game:CrazyEightsGame",
}
# The game a command plays when none is named (`cardtable play`, `tournament`).
DEFAULT_GAME = "whist"


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


def tools() -> list[Tool]:
    """Every game's command-line tools (engine/tools.py); ``ValueError`` if two
    share a name."""
    found = [tool for name in GAMES for tool in get_game(name).tools]
    names = [tool.name for tool in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two games offer a tool named {', '.join(twice)}")
    return found


def file_formats() -> list[tuple[str, FileFormat]]:
    """Every game's file formats, as (game name, format)."""
    return [(name, fmt) for name in GAMES for fmt in get_game(name).formats]


def find_format(name: str | None = None, filename: str | None = None) -> tuple[str, FileFormat]:
    """The format called ``name``, else the one whose suffix ``filename`` ends
    with, and its game; ``unknown_format`` if there is none."""
    known = file_formats()
    listing = ", ".join(f"{f.name} ({game})" for game, f in known) or "none"
    if name:
        found = [(g, f) for g, f in known if f.name == name.strip().lower()]
        if not found:
            raise IllegalAction("unknown_format", f"no file format {name[:20]!r}; known: {listing}")
        return found[0]
    lower = (filename or "").lower()
    found = [(g, f) for g, f in known if any(lower.endswith(s) for s in f.suffixes)]
    if not found:
        raise IllegalAction("unknown_format", "the file's name does not say its format: "
                            f"name it; known: {listing}")
    return found[0]
