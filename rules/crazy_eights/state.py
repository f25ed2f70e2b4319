"""Crazy Eights state: immutable, so a rejected action can never half-change it."""

from __future__ import annotations

from dataclasses import dataclass

from rules.crazy_eights.options import CrazyEightsConfig


@dataclass(frozen=True)
class CrazyEightsState:
    config: CrazyEightsConfig
    seed: int
    hand_no: int  # 0-based
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # face down; the top card is the last
    pile: tuple[int, ...]  # the discard pile, face up; the top card is the last
    suit: int  # the suit to match: the top card's, or the one named with an eight
    turn: int
    drawn: int | None  # the card the seat to play has just drawn (it may play only that)
    stuck: int  # seats in a row that passed with nothing to draw and nothing to play
    reshuffles: int  # this hand's, each its own random stream
    penalties: tuple[int, ...]  # the game's penalty points per seat
    over: bool = False

    @property
    def seats(self) -> int:
        return self.config.seats
