"""Statistics a game keeps over stored games, per player (docs/architecture.md,
"Statistics").

``Game.statistics`` turns game records (engine/formats.py) into a
:class:`StatTable`: named columns, one row per player.  The CLI's ``stats`` and the
browser render any game's table the same way, never naming a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Value = int | float | None  # None: the player had no chance to show this statistic


@dataclass(frozen=True)
class Column:
    """One statistic: its short name (``VPIP``), what it measures, and its unit
    (``"%"``, ``"count"``, ``"ratio"``, or a game's own such as ``"bb/100"``)."""

    name: str
    description: str
    unit: str


@dataclass(frozen=True)
class StatTable:
    """Columns, and per player name the values in column order."""

    columns: tuple[Column, ...]
    rows: Mapping[str, tuple[Value, ...]]

    def row(self, player: str) -> dict[str, Value]:
        """One player's statistics by column name (KeyError for an unknown player)."""
        return {c.name: v for c, v in zip(self.columns, self.rows[player], strict=True)}
