"""Stored games as game records (engine/formats.py): what the rules' file formats
and statistics take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.formats import GameRecord
from rules.registry import get_game
from server.files import stored_record


def seat_names(stored: Any, names: dict[int, str]) -> dict[int, str]:
    """Each seat's name in a stored game: a person's name (``names``: player id ->
    name), ``bot:NAME`` for a bot, ``""`` for an empty seat."""
    return {
        s.seat: names.get(s.player_id, "")
        if s.kind == "human" and s.player_id is not None
        else f"bot:{s.bot}"
        if s.kind == "bot"
        else ""
        for s in stored.seats
    }


async def stored_records(store: Any, game: str, limit: int) -> list[GameRecord]:
    """The newest ``limit`` stored games of ``game``, oldest first, as records (an
    imported game's players named as its file names them)."""
    rows = await store.list_games(limit, None, game)
    games = [await store.get_game(g.id) for g, _ in rows]
    ids = [s.player_id for g in games if g for s in g.seats if s.player_id is not None]
    names = await store.player_names(ids)
    return [stored_record(g, seat_names(g, names)) for g in reversed(games) if g is not None]


def result_summary(stored: Any) -> str:
    """A stored game's result summary in its table's words (the game's
    presentation: a Tractor table's teams by their seats' names, an imported poker
    hand's winner by the name its file gives)."""
    source = (stored.table_options or {}).get("imported") or {}
    return summary_text(stored.game_type, stored.config, stored.result,
                        source.get("players") or ())


def summary_text(game_type: str, config: dict[str, Any], result: dict[str, Any] | None,
                 players: Sequence[str] = ()) -> str:
    """A result's summary in its table's words; ``players``: the names a file gives
    the seats (an imported game), where it gives any."""
    result = result or {}
    try:
        game = get_game(game_type)
        names = list(game.seat_names(game.parse_config(config)))
    except IllegalAction:  # a game or options this server no longer knows
        return str(result.get("summary") or "")
    if len(players) == len(names):
        names = [str(p) or n for p, n in zip(players, names, strict=True)]
    return game.presentation.summary(result, names)
