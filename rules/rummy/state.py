"""Rummy table state: immutable, so a rejected action can never half-change it.

One state type serves both variants; fields a variant does not use stay at their
empty values (gin has no wild card or drops, indian no lay-off melds).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.rummy.options import RummyConfig


class Phase(StrEnum):
    DRAW = "draw"  # the seat to move draws (indian: or drops)
    DISCARD = "discard"  # the seat to move discards (indian: or declares; gin: or knocks)
    LAYOFF = "layoff"  # gin: the defender lays off onto the knocker's melds
    DEAL_OVER = "deal_over"  # hands shown, deal scored; someone starts the next deal
    OVER = "over"  # the match is over


@dataclass(frozen=True)
class DealOutcome:
    """How a deal ended and what it cost or earned each seat.

    ``how``: ``declare``, ``wrong_declaration``, ``drops``, ``void`` (indian);
    ``knock``, ``gin``, ``undercut``, ``void`` (gin).  ``points``: indian — points
    charged to each seat (penalties); gin — points won by each seat.
    """

    how: str
    winner: int | None
    points: tuple[int, ...]


@dataclass(frozen=True)
class RummyState:
    config: RummyConfig
    seed: int
    deal_no: int  # 0-based
    dealer: int
    phase: Phase
    turn: int  # the seat to move (DRAW / DISCARD / LAYOFF)
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # face down; the top is the last card
    pile: tuple[int, ...]  # the discard pile, face up; the top is the last card
    wild_card: int | None  # indian: the cut card, face up out of play; its rank is wild
    taken: int | None  # the card the seat to move just took from the pile
    drawn: tuple[bool, ...]  # whether each seat has drawn this deal (first vs middle drop)
    out: tuple[bool, ...]  # not in this deal: dropped, or eliminated from the pool
    known: tuple[tuple[int, ...], ...]  # cards each seat took from the pile and still holds
    reshuffles: int  # times the pile was turned into the stock this deal
    charges: tuple[int, ...]  # indian: points charged this deal so far (drops)
    points: tuple[int, ...]  # match totals (indian: penalty points; gin: points won)
    eliminated: tuple[bool, ...]  # indian pool: seats at or over the limit
    boxes: tuple[int, ...]  # gin: deals won
    knocker: int  # gin: the seat that knocked (-1 before a knock)
    table: tuple[tuple[int, ...], ...]  # gin: the knocker's melds, with lay-offs
    knocker_deadwood: int  # gin: the knocker's deadwood points
    last: DealOutcome | None  # the last finished deal
    over: bool = False

    @property
    def seats(self) -> int:
        return len(self.hands)
