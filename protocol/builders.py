"""The builders of server -> client messages, one per message of
protocol/messages.py (whose model is the schema of what it builds).

Plain dicts: frames are built on the hot path (``update``: once per viewer per
action), and the test client validates every one it receives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from protocol.messages import JSON, PROTOCOL_VERSION, ErrorCode


def welcome(
    token: str, player: int, name: str, resumed: bool, games: list[str], seats: list[JSON],
    options: JSON | None = None, formats: JSON | None = None,
    statistics: list[str] | None = None,
) -> JSON:
    """The answer to ``hello``; ``seats``: the session's seats at open tables;
    ``options``: each game's table options as a schema, for create-table forms;
    ``formats``: each game's file formats (names), for import and export;
    ``statistics``: the games that keep per-player statistics (``stats``)."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "token": token,
        "player": player,
        "name": name,
        "resumed": resumed,
        "games": games,
        "seats": seats,
        "options": options or {},
        "formats": formats or {},
        "statistics": statistics or [],
    }


def seat_claim(table: int, seat: int) -> JSON:
    return {"table": table, "seat": seat}


def tables(infos: list[JSON]) -> JSON:
    return {"type": "tables", "tables": infos}


def table_created(info: JSON) -> JSON:
    return {"type": "table_created", "table": info}


def joined(table: int, seat: int, seat_token: str) -> JSON:
    return {"type": "joined", "table": table, "seat": seat, "seat_token": seat_token}


def left(table: int) -> JSON:
    return {"type": "left", "table": table}


def table_status(info: JSON) -> JSON:
    """The ``table`` message: ``info`` is the table's :class:`TableInfo`."""
    return {"type": "table", "table": info}


def snapshot(
    *,
    table: int,
    version: int,
    seat: int | None,
    status: str,
    view: JSON,
    to_act: list[int],
    legal: Sequence[Mapping[str, Any]] | None,
    labels: list[str] | None,
    hints: JSON,
    clock: JSON | None,
) -> JSON:
    """The whole view of a table for one viewer (:class:`Snapshot`)."""
    return {
        "type": "snapshot",
        "table": table,
        "version": version,
        "seat": seat,
        "status": status,
        "view": view,
        "to_act": to_act,
        "legal": legal,
        "labels": labels,
        "hints": hints,
        "clock": clock,
    }


def update(
    *,
    table: int,
    version: int,
    seat: int | None,
    status: str,
    events: list[JSON],
    narration: list[str | None],
    view: JSON,
    to_act: list[int],
    legal: Sequence[Mapping[str, Any]] | None,
    labels: list[str] | None,
    hints: JSON,
    clock: JSON | None,
) -> JSON:
    """One accepted action as one viewer sees it (:class:`Update`)."""
    return {
        "type": "update",
        "table": table,
        "version": version,
        "seat": seat,
        "status": status,
        "events": events,
        "narration": narration,
        "view": view,
        "to_act": to_act,
        "legal": legal,
        "labels": labels,
        "hints": hints,
        "clock": clock,
    }


def ack(table: int, version: int) -> JSON:
    return {"type": "ack", "table": table, "version": version}


def error(code: ErrorCode, message: str, reason: str | None = None) -> JSON:
    """An ``error``; ``reason`` (the rules' own code) is null where there is none,
    so every error has the same keys."""
    return {"type": "error", "code": code.value, "message": message, "reason": reason}


def analysis(table: int, fields: JSON) -> JSON:
    """The ``analysis`` of an ended board (``fields``: :class:`BoardAnalysisFields`)."""
    return {"type": "analysis", "table": table, **fields}


def replay_page(
    *,
    game_id: int,
    game: str,
    viewer: int | str,
    status: str,
    seat_names: list[str],
    total: int,
    steps: list[JSON],
    following: int | None,
    result: JSON | None,
    analysed: bool,
) -> JSON:
    """One page of a stored game's replay (``following``: the next page's start)."""
    return {
        "type": "replay",
        "game_id": game_id,
        "game": game,
        "viewer": viewer,
        "status": status,
        "seat_names": seat_names,
        "total": total,
        "steps": steps,
        "next": following,
        "result": result,
        "analysis": analysed,
    }


def game_summary(
    game_id: int,
    game: str,
    name: str,
    status: str,
    actions: int,
    created_at: str,
    result: JSON | None,
) -> JSON:
    return {
        "game_id": game_id,
        "game": game,
        "name": name,
        "status": status,
        "actions": actions,
        "created_at": created_at,
        "result": result,
    }


def games(summaries: list[JSON]) -> JSON:
    return {"type": "games", "games": summaries}


def stats(game: str, count: int, columns: list[JSON], rows: list[JSON]) -> JSON:
    """A game's statistics table (``columns``: name, description, unit; ``rows``:
    player and values)."""
    return {"type": "stats", "game": game, "games": count, "columns": columns, "rows": rows}


def pong() -> JSON:
    return {"type": "pong"}


def imported_game(game_id: int, game: str, title: str, status: str,
                  result: JSON | None, stored_before: bool) -> JSON:
    return {"game_id": game_id, "game": game, "title": title, "status": status,
            "result": result, "stored_before": stored_before}


def imported(fmt: str, games: list[JSON]) -> JSON:
    return {"type": "imported", "format": fmt, "games": games}


def import_part(received: int) -> JSON:
    return {"type": "import_part", "received": received}


def exported(game_id: int, fmt: str, text: str) -> JSON:
    return {"type": "exported", "game_id": game_id, "format": fmt, "text": text}
