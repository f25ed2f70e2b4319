"""A distributed tournament's job on the wire and its result in the database
(docs/cluster.md, "Distributed tournaments").

A job is one game of a stored tournament's match: the match's deal in one of its
seatings, the same ``GameJob`` a local run hands its process pool, named by
(tournament, match, seating) so that its result is recorded once.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bots.arena import PlayedGame, SeatFaults
from bots.tournament.jobs import GameJob
from server.persistence.jobs import JobKey


class JobMessage(BaseModel):
    """What the coordinator publishes and a worker plays."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tournament: int
    match: int
    seating: int
    job: GameJob

    @property
    def key(self) -> JobKey:
        return JobKey(self.tournament, self.match, self.seating)


def played_json(p: PlayedGame) -> dict[str, Any]:
    """A played game as its job's stored result (JSON keeps every score exact:
    floats are written with ``repr``)."""
    return {
        "scores": list(p.scores),
        "log": [[seat, action] for seat, action in p.log],
        "illegal": p.illegal,
        "stand_ins": list(p.stand_ins),
        "result": p.result,
        "faults": [f.to_json() for f in p.faults],
        "stand_in_moves": list(p.stand_in_moves),
    }


def played_of(data: dict[str, Any]) -> PlayedGame:
    """The played game a stored result describes."""
    return PlayedGame(
        tuple(data["scores"]),
        tuple((int(seat), dict(action)) for seat, action in data["log"]),
        int(data["illegal"]),
        tuple(int(n) for n in data["stand_ins"]),
        dict(data["result"]),
        tuple(SeatFaults.of_json(f) for f in data.get("faults", [])),  # none before they were kept
        tuple(int(k) for k in data.get("stand_in_moves", [])),
    )
