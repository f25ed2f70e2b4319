"""The requests about stored games: replay pages, file import and export, and
statistics.  Each reads the database and does its heavy part (replaying logs,
parsing and writing files, a double-dummy search) on worker threads, so the event
loop only sends the result."""

from __future__ import annotations

from typing import Any

from engine.formats import FormatError
from protocol import builders as p
from protocol import requests as rq
from protocol.messages import ANALYSIS_STEPS, ErrorCode, TableError
from rules.registry import available, get_game
from server.analysis import Analyst
from server.connection import Reply
from server.files import MAX_FILE_BYTES, export_text, read_file, to_store
from server.jsontext import encode
from server.persistence.store import Store, StoredGame
from server.records import stored_records, summary_text
from server.replay import build_replay, check_replay


async def import_file(store: Store, readers: Analyst, reply: Reply, msg: rq.ImportFile) -> None:
    """A file's games, checked on a worker thread and stored in one transaction;
    the parts of a file sent with ``more`` wait on the connection."""
    conn = reply.conn
    conn.upload.append(msg.text)
    size = sum(len(part.encode("utf-8", "surrogatepass")) for part in conn.upload)
    if size > MAX_FILE_BYTES:
        conn.upload = []
        raise TableError(
            ErrorCode.BAD_FILE, f"the file is larger than {MAX_FILE_BYTES // 1024} KiB"
        )
    if msg.more:
        reply.send(p.import_part(size))
        return
    text, conn.upload = "".join(conn.upload), []
    try:
        fmt, checked = await readers.run(read_file, text, msg.format, msg.filename)
    except FormatError as exc:
        raise TableError(ErrorCode.BAD_FILE, str(exc)) from None
    ids = await store.import_games([to_store(c) for c in checked])
    # Each result in its table's words, as list_games gives it (an imported poker
    # hand's winner by the name its file gives).
    games = [
        p.imported_game(i.game_id, c.record.game, c.record.title, c.status, c.result and {
            **c.result,
            "summary": summary_text(c.record.game, c.config, c.result, c.record.players)},
            stored_before=not i.new)
        for i, c in zip(ids, checked, strict=True)
    ]
    reply.send(p.imported(fmt.name, games))


async def export(store: Store, readers: Analyst, reply: Reply, msg: rq.ExportGame) -> None:
    """An ended game as the text of a file in ``msg.format``."""
    stored = await store.get_game(msg.game_id)
    if stored is None:
        raise TableError(ErrorCode.UNKNOWN_GAME_ID, f"no stored game {msg.game_id}")
    if stored.status not in ("finished", "abandoned"):
        raise TableError(
            ErrorCode.REPLAY_HIDDEN,
            "a file shows every hand: only games that have ended are exported",
        )
    ids = [s.player_id for s in stored.seats if s.player_id is not None]
    names = await store.player_names(ids)
    by_seat = {s.seat: names[s.player_id] for s in stored.seats if s.player_id in names}
    try:
        text = await readers.run(export_text, stored, msg.format, by_seat)
    except FormatError as exc:
        raise TableError(ErrorCode.BAD_FILE, str(exc)) from None
    reply.send(p.exported(stored.id, msg.format.strip().lower(), text))


async def stats(store: Store, readers: Analyst, reply: Reply, msg: rq.Stats) -> None:
    """The game's statistics over its stored games, per player."""
    if msg.game not in available():
        raise TableError(ErrorCode.UNKNOWN_GAME, f"no game named {msg.game!r}")
    records = await stored_records(store, msg.game, msg.limit)
    # Replaying every stored game takes a while: a worker thread computes.
    table = await readers.run(get_game(msg.game).statistics, records)
    columns = [] if table is None else [vars(c) for c in table.columns]
    rows = (
        []
        if table is None
        else [
            {"player": name, "values": list(values)}
            for name, values in table.rows.items()
            if msg.player in (None, name)
        ]
    )
    reply.send(p.stats(msg.game, len(records), columns, rows))


async def replay(store: Store, runner: Analyst, reply: Reply, msg: rq.Replay) -> None:
    """One page of a stored game's replay, built and encoded on ``runner``'s threads."""
    stored = await store.get_game(msg.game_id)
    if stored is None:
        raise TableError(ErrorCode.UNKNOWN_GAME_ID, f"no stored game {msg.game_id}")
    # Refused at once, before any work: as this session's player may see it.
    check_replay(stored, msg.viewer, analysis=msg.analysis, player=reply.conn.require_session())
    limit = min(msg.limit, ANALYSIS_STEPS) if msg.analysis else msg.limit
    # Re-applying a long log (and any double-dummy search) takes seconds: a
    # worker thread builds and encodes the page; the event loop only sends it.
    text = await runner.run(
        _encoded_replay, stored, msg.viewer, msg.start, limit, msg.analysis, reply.id
    )
    reply.conn.send_text(text)


def _encoded_replay(
    stored: StoredGame, viewer: Any, start: int, limit: int, analysis: bool, rid: Any
) -> bytes:
    data = build_replay(stored, viewer, start, limit, analysis=analysis)
    if rid is not None:
        data["id"] = rid
    return encode(data)
