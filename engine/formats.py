"""File formats a game reads and writes (docs/architecture.md, "File formats").

A game lists its formats in ``Game.formats``; the CLI's ``import`` and ``export``
and the server reach every format through that list, never by a game's name.  A
format turns a file's text into :class:`GameRecord` values and back; both ways are
pure functions, so a reader never half-stores a file: it either returns every game
of the file or raises :class:`FormatError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Action = Mapping[str, Any]


@dataclass(frozen=True)
class GameRecord:
    """One game as a file holds it.

    ``options`` and ``seed`` create the game (the options fix whatever the file
    fixes: a deal, stacks, blinds); ``actions`` is the (acting seat, action) log
    that reproduces it through the rules; ``players`` names the seats (empty
    strings where the file names nobody); ``title`` says which game of the file it
    is (``Board 3``); ``tags`` keeps what the file says that the rules have no
    place for, so an export can write it back.
    """

    game: str
    options: Mapping[str, Any]
    seed: int
    actions: tuple[tuple[int, Action], ...]
    players: tuple[str, ...] = ()
    title: str = ""
    tags: Mapping[str, str] = field(default_factory=dict)


MESSAGE_CHARS = 500  # the most of a FormatError's message (the where is added to it)


class FormatError(ValueError):
    """A file that cannot be read, with where: ``line`` (1-based, when known) and
    ``item`` (the game of the file and the tag or field, when known)."""

    code = "bad_file"

    def __init__(self, message: str, *, line: int | None = None, item: str = "") -> None:
        # Messages quote the file, whose "word" may be a megabyte without a space: the
        # error must stay a line, and fit a client's frame.
        if len(message) > MESSAGE_CHARS:
            message = message[: MESSAGE_CHARS - 1] + "…"
        where = ", ".join(
            part for part in (f"line {line}" if line else "", item) if part
        )
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.line = line
        self.item = item


@dataclass(frozen=True)
class FileFormat:
    """A file format: its name (``pbn``), the file suffixes it claims (``.pbn``),
    a reader of a whole file and a writer of records (one file, many games)."""

    name: str
    title: str
    suffixes: tuple[str, ...]
    read: Callable[[str], list[GameRecord]]
    write: Callable[[Sequence[GameRecord]], str]
