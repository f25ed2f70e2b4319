"""``cardtable import`` and ``cardtable export``: files of any game's formats in and
out of the game store (server/files.py; docs/formats.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from engine.errors import IllegalAction
from engine.formats import FormatError
from server.cli_common import add_db, record_id, settings_of, with_store


def add_files_parsers(sub: Any) -> None:
    """The ``import`` and ``export`` subcommands."""
    imp = sub.add_parser(
        "import",
        help="store every game of a file (PBN, LIN, …) so it replays; all or nothing",
    )
    imp.add_argument("file", type=Path, help="the file to read")
    imp.add_argument("--format", help="the file's format (default: from its suffix)")
    add_db(imp)
    imp.set_defaults(func=cmd_import)

    exp = sub.add_parser("export", help="write a stored game in one of its game's formats")
    exp.add_argument("game_id", type=record_id, help="the game's id (see `cardtable games`)")
    exp.add_argument("--format", required=True, help="pbn, lin, … (the game's formats)")
    exp.add_argument("-o", "--out", type=Path, help="file to write (default: standard output)")
    add_db(exp)
    exp.set_defaults(func=cmd_export)


def cmd_import(args: argparse.Namespace) -> int:
    from engine.presentation import plural
    from server.files import decode, read_file, to_store
    from server.persistence.store import ImportedId, Store
    from server.records import summary_text

    try:
        text = decode(args.file.read_bytes())
        fmt, checked = read_file(text, args.format, args.file.name)
    except OSError as exc:
        print(f"error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except FormatError as exc:
        print(f"error: {args.file}: {exc}{_other_format(args, text)}", file=sys.stderr)
        return 2
    except IllegalAction as exc:
        hint = " (--format)" if exc.code == "unknown_format" and not args.format else ""
        print(f"error: {args.file}: {exc.message}{hint}", file=sys.stderr)
        return 2

    async def store_all() -> list[ImportedId]:
        store = await Store.open(settings_of(args).db_url)
        try:
            return await store.import_games([to_store(c) for c in checked])
        finally:
            await store.close()

    ids = asyncio.run(store_all())
    before = sum(not i.new for i in ids)
    print(f"imported {plural(len(ids) - before, 'game')} from {args.file} ({fmt.title})"
          + (f"; {plural(before, 'game')} of it stored before, kept once" if before else ""))
    for stored, c in zip(ids, checked, strict=True):
        summary = (summary_text(c.record.game, c.config, c.result, c.record.players)
                   if c.result else "unfinished record")
        again = "" if stored.new else "  (stored before)"
        title = c.record.title.strip()
        # A title the summary already starts with ("Board 18" / "board 18: ...") or
        # none at all (a PHH hand) is not written before it.
        head = f"{title}: " if title and not summary.lower().startswith(title.lower()) else ""
        print(f"{stored.game_id:>6}  {head}{summary}{again}")
    print("replay one with `cardtable replay ID`")
    return 0


def _other_format(args: argparse.Namespace, text: str) -> str:
    """Where the suffix guessed the format (BBO's hands saved as ``.txt`` read as
    PokerStars), the format the file does read as, if one does."""
    from rules.registry import file_formats
    from server.files import read_file

    if args.format:
        return ""
    for _, fmt in file_formats():
        try:
            read_file(text, fmt.name, args.file.name)
        except (FormatError, IllegalAction):
            continue
        return f" (it reads as {fmt.title}: --format {fmt.name})"
    return ""


def cmd_export(args: argparse.Namespace) -> int:
    from server.files import export_text

    async def fetch(store: Any) -> Any:
        stored = await store.get_game(args.game_id)
        if stored is None:
            return None, {}
        ids = [s.player_id for s in stored.seats if s.player_id is not None]
        names = await store.player_names(ids)
        return stored, {s.seat: names[s.player_id] for s in stored.seats
                        if s.player_id in names}

    stored, names = with_store(args, fetch)
    if stored is None:
        print(f"error: no stored game {args.game_id}", file=sys.stderr)
        return 2
    if stored.status == "waiting":
        # Its seats are not all taken and nothing is dealt: a file would hold a deal
        # no one played and players who may yet change.
        print(f"error: game {args.game_id} has not started: nothing to write yet",
              file=sys.stderr)
        return 2
    try:
        text = export_text(stored, args.format, names)
    except (IllegalAction, FormatError) as exc:
        print(f"error: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    if args.out:
        args.out.write_text(text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0
