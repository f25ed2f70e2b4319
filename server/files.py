"""Files in and out of the game store, for every game's formats (engine/formats.py):
check a file's records through the rules, and turn a stored game back into a file.
Nothing here names a game; the formats come from the registry."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction
from engine.formats import FileFormat, FormatError, GameRecord
from rules.registry import find_format, get_game
from server.persistence.store import ImportedGame, StoredGame

MAX_FILE_BYTES = 1024 * 1024  # an import is at most this much text (UTF-8)
IMPORT_ACTOR = "import"  # the actor of every action an import stores


@dataclass(frozen=True)
class CheckedGame:
    """A record replayed through its game's rules: what the store keeps of it."""

    record: GameRecord
    config: dict[str, Any]
    actions: list[tuple[int, dict[str, Any]]]  # canonical, as the rules return them
    seats: int
    status: str  # "finished", or "abandoned" for a record that stops before the end
    result: dict[str, Any] | None

    @property
    def source(self) -> dict[str, Any]:
        """What the store keeps of the file beside the game (for export)."""
        return {
            "title": self.record.title,
            "players": list(self.record.players),
            "tags": dict(self.record.tags),
        }


def fingerprint(checked: CheckedGame) -> str:
    """The record hashed: its game, rules, deal, actions and what its file said of
    it (title, players, tags), so only the same record of the same game matches."""
    r = checked.record
    content = [r.game, checked.config, r.seed, checked.actions, checked.source]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def to_store(checked: CheckedGame) -> ImportedGame:
    """What :meth:`Store.import_games` stores of a checked game."""
    r = checked.record
    return ImportedGame(
        game_type=r.game,
        config=checked.config,
        seed=r.seed,
        name=r.title or r.game,
        seats=checked.seats,
        status=checked.status,
        result=checked.result,
        source=checked.source,
        actions=checked.actions,
        fingerprint=fingerprint(checked),
        actor=IMPORT_ACTOR,
    )


def check_records(records: Sequence[GameRecord]) -> list[CheckedGame]:
    """Every record replayed through the rules; the first that does not replay
    raises :class:`FormatError` naming it and the action."""
    out = []
    for record in records:
        try:
            game = get_game(record.game)
            config = game.parse_config(record.options)
        except IllegalAction as exc:
            raise FormatError(exc.message, item=record.title) from None
        state = game.new(config, record.seed)
        actions = []
        for n, (seat, action) in enumerate(record.actions, 1):
            try:
                move = game.validate(state, seat, action)
            except IllegalAction as exc:
                raise FormatError(f"action {n}: {exc.message}", item=record.title) from None
            state, _ = game.apply(state, seat, move)
            actions.append((seat, dict(move.action)))
        result = game.result(state)
        out.append(CheckedGame(
            record=record,
            config=game.config_json(config),
            actions=actions,
            seats=game.seat_count(config),
            status="finished" if result is not None else "abandoned",
            result=result.to_json() if result is not None else None,
        ))
    return out


def read_file(text: str, format_name: str | None = None,
              filename: str | None = None) -> tuple[FileFormat, list[CheckedGame]]:
    """A whole file's games, checked: all of them or a :class:`FormatError`."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise FormatError(f"the file is larger than {MAX_FILE_BYTES // 1024} KiB")
    _, fmt = find_format(format_name, filename)
    records = fmt.read(text)
    if not records:
        raise FormatError("the file holds no game")
    return fmt, check_records(records)


def decode(data: bytes) -> str:
    """A file's text: UTF-8 (a byte-order mark dropped), else Latin-1, which many
    bridge programs still write."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def stored_record(stored: StoredGame, names: Mapping[int, str] | None = None) -> GameRecord:
    """A stored game as a file record: an imported game's title, players and tags
    as the file had them; otherwise the seats' names (``names``: seat -> name)."""
    source = stored.table_options.get("imported") or {}
    players = source.get("players") or [
        (names or {}).get(seat.seat, seat.bot or "") for seat in stored.seats
    ]
    return GameRecord(
        game=stored.game_type,
        options=stored.config,
        seed=stored.seed,
        actions=tuple((a.seat, a.action) for a in stored.actions),
        players=tuple(str(p) for p in players),
        title=str(source.get("title") or stored.name),
        tags={str(k): str(v) for k, v in (source.get("tags") or {}).items()},
    )


def export_text(stored: StoredGame, format_name: str,
                names: Mapping[int, str] | None = None) -> str:
    """A stored game written in one of its game's formats (``unknown_format``
    when its game has no format of that name)."""
    game = get_game(stored.game_type)
    for fmt in game.formats:
        if fmt.name == format_name.strip().lower():
            return fmt.write([stored_record(stored, names)])
    if not game.formats:
        raise IllegalAction("unknown_format", f"{game.title} has no file format")
    known = ", ".join(f.name for f in game.formats)
    raise IllegalAction("unknown_format", f"{game.title} is written as: {known}")
