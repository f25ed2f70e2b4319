"""Ending a whole match by agreement (docs/protocol.md, "Ending the match").

A mixin of :class:`server.table.Table`.  A seated player proposes (or agrees)
with ``end_match``; once every player who must agree has, the table ends the
game through ``Game.end_by_agreement`` and stores it as the log's last action
(``END_MATCH``), so the game ends in its log and replays to its standings.  Who
must agree: every human seat whose player is connected; bots, and players who
are away (their seat played by a stand-in), agree by policy.  A refusal
withdraws the proposal.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from engine.events import Event
from engine.game import END_MATCH, Game
from protocol import builders as p
from protocol.messages import ErrorCode, TableError
from server.seats import Seat
from server.table_context import TableContext

if TYPE_CHECKING:
    from server.connection import Reply

log = logging.getLogger("cardtable.table")


class TableVotes:
    """The end-of-match vote: who agreed, who must, and the end itself."""

    ctx: TableContext[Any]
    id: int
    game: Game[Any, Any]
    seats: list[Seat]
    status: str
    state: Any
    end_votes: set[int]

    if TYPE_CHECKING:

        def own_live_seat(self, reply: Reply, seat_token: str, what: str) -> Seat: ...

        def info(self) -> dict[str, Any]: ...

        def _broadcast_info(self) -> None: ...

        async def commit(self, seat: int, action: dict[str, Any], actor: str, new_state: Any,
                         events: list[Event]) -> int: ...

    def end_needed(self) -> list[int]:
        """The seats whose agreement ending the match needs now: connected humans."""
        return [s.index for s in self.seats if s.kind == "human" and s.connected]

    def vote_info(self) -> dict[str, Any]:
        """The vote as the table's info shows it."""
        live = self.status == "live"
        return {
            "agreed_end": self.game.ends_by_agreement,
            "end_votes": sorted(self.end_votes) if live else [],
            "end_needed": self.end_needed() if live and self.end_votes else [],
        }

    async def vote_end(self, reply: Reply, seat_token: str, agree: bool) -> None:
        """A seated player's ``end_match`` request; answered with the table's info."""
        seat = self.own_live_seat(reply, seat_token, "ending the match")
        if not self.game.ends_by_agreement:
            raise TableError(ErrorCode.NOT_ALLOWED,
                             f"{self.game.title} cannot be ended by agreement")
        detail = {"seat": seat.index, "player": seat.player_id, "agree": agree}
        await self.ctx.store.log_table_event(self.id, "end_match_vote", detail)
        if not agree:
            self.end_votes.clear()  # a refusal withdraws the proposal
        else:
            self.end_votes.add(seat.index)
            if set(self.end_needed()) <= self.end_votes:
                await self._end_match(seat.index)
        reply.send(p.table_status(self.info()))
        self._broadcast_info()

    async def _end_match(self, seat: int) -> None:
        try:
            new_state, events = self.game.end_by_agreement(self.state)
        except IllegalAction as exc:
            raise TableError(ErrorCode.NOT_ALLOWED, exc.message, exc.code) from None
        log.info("table %d: the players agreed to end the match", self.id)
        await self.commit(seat, {"type": END_MATCH}, "agreement", new_state, events)
