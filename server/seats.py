"""A seat at a table: who holds it (nobody, a human, a bot) and their connection state."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from server.persistence.store import SeatRecord


@dataclass
class Seat:
    index: int
    kind: str = "empty"  # empty | human | bot
    player_id: int | None = None
    player_name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    connected: bool = False
    stand_in: str | None = None  # bot playing for an absent human
    grace: asyncio.Task[None] | None = None

    @property
    def controller(self) -> str | None:
        """The bot that moves for this seat now, if a bot does."""
        return self.bot if self.kind == "bot" else self.stand_in

    def record(self) -> SeatRecord:
        return SeatRecord(self.index, self.kind, self.player_id, self.bot, self.token_hash)
