"""The game's analysis of a table's ended boards (bridge: double dummy).

A mixin of :class:`server.table.Table`.  Each board an action ends is analysed off
the event loop (``TableContext.analyst``); the ``analysis`` message goes to everyone
at the table, and is kept so that whoever joins, spectates or resumes later gets
it too (docs/protocol.md, "Double-dummy analysis of a board (bridge)").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from engine.game import EndedBoard, Game
from protocol import builders as p
from protocol.messages import TableError
from server.jsontext import encode
from server.table_context import TableContext

if TYPE_CHECKING:
    from server.connection import Connection

log = logging.getLogger("cardtable.table")
T = TypeVar("T")


class TableAnalyses:
    """Analyses of ended boards: made in the background, sent, kept for latecomers."""

    ctx: TableContext[Any]
    id: int
    game: Game[Any, Any]
    viewers: dict[Connection, int]
    analyses: dict[int, dict[str, Any]]
    analysis_tasks: set[asyncio.Task[None]]

    if TYPE_CHECKING:

        async def submit(self, job: Callable[[], Awaitable[T]]) -> T: ...

    def analyse(self, ended: EndedBoard) -> None:
        """Analyse an ended board in the background; everyone at the table gets it."""
        task = asyncio.create_task(self._analyse(ended), name=f"analysis-{self.id}-{ended.board}")
        self.analysis_tasks.add(task)
        task.add_done_callback(self.analysis_tasks.discard)

    async def _analyse(self, ended: EndedBoard) -> None:
        hook = self.game.analysis
        assert hook is not None
        try:
            fields = await self.ctx.analyst.run(hook.board, ended)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis of board %d at table %d failed", ended.board, self.id)
            return
        msg = p.analysis(self.id, fields)

        async def publish() -> None:
            self.analyses[ended.board] = msg
            text = encode(msg)
            for conn in list(self.viewers):
                conn.send_text(text)

        try:
            await self.submit(publish)
        except TableError:
            await publish()  # the queue is full; publishing is one atomic step anyway

    def _send_analyses(self, conn: Connection) -> None:
        for board in sorted(self.analyses):
            conn.send(self.analyses[board])
