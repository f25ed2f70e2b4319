"""Stored games as game records (engine/formats.py): what the rules' file formats
and statistics take."""

from __future__ import annotations

from typing import Any

from engine.formats import GameRecord


def stored_record(stored: Any, names: dict[int, str]) -> GameRecord:
    """A stored game as a game record: its options, seed, action log and the seats'
    names (a person's name, ``bot:NAME`` for a bot, ``""`` for an empty seat)."""
    seats = sorted(stored.seats, key=lambda s: s.seat)
    players = tuple(
        names.get(s.player_id, "")
        if s.kind == "human" and s.player_id is not None
        else f"bot:{s.bot}"
        if s.kind == "bot"
        else ""
        for s in seats
    )
    actions = tuple((a.seat, dict(a.action)) for a in stored.actions)
    return GameRecord(
        stored.game_type, dict(stored.config), stored.seed, actions, players, stored.name
    )


async def stored_records(store: Any, game: str, limit: int) -> list[GameRecord]:
    """The newest ``limit`` stored games of ``game``, oldest first, as records."""
    rows = await store.list_games(limit, None, game)
    games = [await store.get_game(g.id) for g, _ in rows]
    ids = [s.player_id for g in games if g for s in g.seats if s.player_id is not None]
    names = await store.player_names(ids)
    return [stored_record(g, names) for g in reversed(games) if g is not None]
