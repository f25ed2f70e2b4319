"""Replays of stored games, as a chosen viewer sees them.

Hidden cards are revealed only once a game has ended: while a game is live,
its replay is available to spectators' eyes only.
"""

from __future__ import annotations

from typing import Any

from engine.events import OMNISCIENT, SPECTATOR, visible
from engine.replay import LoggedAction, steps
from rules.registry import get_game
from server.persistence.store import StoredGame
from server.protocol import ErrorCode

ViewerName = int | str


def viewer_id(viewer: ViewerName, seats: int) -> int:
    """Map ``"spectator"``, ``"all"`` or a seat number to an engine viewer id."""
    from server.table import TableError

    if viewer == "spectator":
        return SPECTATOR
    if viewer == "all":
        return OMNISCIENT
    if isinstance(viewer, int) and 0 <= viewer < seats:
        return viewer
    raise TableError(ErrorCode.BAD_SEAT, f"viewer must be 0..{seats - 1}, 'spectator' or 'all'")


def build_replay(
    stored: StoredGame, viewer: ViewerName, start: int = 0, limit: int = 500
) -> dict[str, Any]:
    """The ``replay`` message for a stored game: one step per logged action."""
    from server.table import TableError

    game = get_game(stored.game_type)
    config = game.parse_config(stored.config)
    vid = viewer_id(viewer, game.seat_count(config))
    if stored.status not in ("finished", "abandoned") and vid != SPECTATOR:
        raise TableError(
            ErrorCode.REPLAY_HIDDEN, "a game still in play can only be replayed as a spectator"
        )
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    out: list[dict[str, Any]] = []
    for step in steps(game, config, stored.seed, log):
        if step.seq < start:
            continue
        if len(out) >= limit:
            break
        out.append(
            {
                "seq": step.seq,
                "seat": step.seat if step.seq else None,
                "action": dict(step.action) if step.seq else None,
                "events": visible(step.events, vid),
                "view": game.view(step.state, vid),
            }
        )
    return {
        "type": "replay",
        "game_id": stored.id,
        "game": stored.game_type,
        "viewer": viewer,
        "status": stored.status,
        "seat_names": list(game.seat_names(config)),
        "total": len(log) + 1,
        "steps": out,
        "result": stored.result,
    }
