"""What a table needs from the server around it, handed to it at construction:
the services it uses and the two things it tells the lobby."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from server.analysis import Analyst
from server.botpool import BotRunner
from server.clock import Clock
from server.persistence.store import Store
from server.settings import Settings

T = TypeVar("T")  # the table (generic so this module need not import it)


@dataclass(frozen=True)
class TableContext(Generic[T]):
    settings: Settings
    clock: Clock
    store: Store
    bots: BotRunner
    analyst: Analyst  # double-dummy (or other) analyses of ended boards, off the loop
    # The table's seats or status changed; the text is its ``table`` frame, encoded.
    on_change: Callable[[T, bytes], None]
    # The game ended (or was abandoned): keep the table this many seconds, then reap it.
    on_finished: Callable[[T, float], None]
