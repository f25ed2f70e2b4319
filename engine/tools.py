"""Command-line tools a game offers (docs/architecture.md, "Tools").

A game lists its tools in ``Game.tools``; ``cardtable`` registers each one as a
subcommand through the registry, never by the game's name.  A tool describes its
arguments and computes its output from them as a pure function: the CLI parses
the command line, reads the files named by ``INPUT`` arguments, writes the bytes
``run`` returns for ``OUTPUT`` arguments, prints the text and shows progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ArgKind(StrEnum):
    """What an argument's value is."""

    TEXT = "text"
    INT = "int"
    FLAG = "flag"  # given or not (True / False)
    INPUT = "input"  # a file the CLI reads: ``run`` gets an :class:`InputFile`
    OUTPUT = "output"  # a file the CLI writes: ``run`` gets its name, returns its bytes


@dataclass(frozen=True)
class ToolArgument:
    """One argument: ``name`` is ``deal`` for a positional one, ``--pbn`` for an
    option.  A positional one may be ``optional`` (zero or one value) or take
    ``many`` (one or more: ``run`` gets a tuple); an option is left out unless
    ``required``."""

    name: str
    help: str
    kind: ArgKind = ArgKind.TEXT
    default: str | int | None = None
    many: bool = False
    optional: bool = False
    required: bool = False

    @property
    def positional(self) -> bool:
        return not self.name.startswith("-")

    @property
    def key(self) -> str:
        """The argument's key in what ``run`` gets (``--write-tree``: ``write_tree``)."""
        return self.name.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class InputFile:
    """A file the CLI read for an ``INPUT`` argument: its name as given (for
    messages) and its bytes."""

    name: str
    data: bytes

    def text(self) -> str:
        """The file as UTF-8 text; ``bad_input`` if it is not."""
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolError(f"{self.name}: not UTF-8 text ({exc.reason})", "bad_input") from None


@dataclass(frozen=True)
class ToolOutput:
    """What a run produced.  ``text`` is printed piece by piece, in order, as it is
    produced (a generator computes each piece when the CLI asks for it); with
    ``steps`` the pieces are that many units of work (``step_label``: what they
    are) and the CLI shows its progress over them.  ``files`` holds the bytes of
    each ``OUTPUT`` argument given, by its key; the CLI writes them first."""

    text: Iterable[str] = ()
    steps: int = 0
    step_label: str = ""
    files: Mapping[str, bytes] = field(default_factory=dict)


class ToolError(ValueError):
    """Bad input to a tool: the CLI prints ``error [code]: message`` (``error:
    message`` for a tool whose errors have no code) and exits with status 2."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Tool:
    """A ``cardtable`` subcommand a game offers: its name, a one-line ``help``, an
    optional longer ``description`` (examples), its arguments and ``run``, a pure
    function of the argument values by key (``InputFile`` for an input file, the
    name given for an output file, ``None`` for one left out) that returns a
    :class:`ToolOutput` or raises :class:`ToolError`."""

    name: str
    help: str
    arguments: tuple[ToolArgument, ...]
    run: Callable[[Mapping[str, Any]], ToolOutput]
    description: str = ""
